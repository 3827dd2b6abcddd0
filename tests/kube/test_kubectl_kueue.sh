#!/usr/bin/env bash
# Kueue on the kube stand-in, with the REAL kubectl: the lab's queues (examples/kueue-queues.yaml),
# Jobs labelled kueue.x-k8s.io/queue-name suspended at creation and given a Workload, admitted in
# FIFO order while the ClusterQueue's GPU quota allows (unsuspended onto their flavor's nodes),
# the next one pending with Kueue's message, its position in the visibility API, quota freed by a
# finished or deleted job and the next one admitted, preemption by priority, deactivation, the
# queues' status, Kueue's events, and bad input refused with the CRDs' 422.
. "$(dirname "$0")/lib.sh"
start_standin

# jp OBJECT JSONPATH: one value read with kubectl's own jsonpath.
jp() { k get "$1" -o "jsonpath=$2"; }
expect_eq() { [ "$1" = "$2" ] && pass "$3" || fail "$3: expected '$2', got '$1'"; }
# queued_job NAME GPUS SECONDS [QUEUE] [extra label line]: a Job of one pod for NAME's queue.
queued_job() {
    cat <<YAML
apiVersion: batch/v1
kind: Job
metadata:
  name: $1
  labels:
    kueue.x-k8s.io/queue-name: ${4:-lab-queue}
${5:-}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "echo training; sleep $3"]
        resources:
          limits: {nvidia.com/gpu: $2, cpu: "4", memory: 8Gi}
YAML
}
workload_of() { k get workloads -l "kueue.x-k8s.io/job-uid=$(jp "job/$1" '{.metadata.uid}')" -o 'jsonpath={.items[0].metadata.name}'; }
admitted() { [ "$(jp "workload/$(workload_of "$1")" '{.status.conditions[?(@.type=="Admitted")].status}')" = True ]; }

resources="$(k api-resources --api-group=kueue.x-k8s.io)"
for kind in ClusterQueue LocalQueue ResourceFlavor Workload WorkloadPriorityClass; do
    expect_contains "$resources" "$kind" "discovery serves kueue.x-k8s.io/v1beta1 $kind"
done
expect_contains "$(k get --raw /apis/visibility.kueue.x-k8s.io/v1beta1)" '"clusterqueues/pendingworkloads"' \
    "the visibility API is discovered"

expect_contains "$(k apply -f "$repo/lab/kube_standin/examples/kueue-queues.yaml")" \
    "clusterqueue.kueue.x-k8s.io/lab-gpus created" "the lab's queues apply"
wait_for 5 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get cq lab-gpus -o jsonpath='{.status.conditions[0].reason}' | grep -qx Ready"
pass "ClusterQueue lab-gpus is Active (Ready)"
expect_eq "$(jp lq/lab-queue '{.status.conditions[0].status} {.spec.clusterQueue}')" "True lab-gpus" "LocalQueue lab-queue is Active"

# Three jobs of 8 GPUs against a quota of 8 per flavor: two admitted, one pending.
created="$(queued_job train-a 8 600 | k create -f - -o 'jsonpath={.spec.suspend}')"
expect_eq "$created" true "Kueue's webhook suspends a queued Job at creation"
queued_job train-b 8 600 | k create -f - >/dev/null
sleep 0.3
queued_job train-c 8 600 | k create -f - >/dev/null
wait_for 10 admitted train-b || fail "train-b admitted"
wl_a="$(workload_of train-a)"; wl_c="$(workload_of train-c)"
case "$wl_a" in job-train-a-?????) pass "Workload $wl_a named as Kueue names it" ;; *) fail "Workload name: $wl_a" ;; esac
expect_eq "$(jp "workload/$wl_a" '{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} {.metadata.ownerReferences[0].controller}')" \
    "Job/train-a true" "the Workload is owned by its Job"
expect_eq "$(jp "workload/$wl_a" '{.spec.queueName} {.spec.podSets[0].name} {.spec.podSets[0].count}')" \
    "lab-queue main 1" "Workload spec: queue and pod set"
expect_eq "$(jp "workload/$wl_a" '{.status.admission.clusterQueue} {.status.admission.podSetAssignments[0].flavors.nvidia\.com/gpu} {.status.admission.podSetAssignments[0].resourceUsage.nvidia\.com/gpu} {.status.admission.podSetAssignments[0].count}')" \
    "lab-gpus p5-h100 8 1" "train-a admitted on flavor p5-h100 with 8 GPUs"
expect_eq "$(jp "workload/$(workload_of train-b)" '{.status.admission.podSetAssignments[0].flavors.nvidia\.com/gpu}')" \
    p5en-h200 "train-b admitted on the next flavor, p5en-h200"
expect_eq "$(jp "workload/$wl_a" '{.status.conditions[?(@.type=="QuotaReserved")].message}')" \
    "Quota reserved in ClusterQueue lab-gpus" "QuotaReserved condition"
expect_eq "$(jp job/train-a '{.spec.suspend} {.spec.template.spec.nodeSelector.node\.kubernetes\.io/instance-type}')" \
    "false p5.48xlarge" "the admitted Job is unsuspended with its flavor's node labels"
wait_for 10 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -l job-name=train-a -o jsonpath='{.items[0].spec.nodeName}' | grep -q kube-gpu-0[12]"
pass "train-a's pod runs on a p5.48xlarge node"

expect_eq "$(jp job/train-c '{.spec.suspend}')" true "train-c stays suspended"
expect_eq "$(k get pods -l job-name=train-c -o name)" "" "train-c has no pods"
pending="$(jp "workload/$wl_c" '{.status.conditions[?(@.type=="QuotaReserved")].status}|{.status.conditions[?(@.type=="QuotaReserved")].reason}|{.status.conditions[?(@.type=="QuotaReserved")].message}')"
expect_eq "$pending" "False|Pending|couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor p5-h100, 8 more needed, insufficient unused quota for nvidia.com/gpu in flavor p5en-h200, 8 more needed" \
    "train-c pending with Kueue's message"
expect_eq "$(jp "workload/$wl_c" '{.status.resourceRequests[0].resources.nvidia\.com/gpu}')" 8 "pending Workload's resourceRequests"
table="$(k get workloads)"
expect_contains "$table" "NAME                QUEUE       RESERVED IN   ADMITTED   FINISHED   AGE" "Workload table columns (the CRD's printer columns)"
expect_contains "$(k get cq lab-gpus -o wide)" "BestEffortFIFO   1                   2" "ClusterQueue table: 1 pending, 2 admitted"
expect_eq "$(jp cq/lab-gpus '{.status.pendingWorkloads} {.status.reservingWorkloads} {.status.admittedWorkloads}')" "1 2 2" \
    "ClusterQueue counts"
expect_eq "$(jp cq/lab-gpus '{.status.flavorsReservation[0].name} {.status.flavorsReservation[0].resources[2].name}={.status.flavorsReservation[0].resources[2].total} {.status.flavorsUsage[1].resources[2].total} {.status.flavorsUsage[1].resources[1].total}')" \
    "p5-h100 nvidia.com/gpu=8 8 8Gi" "ClusterQueue flavorsReservation / flavorsUsage per flavor"
expect_eq "$(jp lq/lab-queue '{.status.pendingWorkloads} {.status.admittedWorkloads} {.status.flavorUsage[0].resources[2].total}')" \
    "1 2 8" "LocalQueue status"

summary="$(k get --raw /apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/lab-gpus/pendingworkloads)"
expect_contains "$summary" '"kind": "PendingWorkloadsSummary"' "visibility: PendingWorkloadsSummary"
expect_contains "$summary" "\"name\": \"$wl_c\"" "visibility: the pending Workload"
expect_contains "$summary" '"localQueueName": "lab-queue", "positionInClusterQueue": 0, "positionInLocalQueue": 0' \
    "visibility: position 0 in ClusterQueue and LocalQueue"
expect_contains "$(k get --raw /apis/visibility.kueue.x-k8s.io/v1beta1/namespaces/default/localqueues/lab-queue/pendingworkloads)" \
    "\"name\": \"$wl_c\"" "visibility: LocalQueue pendingworkloads"
missing="$(k get --raw /apis/visibility.kueue.x-k8s.io/v1beta1/clusterqueues/nope/pendingworkloads 2>&1 || true)"
expect_contains "$missing" "NotFound" "visibility: a missing ClusterQueue is NotFound"

events="$(k events --for "workload/$wl_c")"
expect_contains "$events" "Pending" "kubectl events --for workload: Kueue's Pending event"
expect_contains "$(k events --for job/train-a)" "Admitted by clusterQueue lab-gpus" "the Job's Started event"

# Deleting a job frees its quota: train-a goes and train-c, first in line, is admitted there.
k delete job train-a >/dev/null
wait_for 10 admitted train-c || fail "train-c admitted once train-a was deleted"
expect_eq "$(k get workloads -o name | grep -c "job-train-a-" || true)" 0 "the deleted Job's Workload is gone"
expect_eq "$(jp "workload/$wl_c" '{.status.admission.podSetAssignments[0].flavors.nvidia\.com/gpu}')" p5-h100 \
    "train-c takes the freed p5-h100 quota"
expect_eq "$(jp job/train-c '{.spec.suspend}')" false "train-c unsuspended"

# A job that finishes frees its quota too: train-d (1 s) waits for train-b, runs, and is Finished.
queued_job train-d 8 1 | k create -f - >/dev/null
wait_for 5 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get cq lab-gpus -o jsonpath='{.status.pendingWorkloads}' | grep -qx 1"
k delete job train-b >/dev/null
wait_for 10 admitted train-d || fail "train-d admitted once train-b was deleted"
wait_for 10 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get workloads -o jsonpath='{.items[*].status.conditions[?(@.type==\"Finished\")].reason}' | grep -qx Succeeded"
expect_eq "$(jp "workload/$(workload_of train-d)" '{.status.conditions[?(@.type=="Finished")].status} {.status.conditions[?(@.type=="Finished")].message}')" \
    "True Job finished successfully" "train-d's Workload is Finished (Succeeded)"
expect_eq "$(jp cq/lab-gpus '{.status.pendingWorkloads} {.status.admittedWorkloads} {.status.flavorsUsage[1].resources[2].total}')" "0 1 0" \
    "a finished Workload holds no quota"
expect_contains "$(k events --for job/train-d)" "is declared finished" "the Job's FinishedWorkload event"

# A LocalQueue that does not exist: the Workload is inadmissible, with Kueue's reason.
queued_job lost 1 5 no-such-queue | k create -f - >/dev/null
wait_for 5 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get workloads -o jsonpath='{.items[*].status.conditions[*].message}' | grep -q \"LocalQueue no-such-queue doesn't exist\""
expect_eq "$(jp "workload/$(workload_of lost)" '{.status.conditions[0].reason}')" Inadmissible "a missing LocalQueue: Inadmissible"

# Preemption within a ClusterQueue by a higher WorkloadPriorityClass.
k apply -f - >/dev/null <<'YAML'
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: urgent}
value: 1000
description: preempts the rest
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: prio}
spec:
  namespaceSelector: {}
  preemption: {withinClusterQueue: LowerPriority}
  resourceGroups:
  - coveredResources: ["cpu", "memory", "nvidia.com/gpu"]
    flavors:
    - name: p5en-h200
      resources:
      - {name: cpu, nominalQuota: 16}
      - {name: memory, nominalQuota: 64Gi}
      - {name: nvidia.com/gpu, nominalQuota: 4}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: prio-queue, namespace: default}
spec: {clusterQueue: prio}
YAML
queued_job low 4 60 prio-queue | k create -f - >/dev/null
wait_for 10 admitted low || fail "low admitted"
queued_job high 4 60 prio-queue "    kueue.x-k8s.io/priority-class: urgent" | k create -f - >/dev/null
wait_for 10 admitted high || fail "high admitted after preempting low"
wl_low="$(workload_of low)"
expect_eq "$(jp "workload/$wl_low" '{.status.conditions[?(@.type=="Evicted")].reason} {.status.conditions[?(@.type=="Preempted")].reason} {.status.conditions[?(@.type=="Admitted")].status}')" \
    "Preempted InClusterQueue False" "the lower-priority Workload is Evicted (Preempted, InClusterQueue)"
expect_contains "$(jp "workload/$wl_low" '{.status.conditions[?(@.type=="Preempted")].message}')" \
    "Preempted to accommodate a workload (UID: " "Kueue's preemption message"
expect_eq "$(jp "workload/$(workload_of high)" '{.spec.priority} {.spec.priorityClassName}')" "1000 urgent" \
    "priority from the WorkloadPriorityClass"
expect_eq "$(jp job/low '{.spec.suspend}')" true "the preempted Job is suspended again"
wait_for 5 sh -c "[ -z \"\$(kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get pods -l job-name=low -o name)\" ]" \
    || fail "the preempted Job's pods are gone"
pass "the preempted Job's pods are gone"

# Deactivation: spec.active=false evicts an admitted Workload.
k patch workload "$(workload_of high)" --type merge -p '{"spec":{"active":false}}' >/dev/null
wait_for 5 sh -c "kubectl --kubeconfig '$work/kubeconfig' --cache-dir '$work/cache' get job high -o jsonpath='{.spec.suspend}' | grep -qx true"
expect_eq "$(jp "workload/$(workload_of high)" '{.status.conditions[?(@.type=="Evicted")].reason}')" Deactivated \
    "a deactivated Workload is Evicted (Deactivated) and its Job suspended"
wait_for 10 admitted low || fail "low readmitted once high was deactivated"
pass "the preempted Workload is admitted again once the quota is free"

# Bad input is refused by the CRDs' schemas, never a controller crash.
bad="$(k create -f - 2>&1 <<'YAML' || true
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: broken}
spec:
  resourceGroups:
  - coveredResources: ["nvidia.com/gpu"]
    flavors:
    - name: p5-h100
      resources:
      - {name: nvidia.com/gpu, nominalQuota: lots}
YAML
)"
expect_contains "$bad" 'The ClusterQueue "broken" is invalid: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: "lots"' \
    "a bad nominalQuota is a 422 Invalid"
bad="$(k create -f - 2>&1 <<'YAML' || true
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: broken}
spec:
  queueName: lab-queue
  podSets: [{name: main, count: many, template: {spec: {containers: []}}}]
YAML
)"
expect_contains "$bad" "spec.podSets[0].count" "a Workload with a bad count is a 422 Invalid"
expect_contains "$(k get cq lab-gpus -o jsonpath='{.status.conditions[0].reason}')" Ready "the controllers still run"

# A cluster without Kueue (--crds none): its groups are absent and a job with the queue label
# runs at once (no webhook suspends it, no controller makes a Workload).
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
rm -f "$work/kubeconfig"; rm -rf "$work/cache"
start_standin --crds none --fresh
[ -z "$(k api-resources --api-group=kueue.x-k8s.io --no-headers)" ] || fail "kueue.x-k8s.io served without Kueue"
case "$(k get --raw /apis)" in *visibility.kueue*) fail "the visibility API listed without Kueue" ;; esac
pass "without Kueue's CRDs kueue.x-k8s.io and its visibility API are absent"
expect_eq "$(queued_job plain 1 1 | k create -f - -o 'jsonpath={.spec.suspend}')" false \
    "without Kueue a job labelled with a queue is not suspended"
