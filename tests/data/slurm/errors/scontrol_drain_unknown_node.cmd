scontrol update nodename=gpu-node99 state=drain reason=test
