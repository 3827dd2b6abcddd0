scontrol update nodename=gpu-node02 state=drain reason=capture\ test
