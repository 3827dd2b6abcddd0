sbatch --wrap true
