scontrol update nodename=gpu-node01 state=drain
