scontrol show partition -o
