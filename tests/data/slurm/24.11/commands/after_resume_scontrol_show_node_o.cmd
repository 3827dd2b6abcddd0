scontrol show node -o gpu-node03
