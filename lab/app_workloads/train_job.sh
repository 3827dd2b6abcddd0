#!/bin/sh
# The lab's real PyTorch training job: sbatch --nodes N --ntasks-per-node 1 train_job.sh
# torchrun [torchrun options] train_ddp.py [its options]. Runs the torchrun line on every node
# of the job through srun, adding that node's --node_rank and the rendezvous on the first node
# (static rendezvous; every lab node is 127.0.0.1, so gloo talks over loopback). Slurm shows
# the line as the job's Command, from which Strata detects torch.distributed and its world size.
# Debian 12's torchrun (torch 1.13 on Python 3.11) needs --redirects 1 --tee 1: its default
# "0" maps to no std-stream setting there and torchrun fails before starting a worker.
[ "${1:-}" = torchrun ] || { echo "usage: train_job.sh torchrun OPTIONS... SCRIPT ARGS..." >&2; exit 2; }
shift
port=$((20000 + ${SLURM_JOB_ID:?run me with sbatch} % 10000))
export GLOO_SOCKET_IFNAME=lo PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the checkout
# shellcheck disable=SC2016  # expanded by the sh that srun starts on each node
exec srun --kill-on-bad-exit=1 sh -c \
    'exec torchrun --node_rank "$SLURM_NODEID" --master_addr 127.0.0.1 --master_port "$0" "$@"' "$port" "$@"
