scontrol update nodename=gpu-node02 state=resume
