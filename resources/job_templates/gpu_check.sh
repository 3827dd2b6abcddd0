#!/bin/bash
# Strata template: one task per node saying where it runs and which GPUs it got (runs as is on any GPU cluster).
#SBATCH --job-name=gpu-check
#SBATCH --ntasks-per-node=1

srun bash -c 'echo "$(hostname): GPUs ${CUDA_VISIBLE_DEVICES:-none}"; if command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi -L; fi'

# Distributed training has this shape (replace the line above; train.py is your own script):
#   head_node=$(scontrol show hostnames "${SLURM_JOB_NODELIST}" | head -n 1)
#   srun torchrun --nnodes="${SLURM_NNODES}" --nproc-per-node="${SLURM_GPUS_ON_NODE:-8}" \
#       --rdzv-backend=c10d --rdzv-endpoint="${head_node}:29500" train.py
