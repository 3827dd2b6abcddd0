#!/usr/bin/env bash
# The lab's Slurm cluster, SSH login and status, checked with the real client tools.
source "$(dirname "$0")/lib.sh"

# What each release's lab is declared to be (lab/lab): the same names and partitions; the
# 24.11 cluster has B200 nodes where 22.05 has H200, its own ports and no Prometheus.
case "${STRATA_LAB_SLURM_VERSION:-22.05}" in
    22.05) late_gres=gpu:h200:8 late_feature=p5en.48xlarge ssh_port=22022 connect_lines=14 ;;
    24.11) late_gres=gpu:b200:8 late_feature=p6-b200.48xlarge ssh_port=23022 connect_lines=14 ;;
    *) fail "unknown STRATA_LAB_SLURM_VERSION $STRATA_LAB_SLURM_VERSION" ;;
esac
version="$(scontrol version)"
[[ "$version" == "slurm-wlm $STRATA_LAB_SLURM_VERSION."* ]] ||
    fail "scontrol version says '$version', expected Slurm ${STRATA_LAB_SLURM_VERSION:-22.05}"
[ "$(sinfo --version)" = "$version" ] || fail "sinfo --version '$(sinfo --version)' differs from scontrol's '$version'"
pass "client and controller are $version"

# --- nodes, GRES, features, partitions
nodes="$(sinfo -h -N -O 'NodeList:|,StateLong:|,Gres:|,Features:|,Partition:' | sort)"
echo "$nodes"
expect_node() {
    local name="$1" gres="$2" feature="$3" partition="$4"
    # "planned": idle, but the backfill scheduler holds it for a job another test left pending.
    grep -qxE "$name\|(idle|planned)\|$gres\|$feature\|${partition//\*/\\*}" <<<"$nodes" ||
        fail "sinfo has no line '$name|idle|$gres|$feature|$partition'"
}
expect_node gpu-node01 gpu:h100:8 p5.48xlarge 'train*'
expect_node gpu-node02 gpu:h100:8 p5.48xlarge 'train*'
expect_node gpu-node03 "$late_gres" "$late_feature" 'train*'
expect_node gpu-node03 "$late_gres" "$late_feature" inference
expect_node gpu-node04 "$late_gres" "$late_feature" 'train*'
expect_node gpu-node04 "$late_gres" "$late_feature" inference
[ "$(sinfo -h -N -o '%N' | sort -u | wc -l)" -eq 4 ] || fail "expected exactly 4 nodes"
[ "$(wc -l <<<"$nodes")" -eq 6 ] || fail "expected 6 node/partition lines (03/04 are in both partitions)"
pass "sinfo: 4 idle nodes with GRES, features and partitions"

partitions="$(scontrol show partition -o)"
grep -q 'PartitionName=train .*Default=YES.*MaxTime=UNLIMITED.*Nodes=gpu-node\[01-04\]' <<<"$partitions" ||
    fail "partition train: $partitions"
grep -q 'PartitionName=inference .*MaxTime=1-00:00:00.*Nodes=gpu-node\[03-04\]' <<<"$partitions" ||
    fail "partition inference: $partitions"
[ "$(scontrol show config | awk -F' *= *' '/^ClusterName/ {print $2}')" = strata-lab ] ||
    fail "ClusterName is not strata-lab"
pass "partitions train (default, unlimited) and inference (1 day); cluster strata-lab"

# --- a 2-GPU job on gpu-node02
out_dir="$(mktemp -d "$STRATA_LAB_DIR/test-cluster.XXXXXX")"
job="$(sbatch --parsable --gres=gpu:2 -w gpu-node02 -J lab-test-gres -o "$out_dir/%j.out" \
    --wrap 'echo "host=$(hostname)"; echo "node=$SLURMD_NODENAME"; echo "cvd=$CUDA_VISIBLE_DEVICES"; echo "jobgpus=$SLURM_JOB_GPUS"; sleep 120')"
TEST_JOBS+=("$job")
wait_until 15 "job $job running" job_is "$job" RUNNING
node_line="$(scontrol show node -d -o gpu-node02)"
idx="$(grep -o 'GresUsed=gpu:h100:2(IDX:[0-9,-]*)' <<<"$node_line")" ||
    fail "gpu-node02 shows no GresUsed with 2 GPU indices: $node_line"
job_line="$(scontrol show job -d -o "$job")"
grep -q 'GRES=gpu:h100:2(IDX:' <<<"$job_line" || fail "job $job has no GRES IDX detail: $job_line"
wait_until 10 "job output" grep -q '^cvd=' "$out_dir/$job.out"
cat "$out_dir/$job.out"
grep -qE '^cvd=[0-7],[0-7]$' "$out_dir/$job.out" || fail "CUDA_VISIBLE_DEVICES not two GPU indices"
grep -qx 'node=gpu-node02' "$out_dir/$job.out" || fail "SLURMD_NODENAME is not gpu-node02"
grep -qx 'host=gpu-node02' "$out_dir/$job.out" || fail "hostname in the job is not gpu-node02"
pass "sbatch --gres=gpu:2 -w gpu-node02: $idx, CUDA_VISIBLE_DEVICES set, hostname is the node"
scancel "$job"
wait_until 15 "job $job cancelled" job_is "$job" CANCELLED
wait_until 10 "gpu-node02 GPUs released" node_gres_used_is gpu-node02 'gpu:h100:0(IDX:N/A)'
pass "scancel releases the GPUs"
rm -rf "$out_dir"

# --- SSH with the generated key and strict host key checking
ssh_opts=(-p "$STRATA_LAB_SSH_PORT" -i "$STRATA_LAB_SSH_IDENTITY" -o IdentitiesOnly=yes
          -o BatchMode=yes -o StrictHostKeyChecking=yes -o ConnectTimeout=5)
remote="$(ssh "${ssh_opts[@]}" -o UserKnownHostsFile="$STRATA_LAB_SSH_KNOWN_HOSTS" "${STRATA_LAB_SSH%:*}" \
    "SLURM_CONF=$SLURM_CONF sinfo -h -N -o %N | sort -u | wc -l")" ||
    fail "ssh with the lab key and known_hosts failed"
[ "$remote" = 4 ] || fail "sinfo over ssh listed '$remote' nodes, expected 4"
remote_version="$(ssh "${ssh_opts[@]}" -o UserKnownHostsFile="$STRATA_LAB_SSH_KNOWN_HOSTS" "${STRATA_LAB_SSH%:*}" "SLURM_CONF=$SLURM_CONF sinfo --version")"
[ "$remote_version" = "$version" ] || fail "the login node's sinfo is '$remote_version', expected '$version'"
pass "ssh with id_ed25519 + known_hosts (StrictHostKeyChecking=yes) runs the lab's own sinfo remotely"

empty_known_hosts="$(mktemp)"
if ssh "${ssh_opts[@]}" -o UserKnownHostsFile="$empty_known_hosts" "${STRATA_LAB_SSH%:*}" true 2>/dev/null; then
    rm -f "$empty_known_hosts"; fail "ssh accepted an unknown host key despite StrictHostKeyChecking=yes"
fi
rm -f "$empty_known_hosts"
pass "ssh refuses the host when known_hosts lacks its key"

head -n 2 "$STRATA_LAB_DIR/connect.args" | tr '\n' ' ' | grep -qx -- "--ssh $(id -un)@127.0.0.1:$ssh_port " ||
    fail "connect.args does not start with --ssh USER@127.0.0.1:$ssh_port"
[ "$(wc -l <"$STRATA_LAB_DIR/connect.args")" -eq "$connect_lines" ] || fail "connect.args should have $connect_lines lines"
pass "connect.args holds the Strata CLI flags"

# --- status
status="$("$LAB" status --dir "$STRATA_LAB_DIR")" || fail "lab status exits non-zero: $status"
! grep -q ' down ' <<<"$status" || fail "a service is down: $status"
pass "lab status: every service up"
echo "all $CHECKS checks passed"
