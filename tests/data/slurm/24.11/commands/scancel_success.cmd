scancel -v 6
