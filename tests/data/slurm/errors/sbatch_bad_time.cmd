sbatch -t notatime --wrap true
