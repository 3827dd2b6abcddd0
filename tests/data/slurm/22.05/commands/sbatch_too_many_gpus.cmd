sbatch --parsable --gres=gpu:9 --wrap true
