scontrol hold 999999
