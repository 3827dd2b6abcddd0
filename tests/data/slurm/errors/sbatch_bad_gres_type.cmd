sbatch --gres=gpu:a100:1 --wrap true
