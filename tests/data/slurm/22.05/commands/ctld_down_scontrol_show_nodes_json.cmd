scontrol show nodes --json
