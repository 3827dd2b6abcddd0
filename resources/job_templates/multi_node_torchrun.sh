#!/bin/bash
# Strata template: distributed PyTorch training, one torchrun per node.
#SBATCH --job-name=torchrun
#SBATCH --ntasks-per-node=1

head_node=$(scontrol show hostnames "${SLURM_JOB_NODELIST}" | head -n 1)
export MASTER_ADDR=${head_node}
export MASTER_PORT=29500
# Your training script, relative to the job's working directory.
train_script=${TRAIN_SCRIPT:-train.py}
if [ ! -f "${train_script}" ]; then
    echo "no ${train_script} in $(pwd): set TRAIN_SCRIPT or edit this template" >&2
    exit 1
fi

srun torchrun \
    --nnodes="${SLURM_NNODES}" \
    --nproc-per-node="${SLURM_GPUS_ON_NODE:-8}" \
    --rdzv-backend=c10d \
    --rdzv-endpoint="${MASTER_ADDR}:${MASTER_PORT}" \
    "${train_script}"
