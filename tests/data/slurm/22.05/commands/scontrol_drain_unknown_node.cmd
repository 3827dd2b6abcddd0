scontrol update NodeName=gpu-node99 State=DRAIN Reason=test
