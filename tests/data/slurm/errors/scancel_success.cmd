scancel 10
