scancel -v 999999
