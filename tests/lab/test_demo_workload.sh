#!/usr/bin/env bash
# scripts/demo's work (lab/demo_workload.sh) as the window sees it: `strata snapshot` shows 3
# running and 3 pending jobs with Slurm's reasons, 22 busy GPUs, the training job on two nodes
# with 8 GPUs each, and the injected XID 79 and hot GPU on gpu-node04 as critical findings. A
# second run adds nothing; the training job is torch.distributed (2 x 8), the server vLLM; `clear` puts the lab back.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
WORKLOAD="$STRATA_SOURCE_DIR/lab/demo_workload.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
trap '"$WORKLOAD" "$STRATA_LAB_DIR" clear >/dev/null 2>&1 || true' EXIT

# A job another lab test ended may still be completing (CG; the DDP job's processes take a
# while to exit): give the queue a minute to drain, then insist on an empty lab.
for _ in $(seq 1 120); do
    [ -z "$(squeue -h -o %i)" ] && break
    [ -z "$(squeue -h -o %i -t RUNNING,PENDING,CONFIGURING,SUSPENDED)" ] || break
    sleep 0.5
done
[ -z "$(squeue -h -o %i)" ] || fail "the lab has jobs already: $(squeue -h)"
"$WORKLOAD" "$STRATA_LAB_DIR" >/dev/null
"$WORKLOAD" "$STRATA_LAB_DIR" | grep -q "already in the lab" || fail "a second run submitted again"
[ "$(squeue -h -o %i | wc -l)" -eq 6 ] || fail "6 jobs expected: $(squeue -h)"
pass "six jobs, submitted once"

mapfile -t connect < "$STRATA_LAB_DIR/connect.args"
snapshot() { "$STRATA" snapshot --format json "${connect[@]}"; }
# check PYTHON_EXPRESSION over the snapshot `s`: true once Slurm has placed the jobs and
# Prometheus has scraped the fault.
check() {
    snapshot | "$PYTHON" -c '
import json, sys
s = json.load(sys.stdin)
jobs = {j["name"]: j for j in s["jobs"]}
findings = {(f["node"], f["gpu"], f["code"]) for f in s["findings"]}
sys.exit(0 if ('"$1"') else 1)'
}
wait_until 30 "3 running, 3 pending" check 's["totals"]["jobsRunning"] == 3 and s["totals"]["jobsPending"] == 3'
pass "3 running, 3 pending"
check 'jobs["llama3-70b-pretrain"]["gpus"] == {"gpu-node01": list(range(8)), "gpu-node02": list(range(8))}' ||
    fail "training job not on 8 GPUs of gpu-node01 and gpu-node02: $(snapshot | head -c 2000)"
check 'sorted(jobs["vllm-serve-llama3-8b"]["gpus"]["gpu-node03"]) .__len__() == 4 and jobs["vllm-serve-llama3-8b"]["partition"] == "inference"' ||
    fail "inference server not on 4 GPUs of gpu-node03"
# The scheduler names a pending job's reason on its next pass (24.11 says "Priority" until then).
wait_until 30 "pending reasons" check 'jobs["llama3-405b-sft"]["reason"] == "Resources" and jobs["ckpt-convert-hf"]["reason"] == "Dependency"' ||
    fail "pending reasons: $(squeue -h -t PD -o '%j %r')"
pass "placement and pending reasons"
# The training and the serving job are batch scripts (lab/demo_scripts): what they run is read
# from the script (scontrol write batch_script) on both releases, not from Command= (24.11
# prints the script's path alone there).
check 'jobs["llama3-70b-pretrain"]["framework"] == "torch.distributed" and jobs["llama3-70b-pretrain"]["worldSize"] == 16 and jobs["llama3-70b-pretrain"]["kind"] == "pre-training" and jobs["llama3-70b-pretrain"]["script"]["status"] == "read"' ||
    fail "script-submitted training job not detected as torch.distributed x16 pre-training: $(snapshot | head -c 3000)"
check 'jobs["llama3-70b-pretrain"]["fabric"]["usesEfa"] == "yes" and "FI_PROVIDER=efa" in jobs["llama3-70b-pretrain"]["fabric"]["settings"] and "NCCL_DEBUG=WARN" in jobs["llama3-70b-pretrain"]["fabric"]["settings"]' ||
    fail "the training script sets FI_PROVIDER=efa: not shown as using EFA"
check 'jobs["vllm-serve-llama3-8b"]["framework"] == "vllm" and jobs["vllm-serve-llama3-8b"]["kind"] == "serving" and jobs["vllm-serve-llama3-8b"]["tensorParallel"] == 4 and jobs["vllm-serve-llama3-8b"]["fabric"]["usesEfa"] == "unknown"' ||
    fail "script-submitted vLLM server not detected as vllm, serving, tensor parallel 4"
check 'jobs["eval-mmlu-ckpt-4200"]["kind"] == "evaluation" and jobs["llama3-405b-sft"]["kind"] == "fine-tuning"' ||
    fail "evaluation or SFT job not detected from its name"
pass "frameworks and kinds detected"
wait_until 30 "22 busy GPUs" check 's["totals"]["gpusBusy"] == 22'
pass "22 busy GPUs"
wait_until 30 "the fault on gpu-node04" check '("gpu-node04", 3, "xid-79") in findings and ("gpu-node04", 5, "gpu-temp-high") in findings'
pass "XID 79 and the hot GPU are findings"

# An XID on a GPU a running job holds names that job (finding.jobs), and only that job.
train_id="$(squeue -h -n llama3-70b-pretrain -o %i)"
"$LAB" fault --dir "$STRATA_LAB_DIR" gpu-node01 2 xid 13 >/dev/null
wait_until 30 "the XID on a held GPU" check '[f["jobs"] for f in s["findings"] if (f["node"], f["gpu"], f["code"]) == ("gpu-node01", 2, "xid-13")] == [["'"$train_id"'"]]'
check '[f["jobs"] for f in s["findings"] if (f["node"], f["gpu"], f["code"]) == ("gpu-node04", 3, "xid-79")] == [[]]' ||
    fail "the XID on the free gpu-node04 names a job"
pass "XID 13 on gpu-node01 GPU 2 names the training job $train_id; the one on a free GPU names none"

"$WORKLOAD" "$STRATA_LAB_DIR" clear
no_jobs() { [ -z "$(squeue -h -o %i)" ]; }
wait_until 30 "jobs gone" no_jobs
[ "$("$LAB" fault list --dir "$STRATA_LAB_DIR" | grep -c gpu-node04)" -eq 0 ] || fail "faults left: $("$LAB" fault list --dir "$STRATA_LAB_DIR")"
pass "clear cancels the jobs and the faults"

# A script Slurm cannot give (its copy gone from the controller's state: scontrol says "job
# script retrieval failed") degrades to what the job's Command= says, with no error or warning.
# 22.05's Command= carries the wrapper's arguments (torchrun, 1 x 2, finetune_lora.py: fine-tuning);
# 24.11's only the path, and the job's name says no kind.
# After the demo's jobs are gone: with its pending jobs holding backfill reservations on every
# node, a job of no time limit may never start (CI saw it pending for 30 s).
wrapped="$(sbatch --parsable -J unreadable-script -p train -N 1 -w gpu-node04 --gres=gpu:2 -o /dev/null \
    "$STRATA_LAB_DIR/demo_job.sh" 600 torchrun --nnodes 1 --nproc_per_node 2 finetune_lora.py)"
wait_until 30 "the job with an unreadable script running" job_is "$wrapped" RUNNING
script_file="${SLURM_STATE_DIR:-$STRATA_LAB_DIR/slurm/state}/hash.$((wrapped % 10))/job.$wrapped/script"
[ -f "$script_file" ] || fail "no script in the controller's state at $script_file"
rm -f "$script_file"
if [ "$(cat "$STRATA_LAB_DIR/slurm-version" 2>/dev/null || echo 22.05)" = 22.05 ]; then
    expected='u["framework"] == "torch.distributed" and u["worldSize"] == 2 and u["kind"] == "fine-tuning"'
else
    expected='u["framework"] is None and u["kind"] is None'
fi
check 'any(True for u in [jobs["unreadable-script"]] if u["script"]["status"] == "not-readable" and u["script"]["problem"] and '"$expected"') and all(x["ok"] and x["errorKind"] == "none" for x in s["sources"]) and not [f for f in s["findings"] if "script" in f["code"] or "'"$wrapped"'" in f["jobs"]]' ||
    fail "unreadable script: $(snapshot | "$PYTHON" -c 'import json,sys; s=json.load(sys.stdin); print([j for j in s["jobs"] if j["name"] == "unreadable-script"], s["sources"], s["findings"])')"
pass "an unreadable script: not-readable, detection from the command line, no error or warning"
scancel "$wrapped"
wait_until 30 "the unreadable-script job gone" no_jobs
echo "all $CHECKS checks passed"
