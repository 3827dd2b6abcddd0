sinfo -h -N -n gpu-node03 -o %T\|%E
