#!/usr/bin/env bash
# Captures `scontrol show job -d -o` for jobs whose commands are the launch lines of common
# ML frameworks (tst_workload_detector reads it). Needs a running lab with no other jobs:
#   tests/data/slurm/workloads/capture.sh LAB_DIR > tests/data/slurm/workloads/scontrol_show_job_d_o.txt
# The jobs run a launch script that only sleeps: Slurm records its path and arguments as the
# job's Command, which is all Strata reads. They are cancelled afterwards.
set -euo pipefail
lab_dir=${1:?usage: capture.sh LAB_DIR}
repo=$(cd "$(dirname "$0")/../../../.." && pwd)
# shellcheck disable=SC1090
eval "$("$repo/lab/lab" env --dir "$lab_dir")"
L=$lab_dir/workloads/launch.sh
mkdir -p "$lab_dir/workloads"
printf '#!/bin/sh\nexec sleep 600\n' > "$L"
chmod +x "$L"
ids=()
submit() { ids+=("$(sbatch --parsable --chdir "$lab_dir/workloads" "$@")"); }
submit -J llama3-70b-pretrain -N 2 "$L" torchrun --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d \
    --rdzv_endpoint gpu-node01:29500 pretrain.py --config llama3_70b.yaml
submit -J sft-run --comment="strata:kind=fine-tuning" "$L" deepspeed --num_nodes 1 --num_gpus 8 train_sft.py \
    --deepspeed ds_zero3.json
submit -J serve "$L" vllm serve meta-llama/Meta-Llama-3-8B-Instruct --tensor-parallel-size 4 --port 8000
submit -J notes --comment="needs review, strata:kind=evaluation" "$L" python -m lm_eval --model hf --tasks mmlu
submit -J dpo "$L" accelerate launch --num_processes 8 --num_machines 1 dpo_train.py
submit -J gpt-nemo -N 2 --gres=gpu:4 "$L" python -m torch.distributed.run --nnodes=2 --nproc-per-node=gpu \
    /opt/NeMo/examples/nlp/language_modeling/megatron_gpt_pretraining.py trainer.num_nodes=2
submit -J maxtext "$L" python3 -m MaxText.train MaxText/configs/base.yml run_name=llama2
submit -J tgi "$L" text-generation-launcher --model-id mistralai/Mistral-7B-Instruct-v0.2 --num-shard 2
submit -J triton "$L" tritonserver --model-repository=/models
submit -J sglang "$L" python -m sglang.launch_server --model-path Qwen/Qwen2-7B --tp-size 2 --port 30000
submit -J bad-kind --comment="strata:kind=batch" "$L" python train.py
sleep 2
for id in "${ids[@]}"; do scontrol show job -d -o "$id"; done
scancel "${ids[@]}"
