squeue -h -a -r --states=all -o $'<<strata:9f3c2a7b61d04e58>>%i\037%A\037%F\037%K\037%u\037%T\037%r\037%P\037%N\037%M\037%l\037%V\037%S\037%b\037%D\037%j'
