scontrol update NodeName=gpu-node03 State=DRAIN Reason=capture\ test
