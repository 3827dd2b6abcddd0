scontrol show node --json gpu-node03
