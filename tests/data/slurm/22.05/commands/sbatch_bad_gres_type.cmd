sbatch --parsable --gres=gpu:a100:1 --wrap true
