squeue -h -o %i
