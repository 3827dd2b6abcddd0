scontrol show node -o
