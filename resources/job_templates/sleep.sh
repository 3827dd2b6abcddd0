#!/bin/sh
# Strata template: holds its GPUs for a while and does nothing else (for testing allocation).
#SBATCH --job-name=sleep

echo "job ${SLURM_JOB_ID} on $(hostname) with GPUs ${CUDA_VISIBLE_DEVICES:-none}"
sleep 300
