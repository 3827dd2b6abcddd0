sbatch --gres=tpu:1 --wrap true
