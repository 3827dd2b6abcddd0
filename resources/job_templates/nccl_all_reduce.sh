#!/bin/bash
# Strata template: NCCL all-reduce bandwidth across the allocated GPUs (nccl-tests).
#SBATCH --job-name=nccl-all-reduce
#SBATCH --ntasks-per-node=1

srun all_reduce_perf -b 8 -e 8G -f 2 -g "${SLURM_GPUS_ON_NODE:-8}"
