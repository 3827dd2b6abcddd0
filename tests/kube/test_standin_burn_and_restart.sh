#!/usr/bin/env bash
# A pod running strata-burn executes the REAL agent from the build (CPU backend) and its
# JSON lines are the pod log; the DCGM stand-in's GPU export names the pod; state survives a
# restart of the stand-in (nodes, cordon, jobs), and containers that ran are marked failed.
. "$(dirname "$0")/lib.sh"
agent="${STRATA_BINARY_DIR:-}/burnin/strata-burn"
start_standin --burn-agent "$agent" --quiet

if [ -x "$agent" ]; then
    printf '%s\n' 'apiVersion: batch/v1' 'kind: Job' 'metadata: {name: burn}' \
        'spec: {backoffLimit: 0, template: {spec: {restartPolicy: Never, nodeSelector: {kubernetes.io/hostname: kube-gpu-02},' \
        '  containers: [{name: burn, image: ghcr.io/strata/strata-burn:0.1, args: [--tests, gemm, --duration, 1s], resources: {limits: {nvidia.com/gpu: 2}}}]}}}' \
        | k create -f - >/dev/null
    k wait --for=condition=complete job/burn --timeout=90s >/dev/null || fail "burn job did not complete: $(k logs job/burn 2>&1 | tail -5)"
    log="$(k logs job/burn)"
    expect_contains "$log" '"type"' "the agent's JSON lines are the pod log"
    # The pod held GPUs 0 and 1: the agent ran with --cpu-gpus 2 and tested two devices.
    devices="$(echo "$log" | python3 -c '
import json, sys
seen = set()
for line in sys.stdin:
    try:
        o = json.loads(line)
    except ValueError:
        continue
    if isinstance(o, dict) and isinstance(o.get("gpu"), int):
        seen.add(o["gpu"])
print(len(seen))')"
    [ "$devices" = "2" ] || fail "the agent should test the pod's 2 GPUs, saw $devices: $(echo "$log" | head -5)"
    pass "the agent tested the pod's 2 GPUs"
else
    echo "note: $agent not built; checking the missing-agent message instead"
    printf '%s\n' 'apiVersion: batch/v1' 'kind: Job' 'metadata: {name: burn}' \
        'spec: {backoffLimit: 0, template: {spec: {restartPolicy: Never, containers: [{name: burn, image: ghcr.io/strata/strata-burn:0.1, resources: {limits: {nvidia.com/gpu: 2}}}]}}}' \
        | k create -f - >/dev/null
    k wait --for=condition=failed job/burn --timeout=30s >/dev/null || fail "burn job should fail without the agent"
    expect_contains "$(k logs job/burn)" "strata-burn: not found" "missing agent reported in the log"
fi

# State across a restart.
printf '%s\n' 'apiVersion: batch/v1' 'kind: Job' 'metadata: {name: long}' \
    'spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: busybox, command: [sleep, infinity], resources: {limits: {nvidia.com/gpu: 8}}}]}}}' \
    | k create -f - >/dev/null
wait_for 20 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -l job-name=long --field-selector status.phase=Running -o name | grep -q pod/" || fail "long job running"
allocations="$(cat "$work/state/gpu-allocations.json" 2>/dev/null || true)"
wait_for 5 grep -q '"job": "long"' "$work/state/gpu-allocations.json" || fail "gpu-allocations.json names the job: $allocations"
pass "gpu-allocations.json in the state dir names the pod's job"
k cordon kube-gpu-03 >/dev/null
sleep 0.8 # the state is saved at most every 0.5 s
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
rm -f "$work/kubeconfig"
start_standin --burn-agent "$agent" --quiet
expect_contains "$(k get node kube-gpu-03)" "SchedulingDisabled" "cordon survives a restart"
expect_contains "$(k get jobs)" "long" "jobs survive a restart"
wait_for 10 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -l job-name=long -o jsonpath='{.items[*].status.phase}' | grep -q Failed" \
    || fail "a container that ran through the restart is failed"
msg="$(k get pods -l job-name=long --field-selector status.phase=Failed -o jsonpath='{.items[0].status.message}')"
expect_contains "$msg" "restarted" "the failed pod says why"
echo "all burn/restart checks passed"
