sbatch --parsable -p nosuch --wrap true
