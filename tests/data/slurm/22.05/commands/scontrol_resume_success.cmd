scontrol update NodeName=gpu-node03 State=RESUME
