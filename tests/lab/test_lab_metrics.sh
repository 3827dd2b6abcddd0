#!/usr/bin/env bash
# Prometheus, the node exporter and the DCGM stand-in of the lab, checked through Prometheus's
# real HTTP API: targets up, 32 GPUs, each node's exporter label style (lab/lib/prometheus.sh
# DCGM_STYLE: classic; GPU Operator with a pod-name Hostname; `hostname` with DCGM blank codes;
# MIG), GPUs held by a real Slurm job turn busy, every fault kind shows up and `fault clear`
# clears it.
source "$(dirname "$0")/lib.sh"

PROM="$STRATA_LAB_PROMETHEUS_URL"
# gpu-node03/04: H200 in the 22.05 lab, B200 in the 24.11 one.
case "${STRATA_LAB_SLURM_VERSION:-22.05}" in
    22.05) late_type=h200 late_model='NVIDIA H200' mig_big=3g.71gb mig_small=2g.35gb ;;
    24.11) late_type=b200 late_model='NVIDIA B200' mig_big=3g.90gb mig_small=2g.45gb ;;
    *) fail "unknown STRATA_LAB_SLURM_VERSION $STRATA_LAB_SLURM_VERSION" ;;
esac
restore() { clear_faults >/dev/null 2>&1 || true; }
trap 'restore; cleanup_jobs' EXIT

# promql QUERY: prints "labels... value" per series, one line each (labels as k=v, sorted).
promql() {
    curl -sf --max-time 5 "$PROM/api/v1/query" --data-urlencode "query=$1" | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
for r in d["data"]["result"]:
    labels = " ".join(f"{k}={v}" for k, v in sorted(r["metric"].items()))
    print(labels, r["value"][1])'
}
# scalar QUERY: the single value of a one-series result (empty when there is none).
scalar() { promql "$1" | awk '{print $NF}'; }
is() { [ "$(scalar "$1")" = "$2" ]; }

wait_until 20 "4 dcgm targets up" is 'count(up{job="dcgm"} == 1)' 4
wait_until 10 "4 node-exporter targets up" is 'count(up{job="node"} == 1)' 4
pass "Prometheus: up{job=dcgm} = 1 for 4 targets, node exporter up"

# gpu-node04's GPU 0 is in MIG mode: three GPU instances, none with GPU_UTIL (DCGM has none).
wait_until 10 "31 GPU util series" is 'count(DCGM_FI_DEV_GPU_UTIL)' 31
for metric in DCGM_FI_DEV_GPU_UTIL DCGM_FI_DEV_MEM_COPY_UTIL DCGM_FI_DEV_FB_USED DCGM_FI_DEV_FB_FREE \
    DCGM_FI_DEV_GPU_TEMP DCGM_FI_DEV_MEMORY_TEMP DCGM_FI_DEV_POWER_USAGE \
    DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION DCGM_FI_DEV_SM_CLOCK DCGM_FI_DEV_MEM_CLOCK \
    DCGM_FI_DEV_XID_ERRORS DCGM_FI_DEV_PCIE_REPLAY_COUNTER DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL \
    DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS \
    DCGM_FI_DEV_ROW_REMAP_FAILURE DCGM_FI_PROF_GR_ENGINE_ACTIVE DCGM_FI_PROF_PIPE_TENSOR_ACTIVE \
    DCGM_FI_PROF_DRAM_ACTIVE DCGM_FI_PROF_PCIE_TX_BYTES DCGM_FI_PROF_PCIE_RX_BYTES; do
    want=34; [ "$metric" = DCGM_FI_DEV_GPU_UTIL ] && want=31
    [ "$(scalar "count($metric)")" = "$want" ] || fail "$metric does not have $want series"
done
pass "all 21 default DCGM fields: one series per GPU and per MIG instance (GPU_UTIL: none for instances)"

series="$(promql 'DCGM_FI_DEV_FB_USED')"
while read -r line; do
    node="$(grep -o ' node=[^ ]*\|kubernetes_node=[^ ]*' <<<"$line" | sed 's/.*=//')"
    case "$node" in
        gpu-node01|gpu-node04) grep -q "^Hostname=$node \| Hostname=$node " <<<"$line" || fail "Hostname is not $node: $line" ;;
        gpu-node02) # GPU Operator style: Hostname is the exporter's pod, the target names pod and node
            for l in Hostname=nvidia-dcgm-exporter-x7k2p pod=nvidia-dcgm-exporter-x7k2p namespace=gpu-operator; do
                grep -q " $l \|^$l " <<<"$line" || fail "gpu-node02 series without $l: $line"
            done
            if grep -q ' node=' <<<"$line"; then fail "gpu-node02 series has a node label: $line"; fi ;;
        gpu-node03) grep -q " hostname=gpu-node03 " <<<"$line" || fail "hostname is not gpu-node03: $line" ;;
        *) fail "series of no lab node: $line" ;;
    esac
    case "$node" in
        gpu-node0[12]) grep -q 'modelName=NVIDIA H100 80GB HBM3 ' <<<"$line" || fail "not H100: $line" ;;
        gpu-node0[34]) grep -q "modelName=$late_model " <<<"$line" || fail "not $late_model: $line" ;;
    esac
    for l in UUID=GPU- pci_bus_id=00000000: device=nvidia DCGM_FI_DRIVER_VERSION= gpu=; do
        grep -q " $l\|^$l" <<<"$line" || fail "label $l missing: $line"
    done
done <<<"$series"
[ "$(grep -o 'UUID=[^ ]*' <<<"$series" | sort -u | wc -l)" -eq 32 ] || fail "UUIDs are not unique per GPU"
pass "labels: gpu, UUID (unique), pci_bus_id, device, modelName per node type; host labels per exporter style"

mig="$(promql 'DCGM_FI_DEV_FB_USED{node="gpu-node04",gpu="0"}' | grep -o 'GPU_I_ID=[0-9]* GPU_I_PROFILE=[^ ]*' | sort | paste -sd' ' -)"
[ "$mig" = "GPU_I_ID=1 GPU_I_PROFILE=$mig_big GPU_I_ID=3 GPU_I_PROFILE=$mig_small GPU_I_ID=4 GPU_I_PROFILE=$mig_small" ] ||
    fail "gpu-node04 GPU 0 MIG instances: $mig"
is 'count(DCGM_FI_PROF_GR_ENGINE_ACTIVE{node="gpu-node04",gpu="0",GPU_I_ID!=""})' 3 || fail "no GR engine per MIG instance"
pass "MIG: gpu-node04 GPU 0 as instances 1 ($mig_big), 3 and 4 ($mig_small), GR engine per instance"

is 'DCGM_FI_DEV_MEMORY_TEMP{node="gpu-node03",gpu="0"}' 2147483647 || fail "no int32 blank code on gpu-node03"
is 'count(DCGM_FI_DEV_ROW_REMAP_FAILURE{node="gpu-node03"} > 9e18)' 8 || fail "no int64 blank codes on gpu-node03"
pass "blank values: gpu-node03 sends DCGM's not-supported codes (HBM temperature 2147483647, row remap failure ~9.2e18)"

# --- a real 4-GPU Slurm job turns exactly its GPUs busy
job="$(sbatch --parsable --gres=gpu:4 -w gpu-node03 -J lab-metrics -o /dev/null --wrap 'sleep 300')"
TEST_JOBS+=("$job")
wait_until 15 "job $job running" job_is "$job" RUNNING
idx="$(scontrol show job -d -o "$job" | grep -o "GRES=gpu:$late_type:4(IDX:[^)]*)" | sed 's/.*IDX:\(.*\))/\1/')"
[ -n "$idx" ] || fail "job $job has no GPU indices"
busy_gpus() { promql 'DCGM_FI_DEV_GPU_UTIL{node="gpu-node03"} >= 85' | grep -o ' gpu=[0-9]*' | sed 's/ gpu=//' | sort -n | paste -sd, -; }
expected="$("$PYTHON" -c "
import sys
out=[]
for p in '$idx'.split(','):
    a,_,b=p.partition('-'); out+=range(int(a),int(b or a)+1)
print(','.join(map(str,out)))")"
t0=$SECONDS
busy_is_expected() { [ "$(busy_gpus)" = "$expected" ]; }
wait_until 10 "GPUs $expected of gpu-node03 busy in Prometheus" busy_is_expected
[ "$(scalar 'count(DCGM_FI_DEV_GPU_UTIL >= 85)')" = 4 ] || fail "other GPUs than the job's are busy"
power="$(scalar 'min(DCGM_FI_DEV_POWER_USAGE{node="gpu-node03"} and DCGM_FI_DEV_GPU_UTIL >= 85)')"
"$PYTHON" -c "import sys; sys.exit(0 if 550 <= float('$power') <= 650 else 1)" || fail "busy power $power not 550-650 W"
pass "4-GPU job on gpu-node03 (IDX $idx): those 4 GPUs busy in Prometheus after $((SECONDS - t0)) s, others idle"
scancel "$job"

# --- GPU Operator style: a job's GPUs carry the workload as exported_pod beside the exporter's pod
job2="$(sbatch --parsable --gres=gpu:2 -w gpu-node02 -J lab-operator -o /dev/null --wrap 'sleep 300')"
TEST_JOBS+=("$job2")
wait_until 15 "job $job2 running" job_is "$job2" RUNNING
operator_busy() {
    is "count(DCGM_FI_DEV_GPU_UTIL{kubernetes_node=\"gpu-node02\",exported_pod=\"$job2\",exported_container=\"main\",pod=\"nvidia-dcgm-exporter-x7k2p\"} >= 85)" 2
}
wait_until 10 "gpu-node02's 2 busy GPUs labelled exported_pod=$job2" operator_busy
is 'count(DCGM_FI_DEV_GPU_UTIL{kubernetes_node="gpu-node02",exported_pod=""})' 6 || fail "idle gpu-node02 GPUs should have no exported_pod"
pass "operator style: job $job2's GPUs on gpu-node02 carry exported_pod=$job2, exported_container=main, pod = the exporter's"
scancel "$job2"
idle_again() { [ -z "$(busy_gpus)" ]; }
wait_until 15 "gpu-node03 idle after scancel" idle_again
pass "after scancel the GPUs are idle again"

# --- every fault kind
f() { "$LAB" fault "$@" --dir "$STRATA_LAB_DIR"; }
f gpu-node02 3 xid 79
f gpu-node01 1 hot 95
f gpu-node04 2 remap-failure
f gpu-node04 6 uncorrectable 3
f gpu-node03 7 missing
f gpu-node01 exporter-down
faults_visible() {
    is 'DCGM_FI_DEV_XID_ERRORS{kubernetes_node="gpu-node02",gpu="3"}' 79 &&
    is 'DCGM_FI_DEV_ROW_REMAP_FAILURE{node="gpu-node04",gpu="2"}' 1 &&
    is 'DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS{node="gpu-node04",gpu="6"}' 3 &&
    is 'count(DCGM_FI_DEV_GPU_UTIL{node="gpu-node03"})' 7 &&
    is 'up{job="dcgm",node="gpu-node01"}' 0
}
wait_until 15 "faults visible in Prometheus" faults_visible
pass "faults: xid 79, remap-failure, uncorrectable 3, missing GPU, exporter-down (up=0) seen in Prometheus"
[ "$(scalar 'count(DCGM_FI_DEV_XID_ERRORS > 0)')" = 1 ] || fail "Xid shows on more than one GPU"

# The hot GPU sits behind the exporter that is down: bring that node back first.
f clear
f gpu-node01 1 hot 95
hot_visible() { is 'DCGM_FI_DEV_GPU_TEMP{node="gpu-node01",gpu="1"}' 95 && is 'up{job="dcgm",node="gpu-node01"}' 1; }
wait_until 15 "hot GPU visible" hot_visible
pass "fault hot 95: GPU temperature 95 C, exporter back up"

f clear
cleared() {
    is 'count(up{job="dcgm"} == 1)' 4 && is 'count(DCGM_FI_DEV_GPU_UTIL)' 31 &&
    is 'max(DCGM_FI_DEV_XID_ERRORS)' 0 && is 'max(DCGM_FI_DEV_ROW_REMAP_FAILURE < 1e9)' 0 &&
    is 'max(DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS < 1e9)' 0 && is 'count(DCGM_FI_DEV_GPU_TEMP > 80)' ''
}
wait_until 15 "faults cleared" cleared
pass "fault clear: 4 targets up, 31 GPUs and 3 MIG instances, no Xid/remap/uncorrectable (beside blank codes), temperatures normal"
echo "all $CHECKS checks passed"
