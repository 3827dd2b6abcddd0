#!/bin/sh
# A demo job (lab/demo_workload.sh): sleeps SECONDS. The rest of its arguments are the launch
# line of the framework it stands for; they are not run (the lab has no GPUs), only shown by
# Slurm as the job's Command, which is what Strata reads to detect the framework.
#   demo_job.sh SECONDS LAUNCH LINE...
exec sleep "${1:?usage: demo_job.sh SECONDS [LAUNCH LINE...]}"
