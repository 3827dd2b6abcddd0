sbatch --parsable -w gpu-node99 --wrap true
