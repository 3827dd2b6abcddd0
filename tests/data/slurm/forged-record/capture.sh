#!/bin/bash
# Captures `scontrol show job -d -o` with a job whose name forges another job's record
# (a newline, then "JobId=<plain job> ... Nodes=gpu-node04 ... GRES=gpu:h200:8(IDX:0-7)").
# Run on a freshly started lab (job ids from 1), inside its network namespace:
#   lab/lab up [--slurm 24.11] --dir DIR; capture.sh DIR VERSION
set -euo pipefail
lab=${1:?lab dir}; version=${2:?22.05 or 24.11}
here=$(cd "$(dirname "$0")" && pwd)
eval "$("$here/../../../../lab/lab" env --dir "$lab")"
plain=$(sbatch --parsable --job-name "strata-it plain" --nodelist gpu-node01 --gpus-per-node 2 -o /dev/null --wrap "sleep 300")
evil=$(printf 'evil $(touch /tmp/x); `id` "q" '"'"'s'"'"' | \t ünï\n')
sbatch --parsable --job-name "$evil" --nodelist gpu-node01 --gpus-per-node 3 -o /dev/null --wrap "sleep 300" >/dev/null
forged=$(printf 'JobState=PENDING\nJobId=%s JobName=strata-it plain UserId=root(0) JobState=RUNNING Nodes=gpu-node04 CPU_IDs=0 Mem=0 GRES=gpu:h200:8(IDX:0-7)' "$plain")
sbatch --parsable --job-name "$forged" --nodelist gpu-node02 --gpus-per-node 1 -o /dev/null --wrap "sleep 300" >/dev/null
sleep 4
scontrol show job -d -o >"$here/scontrol_show_job_d_o-$version.txt"
# What SlurmSource's bulk read keeps (its awk filter on the login node).
LC_ALL=C awk '/JobState=(RUNNING|COMPLETING|SUSPENDED|STOPPED)/ || !/JobState=/' \
    "$here/scontrol_show_job_d_o-$version.txt" >"$here/running_filtered-$version.txt"
scancel --user root
