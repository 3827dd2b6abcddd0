scontrol ping
