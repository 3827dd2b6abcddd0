sbatch -p nosuch --wrap true
