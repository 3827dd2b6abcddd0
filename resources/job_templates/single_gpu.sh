#!/bin/bash
# Strata template: one task on one node, showing the GPUs Slurm handed to the job.
#SBATCH --job-name=gpu-check
#SBATCH --ntasks=1

echo "job ${SLURM_JOB_ID} on $(hostname)"
echo "GPUs: ${CUDA_VISIBLE_DEVICES:-none}"
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used --format=csv
fi
sleep 60
