sinfo -h
