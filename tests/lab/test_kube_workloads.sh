#!/usr/bin/env bash
# Kubernetes workloads as LLM teams run them (issue 31's done-when), through the lab's SSH login
# and kubectl on it, against a kube stand-in run from this tree (the lab's own stand-in runs the
# code of the lab's start, and other lab tests use its GPUs): Kueue's queues, a PyTorchJob of
# 2 x 8 GPUs, a LeaderWorkerSet inference group, a RayJob, a Deployment of vLLM servers and a
# JobSet Kueue keeps pending (lab/kube_standin/examples). `strata snapshot` shows each as ONE
# workload with its kind, nodes and GPU indices (the stand-in's scheduler places them the same
# way on every fresh start), the JobSet pending with its queue; the text output has their KIND;
# `strata cancel` of the PyTorchJob deletes it and its pods, and its GPUs are free again.
# shellcheck source=tests/lab/lib.sh
source "$(dirname "$0")/lib.sh"
STRATA="$STRATA_BINARY_DIR/app/strata"
work="$(mktemp -d)"
server_pid=
cleanup() {
    local rc=$?
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    [ "$rc" -eq 0 ] || tail -n 20 "$work/server.log" >&2 || true
    rm -rf "$work"
}
trap cleanup EXIT
k() { kubectl --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" "$@"; }

"$PYTHON" "$STRATA_SOURCE_DIR/lab/kube_standin/server.py" --listen 127.0.0.1:0 --state-dir "$work/state" \
    --write-kubeconfig "$work/kubeconfig" --start-delay 0.1 --quiet >"$work/server.log" 2>&1 &
server_pid=$!
wait_until 30 "the stand-in writes its kubeconfig" test -s "$work/kubeconfig"
# The lab's Kubernetes profile (its SSH login, kubectl there), this stand-in's kubeconfig.
connect=(--ssh "$STRATA_LAB_SSH" --identity "$STRATA_LAB_SSH_IDENTITY" --known-hosts "$STRATA_LAB_SSH_KNOWN_HOSTS"
         --kubernetes --remote-env "KUBECONFIG=$work/kubeconfig")

examples="$STRATA_SOURCE_DIR/lab/kube_standin/examples"
for example in kueue-queues pytorchjob-llama-2x8 leaderworkerset-vllm rayjob-gpu deployment-vllm jobset-kueue; do
    k apply -f "$examples/$example.yaml" >/dev/null
done
running_pods() { k get pods --field-selector=status.phase=Running -o name | wc -l; }
# 2 PyTorchJob + 2 LWS + 3 RayJob (head, worker, submitter) + 2 vLLM; the JobSet's none.
wait_until 60 "the workloads' 9 pods run" test "$(running_pods)" -eq 9
pass "the examples are applied and their 9 pods run"

"$STRATA" snapshot "${connect[@]}" --format json >"$work/snapshot.json" 2>"$work/snapshot.err" \
    || fail "strata snapshot: $(cat "$work/snapshot.err")"
"$PYTHON" - "$work/snapshot.json" <<'PY' || fail "the workloads in strata snapshot's JSON (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
jobs = {j["id"]: j for j in doc["jobs"]}
expected = {
    # id: kind, apiVersion, state, nodes, GPU indices per node, pods
    "default/PyTorchJob/llama-pretrain": ("PyTorchJob", "kubeflow.org/v1", "RUNNING", ["kube-gpu-01", "kube-gpu-02"],
                                          {"kube-gpu-01": list(range(8)), "kube-gpu-02": list(range(8))}, 2),
    "default/LeaderWorkerSet/vllm-llama-70b": ("LeaderWorkerSet", "leaderworkerset.x-k8s.io/v1", "RUNNING",
                                               ["kube-gpu-03", "kube-gpu-04"],
                                               {"kube-gpu-03": [0, 1, 2, 3], "kube-gpu-04": [0, 1, 2, 3]}, 2),
    "default/RayJob/ray-batch-inference": ("RayJob", "ray.io/v1", "RUNNING", ["kube-gpu-03", "kube-gpu-04"],
                                           {"kube-gpu-03": [4]}, 3),
    "default/Deployment/vllm-qwen": ("Deployment", "apps/v1", "RUNNING", ["kube-gpu-04"], {"kube-gpu-04": [4, 5]}, 2),
    "default/JobSet/mixtral-finetune": ("JobSet", "jobset.x-k8s.io/v1alpha2", "PENDING", [], {}, 0),
}
bad = []
if sorted(jobs) != sorted(expected):
    bad.append(f"workloads {sorted(jobs)}, expected {sorted(expected)}")
for wid, (kind, api, state, nodes, gpus, pods) in expected.items():
    j = jobs.get(wid)
    if not j:
        continue
    got = (j["workloadKind"], j["workloadApiVersion"], j["state"], j["nodes"], j["gpus"], len(j["pods"]))
    if got != (kind, api, state, nodes, gpus, pods):
        bad.append(f"{wid}: {got}, expected {(kind, api, state, nodes, gpus, pods)}")
p = jobs.get("default/PyTorchJob/llama-pretrain", {})
if (p.get("framework"), p.get("worldSize"), [r["name"] for r in p.get("roles", [])]) != ("torch.distributed", 16, ["Master", "Worker"]):
    bad.append(f"PyTorchJob framework/world size/roles: {p.get('framework')} {p.get('worldSize')} {p.get('roles')}")
js = jobs.get("default/JobSet/mixtral-finetune", {})
if js.get("queueName") != "lab-queue" or js.get("gpusRequested") != 16 or "insufficient quota" not in js.get("reason", ""):
    bad.append(f"JobSet queue/GPUs/reason: {js.get('queueName')} {js.get('gpusRequested')} {js.get('reason')!r}")
# A node's GPU names the pod holding it: the LWS worker on kube-gpu-04's GPU 0.
node = next(n for n in doc["nodes"] if n["name"] == "kube-gpu-04")
if node["gpus"][0]["job"] != "default/vllm-llama-70b-0-1":
    bad.append(f"kube-gpu-04 GPU 0 held by {node['gpus'][0]['job']}")
for line in bad:
    print("  " + line)
sys.exit(1 if bad else 0)
PY
pass "five workloads, one each, with their kind, nodes and GPU indices; the JobSet pending in lab-queue"

text="$("$STRATA" snapshot "${connect[@]}" --format text 2>&1)" || fail "strata snapshot --format text: $text"
for row in 'default/PyTorchJob/llama-pretrain +PyTorchJob +llama-pretrain' \
           'default/LeaderWorkerSet/vllm-llama-70b +LeaderWorkerSet' 'default/JobSet/mixtral-finetune +JobSet .* PENDING'; do
    grep -Eq "$row" <<<"$text" || fail "strata snapshot's text has no row '$row': $text"
done
pass "the text output lists each workload with its KIND"

out="$("$STRATA" cancel "${connect[@]}" default/PyTorchJob/llama-pretrain 2>&1)" || fail "strata cancel: $out"
[[ "$out" == *"Cancelled PyTorchJob default/llama-pretrain"* ]] || fail "strata cancel said: $out"
gone() { ! k get pytorchjob llama-pretrain >/dev/null 2>&1 && [ -z "$(k get pods -l training.kubeflow.org/job-name=llama-pretrain -o name)" ]; }
wait_until 20 "the PyTorchJob and its pods are deleted" gone
pass "strata cancel deleted the PyTorchJob and the garbage collector its pods"

"$STRATA" snapshot "${connect[@]}" --format json >"$work/after.json" 2>"$work/snapshot.err" \
    || fail "strata snapshot after the cancel: $(cat "$work/snapshot.err")"
"$PYTHON" - "$work/after.json" <<'PY' || fail "after the cancel (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
ids = sorted(j["id"] for j in doc["jobs"])
bad = [f"workloads {ids}"] if "default/PyTorchJob/llama-pretrain" in ids or len(ids) != 4 else []
for name in ("kube-gpu-01", "kube-gpu-02"):
    node = next(n for n in doc["nodes"] if n["name"] == name)
    held = [g["job"] for g in node["gpus"] if g["job"]]
    if held or node["gpusAllocated"] != 0:
        bad.append(f"{name} still holds {held} ({node['gpusAllocated']} allocated)")
for line in bad:
    print("  " + line)
sys.exit(1 if bad else 0)
PY
pass "the PyTorchJob is gone from the snapshot and kube-gpu-01/02's GPUs are free"
