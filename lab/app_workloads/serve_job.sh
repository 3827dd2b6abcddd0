#!/bin/sh
# The lab's inference job: sbatch serve_job.sh vllm serve MODEL [vLLM options]. The launch line
# is what Slurm shows as the job's Command (Strata detects vLLM from it); what runs is the
# stand-in for vLLM's metrics (serving_standin.py: no model, vLLM's metric names and labels).
if [ "${1:-}" != vllm ] || [ "${2:-}" != serve ] || [ -z "${3:-}" ]; then
    echo "usage: serve_job.sh vllm serve MODEL [OPTIONS...]" >&2
    exit 2
fi
# Slurm runs a copy of this script from its spool: the stand-in's directory comes from the
# environment (lab/app_workloads in the checkout). Debian's interpreter: it has python3-prometheus-client.
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the checkout
exec /usr/bin/python3 "${STRATA_APP_WORKLOADS:?export STRATA_APP_WORKLOADS=lab/app_workloads}/serving_standin.py" --model "$3" ${STRATA_LAB_TOKENS_PER_SECOND:+--tokens-per-second "$STRATA_LAB_TOKENS_PER_SECOND"}
