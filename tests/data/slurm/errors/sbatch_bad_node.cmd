sbatch -w gpu-node99 --wrap true
