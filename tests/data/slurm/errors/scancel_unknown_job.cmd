scancel 999999
