sbatch --gres=gpu:9 --wrap true
