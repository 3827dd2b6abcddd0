#!/usr/bin/env bash
# The REAL kubectl against the kube stand-in's workload kinds (issue 31): discovery of apps/v1
# and the training/serving CRDs, each kind's controller (pods, ownerReferences up to the
# workload, status fields, `kubectl get KIND` columns), suspend/resume, the scale subresource,
# cascading delete (background, foreground, orphan), and a cluster without the CRDs (--crds none).
. "$(dirname "$0")/lib.sh"
start_standin
examples="$repo/lab/kube_standin/examples"
# The gcloud dispatcher /usr/bin/kubectl asks /version and then runs kubectl.1.31 on every call;
# calling that same kubectl directly halves the time of this script's ~100 calls.
kubectl_bin="$(dirname "$(readlink -f "$(command -v kubectl)")")/kubectl.1.31"
[ -x "$kubectl_bin" ] || kubectl_bin=kubectl
k() { "$kubectl_bin" --kubeconfig "$work/kubeconfig" --cache-dir "$work/cache" "$@"; }

# jp KIND NAME JSONPATH: one field of one object.
jp() { k get "$1" "$2" -o jsonpath="$3" 2>/dev/null; }
# wait_jp SECONDS EXPECTED KIND NAME JSONPATH: waits until the field reads EXPECTED.
wait_jp() {
    local seconds=$1 expected=$2 i
    shift 2
    for i in $(seq $((seconds * 5))); do
        [ "$(jp "$@")" = "$expected" ] && return 0
        sleep 0.2
    done
    fail "$1 $2 $3: expected '$expected', got '$(jp "$@")'"
}
# owner KIND NAME: "Kind/name" of the controller owner.
owner() { jp "$1" "$2" '{.metadata.ownerReferences[?(@.controller==true)].kind}/{.metadata.ownerReferences[?(@.controller==true)].name}'; }
count() { k get "$@" -o name 2>/dev/null | wc -l; }

# Discovery: apps/v1 and every CRD group, with their versions.
resources="$(k api-resources --no-headers)"
for line in "deployments +deploy +apps/v1 +true +Deployment" "statefulsets +sts +apps/v1" \
            "pytorchjobs +kubeflow.org/v1 +true +PyTorchJob" "mpijobs +kubeflow.org/v2beta1 +true +MPIJob" \
            "trainjobs +trainer.kubeflow.org/v1alpha1" "jobsets +jobset.x-k8s.io/v1alpha2" "rayjobs +ray.io/v1" \
            "rayclusters +ray.io/v1" "leaderworkersets +lws +leaderworkerset.x-k8s.io/v1" \
            "hyperpodpytorchjobs +.*sagemaker.amazonaws.com/v1"; do
    echo "$resources" | grep -Eq "^$line" || fail "api-resources lacks '$line': $resources"
done
pass "discovery: apps/v1 and the training/serving CRDs at their groups and versions"

# Deployment -> ReplicaSet (pod-template-hash) -> 2 pods, 1 GPU each; scale; orphan delete.
k apply -f "$examples/deployment-vllm.yaml" >/dev/null
wait_jp 10 2 deployment vllm-qwen '{.status.availableReplicas}'
rs="$(k get rs -l app=vllm-qwen -o jsonpath='{.items[0].metadata.name}')"
hash="$(jp rs "$rs" '{.metadata.labels.pod-template-hash}')"
[ "$rs" = "vllm-qwen-$hash" ] || fail "ReplicaSet name $rs, hash $hash"
[ "$(owner rs "$rs")" = "Deployment/vllm-qwen" ] || fail "ReplicaSet owner: $(owner rs "$rs")"
pod="$(k get pods -l pod-template-hash="$hash" -o jsonpath='{.items[0].metadata.name}')"
[ "$(owner pod "$pod")" = "ReplicaSet/$rs" ] || fail "pod owner: $(owner pod "$pod")"
expect_contains "$(jp pod "$pod" '{.spec.nodeName} {.metadata.annotations.strata\.lab/gpu-indices}')" "kube-gpu-0" "a vLLM pod on a GPU node"
expect_contains "$(k get deploy vllm-qwen)" "vllm-qwen   2/2     2            2" "kubectl get deployment: READY 2/2"
expect_contains "$(jp deployment vllm-qwen '{.status.conditions[0].type}={.status.conditions[0].reason}')" \
    "Available=MinimumReplicasAvailable" "Deployment condition Available"
expect_contains "$(k get events --field-selector involvedObject.name=vllm-qwen -o jsonpath='{.items[*].message}')" \
    "Scaled up replica set $rs from 0 to 2" "the Deployment's ScalingReplicaSet event"
k set image deployment/vllm-qwen vllm=vllm/vllm-openai:v0.6.5 >/dev/null
expect_contains "$(k rollout status deployment/vllm-qwen --timeout=20s)" 'deployment "vllm-qwen" successfully rolled out' \
    "kubectl rollout status after a new image"
[ "$(jp rs "$rs" '{.spec.replicas}')" = "0" ] || fail "the old ReplicaSet is scaled to 0"
rs="$(k get rs -l app=vllm-qwen -o jsonpath='{.items[?(@.spec.replicas==2)].metadata.name}')"
hash="${rs#vllm-qwen-}"
[ "$(jp pod "$(k get pods -l pod-template-hash="$hash" -o jsonpath='{.items[0].metadata.name}')" '{.spec.containers[0].image}')" = "vllm/vllm-openai:v0.6.5" ] \
    || fail "the new ReplicaSet's pods run the new image"
pass "a new pod template: a new ReplicaSet with its pods, the old one at 0"
k scale deployment vllm-qwen --replicas=1 >/dev/null
wait_jp 10 1 rs "$rs" '{.status.replicas}'
[ "$(count pods -l app=vllm-qwen)" -eq 1 ] || fail "scaled to 1: $(k get pods -l app=vllm-qwen)"
pass "kubectl scale deployment --replicas=1"
k delete deployment vllm-qwen --cascade=orphan >/dev/null
sleep 0.3
[ -z "$(jp rs "$rs" '{.metadata.ownerReferences}')" ] && [ "$(count pods -l app=vllm-qwen)" -eq 1 ] \
    || fail "orphan delete: the ReplicaSet keeps its pods and loses its owner"
pass "delete --cascade=orphan keeps the ReplicaSet and its pod"
k delete rs "$rs" >/dev/null
wait_for 5 sh -c "[ \$($kubectl_bin --kubeconfig '$work/kubeconfig' get pods -l app=vllm-qwen -o name | wc -l) -eq 0 ]" \
    || fail "deleting the ReplicaSet deletes its pod (background)"
pass "delete of the ReplicaSet takes its pod"

# PyTorchJob 2 x 8 GPUs: pods, env, labels, services, status; cascade delete.
k apply -f "$examples/pytorchjob-llama-2x8.yaml" >/dev/null
wait_jp 10 "True" pytorchjob llama-pretrain '{.status.conditions[?(@.type=="Running")].status}'
env="$(jp pod llama-pretrain-worker-0 '{range .spec.containers[0].env[*]}{.name}={.value} {end}')"
for want in MASTER_ADDR=llama-pretrain-master-0 MASTER_PORT=23456 WORLD_SIZE=16 RANK=1 PET_NPROC_PER_NODE=8 \
            PET_NODE_RANK=1 PET_NNODES=2; do
    expect_contains "$env" "$want " "worker env $want"
done
expect_contains "$(jp pod llama-pretrain-master-0 '{range .spec.containers[0].env[*]}{.name}={.value} {end}')" "RANK=0 " "master RANK=0"
[ "$(jp pod llama-pretrain-master-0 '{.metadata.labels.training\.kubeflow\.org/replica-type}/{.metadata.labels.training\.kubeflow\.org/job-role}')" = "master/master" ] \
    || fail "master labels"
[ "$(owner pod llama-pretrain-master-0)" = "PyTorchJob/llama-pretrain" ] || fail "master owner"
[ "$(jp pod llama-pretrain-master-0 '{.metadata.annotations.strata\.lab/gpu-indices}')" = "0,1,2,3,4,5,6,7" ] || fail "8 GPUs on the master"
[ "$(jp pytorchjob llama-pretrain '{.status.replicaStatuses.Master.active}/{.status.replicaStatuses.Worker.active}')" = "1/1" ] \
    || fail "replicaStatuses: $(jp pytorchjob llama-pretrain '{.status.replicaStatuses}')"
expect_contains "$(k get pytorchjobs)" "llama-pretrain   Running" "kubectl get pytorchjobs: State Running"
[ "$(jp service llama-pretrain-master-0 '{.spec.clusterIP}')" = "None" ] || fail "headless master Service"
pass "PyTorchJob: master and worker pods with the operator's env, labels, Service and status"
events="$(k get events --field-selector involvedObject.kind=PyTorchJob,involvedObject.name=llama-pretrain \
    -o jsonpath='{range .items[*]}{.reason}/{.source.component}: {.message};{end}')"
expect_contains "$events" "SuccessfulCreatePod/pytorchjob-controller: Created pod: llama-pretrain-worker-0;" \
    "the operator's events on the PyTorchJob"
k delete pytorchjob llama-pretrain >/dev/null
[ "$(count pods -l training.kubeflow.org/job-name=llama-pretrain)" -eq 0 ] && [ "$(count service llama-pretrain-master-0)" -eq 0 ] \
    || fail "kubectl delete pytorchjob leaves pods or services"
pass "kubectl delete pytorchjob leaves no pod and no service"

# PyTorchJob suspended, resumed, succeeded.
cat >"$work/suspended.yaml" <<'YAML'
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: short}
spec:
  runPolicy: {suspend: true}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          containers: [{name: pytorch, image: busybox, command: [sh, -c, "sleep 0.5; echo trained"]}]
YAML
k apply -f "$work/suspended.yaml" >/dev/null
wait_jp 10 True pytorchjob short '{.status.conditions[?(@.type=="Suspended")].status}'
[ "$(count pods -l training.kubeflow.org/job-name=short)" -eq 0 ] || fail "a suspended PyTorchJob has pods"
k patch pytorchjob short --type=merge -p '{"spec":{"runPolicy":{"suspend":false}}}' >/dev/null
wait_jp 10 True pytorchjob short '{.status.conditions[?(@.type=="Succeeded")].status}'
[ "$(jp pytorchjob short '{.status.conditions[?(@.type=="Suspended")].reason}')" = "PyTorchJobResumed" ] || fail "resumed reason"
[ "$(k logs short-master-0)" = "trained" ] || fail "master log"
pass "PyTorchJob: no pods while suspended, runs once resumed, Succeeded when the master succeeds"

# MPIJob v2beta1: workers and the launcher Job; Succeeded when the launcher completes.
cat >"$work/mpijob.yaml" <<'YAML'
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: nccl-tests}
spec:
  slotsPerWorker: 8
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          containers: [{name: launcher, image: mpioperator/openmpi, command: [sh, -c, "sleep 1; echo all_reduce done"]}]
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: worker
            image: mpioperator/openmpi
            command: [sleep, infinity]
            resources: {limits: {nvidia.com/gpu: 1}}
YAML
k apply -f "$work/mpijob.yaml" >/dev/null
wait_jp 10 True mpijob nccl-tests '{.status.conditions[?(@.type=="Succeeded")].status}'
[ "$(owner job nccl-tests-launcher)" = "MPIJob/nccl-tests" ] || fail "launcher Job owner"
[ "$(jp pod nccl-tests-worker-1 '{.spec.hostname}.{.spec.subdomain}')" = "nccl-tests-worker-1.nccl-tests" ] || fail "worker DNS name"
pass "MPIJob: launcher Job and worker pods, Succeeded with the launcher"
k delete mpijob nccl-tests >/dev/null
[ "$(count pods -l training.kubeflow.org/job-name=nccl-tests)" -eq 0 ] && [ "$(count job nccl-tests-launcher)" -eq 0 ] \
    || fail "delete mpijob leaves the launcher or workers"

# JobSet: suspended (as Kueue leaves it), resumed, Jobs NAME-RJOB-I, Completed; foreground delete.
cat >"$work/jobset.yaml" <<'YAML'
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js}
spec:
  suspend: true
  replicatedJobs:
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 2
        completions: 2
        template:
          spec:
            restartPolicy: Never
            tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
            containers: [{name: w, image: busybox, command: [sh, -c, "sleep 0.5; echo $JOB_COMPLETION_INDEX"]}]
YAML
k apply -f "$work/jobset.yaml" >/dev/null
wait_jp 10 2 jobset js '{.status.replicatedJobsStatus[0].suspended}'
[ "$(count pods -l jobset.sigs.k8s.io/jobset-name=js)" -eq 0 ] || fail "a suspended JobSet has pods"
[ "$(owner job js-workers-1)" = "JobSet/js" ] || fail "Job js-workers-1 owned by the JobSet"
k patch jobset js --type=merge -p '{"spec":{"suspend":false}}' >/dev/null
wait_jp 15 Completed jobset js '{.status.terminalState}'
[ "$(jp jobset js '{.status.replicatedJobsStatus[0].succeeded}')" = "2" ] || fail "replicatedJobsStatus succeeded"
pod="$(k get pods -l jobset.sigs.k8s.io/replicatedjob-name=workers,jobset.sigs.k8s.io/job-index=1 -o jsonpath='{.items[0].metadata.name}')"
[ "$(owner pod "$pod")" = "Job/js-workers-1" ] && [ "$(jp pod "$pod" '{.spec.subdomain}')" = "js" ] || fail "JobSet pod owner and subdomain"
expect_contains "$(k get jobsets)" "js     Completed" "kubectl get jobsets: TerminalState Completed"
pass "JobSet: Jobs suspended then resumed, pods in its subdomain, Completed"
k delete jobset js --cascade=foreground >/dev/null
[ "$(count jobs -l jobset.sigs.k8s.io/jobset-name=js)" -eq 0 ] && [ "$(count pods -l jobset.sigs.k8s.io/jobset-name=js)" -eq 0 ] \
    || fail "foreground delete of the JobSet leaves Jobs or pods"
pass "delete --cascade=foreground: the JobSet's Jobs and pods go first"

# TrainJob -> JobSet -> Job -> pods.
cat >"$work/trainjob.yaml" <<'YAML'
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tj}
spec:
  runtimeRef: {name: torch-distributed}
  trainer:
    numNodes: 2
    command: [sh, -c, "echo rank $PET_NODE_RANK of $PET_NNODES"]
    resourcesPerNode: {limits: {nvidia.com/gpu: 2}}
YAML
k apply -f "$work/trainjob.yaml" >/dev/null
wait_jp 15 True trainjob tj '{.status.conditions[?(@.type=="Complete")].status}'
[ "$(owner jobset tj)" = "TrainJob/tj" ] && [ "$(owner job tj-node-0)" = "JobSet/tj" ] || fail "TrainJob chain"
logs="$(k logs -l jobset.sigs.k8s.io/jobset-name=tj)"
expect_contains "$logs" "rank 1 of 2" "TrainJob pods get PET_NODE_RANK/PET_NNODES"

# RayJob -> RayCluster (head + worker) + submitter Job; SUCCEEDED; shutdownAfterJobFinishes.
cat >"$work/rayjob.yaml" <<'YAML'
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: rj}
spec:
  entrypoint: sleep 6
  shutdownAfterJobFinishes: true
  submitterPodTemplate:
    spec:
      restartPolicy: Never
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers: [{name: ray-job-submitter, image: rayproject/ray:2.9.0}]
  rayClusterSpec:
    headGroupSpec:
      rayStartParams: {dashboard-host: 0.0.0.0}
      template:
        spec:
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          containers: [{name: ray-head, image: rayproject/ray:2.9.0, resources: {limits: {cpu: "2", memory: 8Gi}}}]
    workerGroupSpecs:
    - groupName: gpu
      replicas: 1
      rayStartParams: {}
      template:
        spec:
          containers: [{name: ray-worker, image: rayproject/ray:2.9.0-gpu, resources: {limits: {cpu: "4", memory: 16Gi, nvidia.com/gpu: 1}}}]
YAML
k apply -f "$work/rayjob.yaml" >/dev/null
wait_for 10 sh -c "$kubectl_bin --kubeconfig '$work/kubeconfig' get rayjob rj -o jsonpath='{.status.rayClusterName}' | grep -q rj-" \
    || fail "the RayJob names no RayCluster"
cluster="$(jp rayjob rj '{.status.rayClusterName}')"
wait_jp 10 ready raycluster "$cluster" '{.status.state}'
got="$(jp raycluster "$cluster" '{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} {.status.readyWorkerReplicas} {.status.desiredGPU} {.status.head.serviceName}')"
[ "$got" = "RayJob/rj 1 1 $cluster-head-svc" ] || fail "RayCluster owner and status: $got"
head="$(k get pods -l ray.io/cluster="$cluster",ray.io/node-type=head -o jsonpath='{.items[0].metadata.name}')"
expect_contains "$(k logs "$head")" "ray start --head --dashboard-host=0.0.0.0 --block" "head runs KubeRay's ray start"
wait_jp 10 RUNNING rayjob rj '{.status.jobStatus}'
[ "$(owner job rj)" = "RayJob/rj" ] || fail "submitter Job owned by the RayJob"
wait_jp 10 SUCCEEDED/Complete rayjob rj '{.status.jobStatus}/{.status.jobDeploymentStatus}'
wait_for 5 sh -c "! $kubectl_bin --kubeconfig '$work/kubeconfig' get raycluster '$cluster' >/dev/null 2>&1" \
    || fail "shutdownAfterJobFinishes: the RayCluster stays"
[ "$(count pods -l ray.io/cluster="$cluster")" -eq 0 ] || fail "the RayCluster's pods stay"
pass "RayJob: RayCluster ready, submitter RUNNING then SUCCEEDED/Complete, cluster shut down"

# LeaderWorkerSet: leader StatefulSet, the leader pod owning its group's worker StatefulSet.
k apply -f "$examples/leaderworkerset-vllm.yaml" >/dev/null
wait_jp 10 1 lws vllm-llama-70b '{.status.readyReplicas}'
[ "$(owner sts vllm-llama-70b)" = "LeaderWorkerSet/vllm-llama-70b" ] || fail "leader StatefulSet owner"
[ "$(owner sts vllm-llama-70b-0)" = "Pod/vllm-llama-70b-0" ] || fail "worker StatefulSet owned by the leader pod"
[ "$(owner pod vllm-llama-70b-0-1)" = "StatefulSet/vllm-llama-70b-0" ] || fail "worker pod owner"
expect_contains "$(jp pod vllm-llama-70b-0-1 '{range .spec.containers[0].env[*]}{.name}={.value} {end}')" \
    "LWS_LEADER_ADDRESS=vllm-llama-70b-0.vllm-llama-70b.default LWS_GROUP_SIZE=2 LWS_WORKER_INDEX=1" "LWS env on the worker"
[ "$(jp pod vllm-llama-70b-0-1 '{.metadata.labels.leaderworkerset\.sigs\.k8s\.io/group-index}/{.metadata.annotations.strata\.lab/gpu-indices}')" = "0/0,1,2,3" ] \
    || fail "worker group index and 4 GPUs"
pass "LeaderWorkerSet: leader and worker StatefulSets, LWS labels and env, readyReplicas 1"
k delete lws vllm-llama-70b >/dev/null
[ "$(count pods -l leaderworkerset.sigs.k8s.io/name=vllm-llama-70b)" -eq 0 ] && [ "$(count sts)" -eq 0 ] \
    || fail "delete lws leaves StatefulSets or pods"
pass "kubectl delete lws leaves no StatefulSet and no pod"

# HyperPodPyTorchJob.
cat >"$work/hyperpod.yaml" <<'YAML'
apiVersion: sagemaker.amazonaws.com/v1
kind: HyperPodPyTorchJob
metadata: {name: hp}
spec:
  nprocPerNode: "2"
  replicaSpecs:
  - name: pods
    replicas: 2
    template:
      spec:
        containers: [{name: ptjob, image: busybox, command: [sh, -c, "echo node $PET_NODE_RANK"], resources: {limits: {nvidia.com/gpu: 2}}}]
YAML
k apply -f "$work/hyperpod.yaml" >/dev/null
wait_jp 10 True hyperpodpytorchjob hp '{.status.conditions[?(@.type=="Completed")].status}'
[ "$(owner pod hp-pods-1)" = "HyperPodPyTorchJob/hp" ] && [ "$(k logs hp-pods-1)" = "node 1" ] || fail "HyperPod pods"
pass "HyperPodPyTorchJob: pods NAME-REPLICA-I with PET_* env, Completed"

# Bad input is a 422, not a controller crash.
out="$(printf '{"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"bad"},"spec":{"pytorchReplicaSpecs":{"Chief":{"replicas":-1}}}}' | k create -f - 2>&1 || true)"
expect_contains "$out" 'The PyTorchJob "bad" is invalid: spec.pytorchReplicaSpecs: Unsupported value: "Chief"' "a malformed PyTorchJob is refused (422)"
out="$(printf '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"bad"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"c"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}' | k create -f - 2>&1 || true)"
expect_contains "$out" '`selector` does not match template `labels`' "a Deployment whose selector misses its template is refused"
[ "$(count pytorchjobs)" -eq 1 ] || fail "only the short PyTorchJob is left"
out="$(k patch pytorchjob short --type=merge -p '{"spec":{"pytorchReplicaSpecs":{"Master":{"replicas":"two"}}}}' 2>&1 || true)"
expect_contains "$out" 'spec.pytorchReplicaSpecs[Master].replicas: Invalid value: "two"' "an update is validated as a create is"

# A cluster without the CRDs: their groups are absent, apps/v1 stays.
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
rm -rf "$work/cache" "$work/kubeconfig"
start_standin --fresh --crds none
resources="$(k api-resources --no-headers)"
echo "$resources" | grep -q "^deployments" || fail "--crds none keeps apps/v1"
case "$resources" in *kubeflow.org*|*ray.io*|*x-k8s.io*|*sagemaker*) fail "--crds none still serves CRDs: $resources" ;; esac
expect_contains "$(k get pytorchjobs 2>&1 || true)" 'the server doesn'"'"'t have a resource type "pytorchjobs"' "kubectl get pytorchjobs without the CRD"
expect_contains "$(api /apis/kubeflow.org/v1 -w ' %{http_code}')" " 404" "/apis/kubeflow.org/v1 is 404 without the CRD"
pass "--crds none: no CRD group in discovery"
