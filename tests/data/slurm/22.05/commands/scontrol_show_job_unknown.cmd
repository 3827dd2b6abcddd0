scontrol show job 999999
