#!/usr/bin/env bash
# The demo's work in a running lab (22.05, four nodes of 8 GPUs), so the first window shows
# what Strata is for. Submitted once: a second call finds the training job and does nothing.
#   lab/demo_workload.sh LAB_DIR          submit the jobs, inject the fault
#   lab/demo_workload.sh LAB_DIR clear    cancel the demo's jobs, clear the faults
#
#   running  llama3-70b-pretrain   train      gpu-node[01-02], 8 GPUs each (exclusive)
#            vllm-serve-llama3-8b  inference  gpu-node03, 4 GPUs
#            eval-mmlu-ckpt-4200   train      gpu-node03, 2 GPUs
#   pending  llama3-405b-sft       train      4 nodes x 8 GPUs  (Resources)
#            rlhf-ppo-actor        train      2 nodes x 8 GPUs  (Resources: only gpu-node04 is free)
#            ckpt-convert-hf       train      1 GPU, after the training job (Dependency)
#   fault    gpu-node04 GPU 3 XID 79 (fell off the bus), GPU 5 at 91 C
set -euo pipefail
lab_dir=${1:?usage: demo_workload.sh LAB_DIR [clear]}
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC1090
eval "$("$repo/lab/lab" env --dir "$lab_dir")"
names=llama3-70b-pretrain,vllm-serve-llama3-8b,eval-mmlu-ckpt-4200,llama3-405b-sft,rlhf-ppo-actor,ckpt-convert-hf

if [ "${2:-}" = clear ]; then
  ids=$(squeue -h -n "$names" -o %i)
  # shellcheck disable=SC2086
  [ -z "$ids" ] || scancel $ids
  "$repo/lab/lab" fault clear --dir "$lab_dir" >/dev/null
  exit 0
fi
if [ -n "$(squeue -h -n llama3-70b-pretrain -o %i)" ]; then
  echo "demo workload: already in the lab"
  exit 0
fi
day=86400
# The training and the serving job are batch scripts (lab/demo_scripts/*.sbatch), as LLM teams
# submit them; Strata reads what they run from the script (`scontrol write batch_script`). The
# lab has no GPUs: their launch lines find the stand-ins of demo_scripts/bin first in PATH.
# The other jobs run lab/demo_job.sh, which only sleeps: its arguments are the framework's
# launch line, which Slurm shows as the job's Command and Strata reads there.
# Copied into the lab directory: the 24.11 lab's sbatch runs inside its root, which sees the lab
# directory but not this checkout.
job=$lab_dir/demo_job.sh
install -m 0755 "$repo/lab/demo_job.sh" "$job"
scripts=$(cd "$lab_dir" && pwd)/demo_scripts
mkdir -p "$scripts/bin"
install -m 0755 "$repo"/lab/demo_scripts/*.sbatch "$scripts/"
install -m 0755 "$repo"/lab/demo_scripts/bin/* "$scripts/bin/"
demo_env="ALL,PATH=$scripts/bin:/usr/local/bin:/usr/bin:/bin,STRATA_DEMO_SECONDS=$day"
train=$(sbatch --parsable -w 'gpu-node[01-02]' -D "$scripts" --export="$demo_env" "$scripts/pretrain.sbatch")
sbatch -Q -w gpu-node03 -D "$scripts" --export="$demo_env" "$scripts/serve.sbatch"
sbatch -Q -J eval-mmlu-ckpt-4200 -p train -N 1 -w gpu-node03 --gres=gpu:2 -t 04:00:00 \
    "$job" $day python -m lm_eval --model hf --model_args pretrained=ckpt/step-4200 --tasks mmlu
sbatch -Q -J llama3-405b-sft -p train -N 4 --gres=gpu:8 -t 2-00:00:00 \
    "$job" $day deepspeed --num_nodes 4 --num_gpus 8 train_sft.py --deepspeed ds_zero3.json
sbatch -Q -J rlhf-ppo-actor -p train -N 2 --gres=gpu:8 -t 12:00:00 \
    "$job" $day accelerate launch --num_machines 2 --num_processes 16 ppo_actor.py
sbatch -Q -J ckpt-convert-hf -p train -N 1 --gres=gpu:1 -t 01:00:00 -d "afterok:$train" \
    "$job" 600 python convert_llama_weights_to_hf.py --input_dir ckpt/step-4200
"$repo/lab/lab" fault --dir "$lab_dir" gpu-node04 3 xid 79 >/dev/null
"$repo/lab/lab" fault --dir "$lab_dir" gpu-node04 5 hot 91 >/dev/null
echo "demo workload: 3 jobs running, 3 pending, XID 79 and a hot GPU on gpu-node04"
