"""The kube stand-in's initial cluster: four GPU nodes shaped like EKS p5/p5en nodes.

Same hardware as the Slurm lab (2x H100 nodes, 2x H200 nodes, 8 GPUs each), but named and
labelled the way an EKS cluster with the NVIDIA GPU operator and SageMaker HyperPod health
agents labels them. Names and addresses are lab-only: nothing here is a real host.
"""

import random

import scale_workloads
from store import new_uid, now_rfc3339

NODE_POOLS = [
    # name, instance type, product label, node group, GPU memory MiB, EFA count
    ("kube-gpu-01", "p5.48xlarge", "NVIDIA-H100-80GB-HBM3", "p5-train", 81559, 32),
    ("kube-gpu-02", "p5.48xlarge", "NVIDIA-H100-80GB-HBM3", "p5-train", 81559, 32),
    ("kube-gpu-03", "p5en.48xlarge", "NVIDIA-H200", "p5en-serve", 143771, 16),
    ("kube-gpu-04", "p5en.48xlarge", "NVIDIA-H200", "p5en-serve", 143771, 16),
]

# --gpu-sharing adds two nodes whose GPUs are not handed out whole, labelled the way GPU feature
# discovery (GPU Operator) labels them: one T4 time-sliced into 4 shares, and a p4d whose 8
# A100 run MIG "mixed" all-1g.5gb (56 devices as nvidia.com/mig-1g.5gb).
SHARING_NODES = [
    # name, instance type, node group, cpu, memory Ki, GPU resources, GFD labels
    ("kube-t4-ts-01", "g4dn.xlarge", "t4-shared", "4", "15896836Ki", {"nvidia.com/gpu": "4"}, {
        "nvidia.com/gpu.count": "1", "nvidia.com/gpu.family": "turing", "nvidia.com/gpu.machine": "g4dn.xlarge",
        "nvidia.com/gpu.memory": "15360", "nvidia.com/gpu.product": "Tesla-T4-SHARED",
        "nvidia.com/gpu.replicas": "4", "nvidia.com/gpu.sharing-strategy": "time-slicing",
        "nvidia.com/mig.capable": "false", "nvidia.com/mps.capable": "false"}),
    ("kube-a100-mig-01", "p4d.24xlarge", "a100-mig", "96", "1176329876Ki",
     {"nvidia.com/mig-1g.5gb": "56", "vpc.amazonaws.com/efa": "4"}, {
        "nvidia.com/gpu.count": "8", "nvidia.com/gpu.family": "ampere", "nvidia.com/gpu.machine": "p4d.24xlarge",
        "nvidia.com/gpu.memory": "40960", "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB",
        "nvidia.com/gpu.replicas": "0", "nvidia.com/mig.capable": "true", "nvidia.com/mig.config": "all-1g.5gb",
        "nvidia.com/mig.config.state": "success", "nvidia.com/mig.strategy": "mixed",
        "nvidia.com/mig-1g.5gb.count": "56", "nvidia.com/mig-1g.5gb.memory": "4864",
        "nvidia.com/mig-1g.5gb.multiprocessors": "14", "nvidia.com/mig-1g.5gb.product": "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb",
        "nvidia.com/mig-1g.5gb.replicas": "1", "nvidia.com/mig-1g.5gb.slices.ci": "1",
        "nvidia.com/mig-1g.5gb.slices.gi": "1"}),
]

NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease", "ml-research"]


def make_node(index, name, instance_type, product, nodegroup, gpu_memory_mib, efa,
              kubelet_version, created):
    zone = "lab-zone-a" if index % 2 == 0 else "lab-zone-b"
    rng = random.Random(name)
    capacity = {
        "cpu": "192",
        "ephemeral-storage": "3748905368Ki",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "memory": "2097027192Ki",
        "nvidia.com/gpu": "8",
        "pods": "100",
        "vpc.amazonaws.com/efa": str(efa),
    }
    allocatable = dict(capacity, cpu="191450m", memory="2070762616Ki",
                       **{"ephemeral-storage": "3454792176768"})
    condition_times = {"lastHeartbeatTime": created, "lastTransitionTime": created}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "uid": new_uid(),
            "creationTimestamp": created,
            "labels": {
                "beta.kubernetes.io/arch": "amd64",
                "beta.kubernetes.io/instance-type": instance_type,
                "beta.kubernetes.io/os": "linux",
                "eks.amazonaws.com/capacityType": "ON_DEMAND",
                "eks.amazonaws.com/nodegroup": nodegroup,
                "k8s.io/cloud-provider-aws": "strata-lab",
                "kubernetes.io/arch": "amd64",
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "node.kubernetes.io/instance-type": instance_type,
                "nvidia.com/gpu.count": "8",
                "nvidia.com/gpu.memory": str(gpu_memory_mib),
                "nvidia.com/gpu.present": "true",
                "nvidia.com/gpu.product": product,
                "sagemaker.amazonaws.com/node-health-status": "Schedulable",
                "topology.kubernetes.io/region": "lab-region-1",
                "topology.kubernetes.io/zone": zone,
                "vpc.amazonaws.com/efa.present": "true",
            },
            "annotations": {
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
        },
        "spec": {
            "providerID": f"strata-lab:///{zone}/{name}",
            "taints": [{"key": "nvidia.com/gpu", "effect": "NoSchedule"}],
        },
        "status": {
            "capacity": capacity,
            "allocatable": allocatable,
            "conditions": [
                dict(type="MemoryPressure", status="False", reason="KubeletHasSufficientMemory",
                     message="kubelet has sufficient memory available", **condition_times),
                dict(type="DiskPressure", status="False", reason="KubeletHasNoDiskPressure",
                     message="kubelet has no disk pressure", **condition_times),
                dict(type="PIDPressure", status="False", reason="KubeletHasSufficientPID",
                     message="kubelet has sufficient PID available", **condition_times),
                dict(type="Ready", status="True", reason="KubeletReady",
                     message="kubelet is posting ready status", **condition_times),
            ],
            # Loopback addresses: lab data only, nothing ever connects to them.
            "addresses": [
                {"type": "InternalIP", "address": f"127.0.10.{index + 1}"},
                {"type": "Hostname", "address": name},
                {"type": "InternalDNS", "address": f"{name}.lab.internal"},
            ],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": str(rng.getrandbits(128)),
                "containerRuntimeVersion": "containerd://1.7.27",
                "kernelVersion": "6.1.134-strata-lab",
                "kubeProxyVersion": kubelet_version,
                "kubeletVersion": kubelet_version,
                "machineID": "%032x" % rng.getrandbits(128),
                "operatingSystem": "linux",
                "osImage": "Amazon Linux 2023.7.20250512 (stand-in)",
                "systemUUID": "%08x-0000-0000-0000-%012x" % (index + 1, rng.getrandbits(48)),
            },
        },
    }


def make_shared_node(index, name, instance_type, nodegroup, cpu, memory, gpu_resources, gfd_labels,
                     kubelet_version, created):
    node = make_node(index, name, instance_type, gfd_labels["nvidia.com/gpu.product"], nodegroup,
                     int(gfd_labels["nvidia.com/gpu.memory"]), 0, kubelet_version, created)
    labels = node["metadata"]["labels"]
    labels.update(gfd_labels)
    if "vpc.amazonaws.com/efa" not in gpu_resources:
        del labels["vpc.amazonaws.com/efa.present"]
    for key in ("capacity", "allocatable"):
        resources = node["status"][key]
        for name_ in ("nvidia.com/gpu", "vpc.amazonaws.com/efa"):
            resources.pop(name_, None)
        resources.update(gpu_resources)
        resources["cpu"] = cpu if key == "capacity" else f"{int(cpu) * 1000 - 90}m"
        resources["memory"] = memory
    return node


def make_namespace(name, created):
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": name,
            "uid": new_uid(),
            "creationTimestamp": created,
            "labels": {"kubernetes.io/metadata.name": name},
        },
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    }


def populate(store, kube_version):
    created = now_rfc3339()
    kubelet_version = f"{kube_version}-eks-lab"
    for name in NAMESPACES:
        store.put("namespaces", make_namespace(name, created), record_event=False)
    for index, pool in enumerate(NODE_POOLS):
        store.put("nodes", make_node(index, *pool, kubelet_version, created), record_event=False)


def populate_scale(store, kube_version, node_count, pod_count, workload_count=0):
    """Extra nodes `kube-scale-NNNNN` and running GPU pods in namespace `scale`, built directly
    (no scheduling), to measure kubectl and Strata at cluster scale: bare pods, or with
    workload_count the pods of that many workloads (scale_workloads.py)."""
    import copy
    created = now_rfc3339()
    kubelet_version = f"{kube_version}-eks-lab"
    store.put("namespaces", make_namespace("scale", created), record_event=False)
    names = []
    for i in range(node_count):
        pool = NODE_POOLS[i % len(NODE_POOLS)]
        name = f"kube-scale-{i:05d}"
        names.append(name)
        node = make_node(i % 250, name, *pool[1:], kubelet_version, created)
        store.put("nodes", node, record_event=False)
    if not names:
        return
    used = {}
    pods = []
    for i in range(pod_count):
        node = names[i % len(names)]
        first = used.get(node, 0)
        gpus = 1 if first < 8 else 0
        used[node] = first + gpus
        pod = {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": f"scale-{i:06d}", "namespace": "scale", "uid": new_uid(),
                         "creationTimestamp": created, "labels": {"app": "scale"},
                         "annotations": {"strata.lab/gpu-indices": str(first)} if gpus else {}},
            "spec": {"nodeName": node, "restartPolicy": "Never", "containers": [{
                "name": "main", "image": "busybox:1.36", "command": ["sleep", "infinity"],
                "resources": {"limits": {"nvidia.com/gpu": str(gpus)}, "requests": {"nvidia.com/gpu": str(gpus)}}}]},
            "status": {"phase": "Running", "startTime": created, "hostIP": "127.0.10.1",
                       "podIP": "127.244.0.1", "conditions": [
                           {"type": "Ready", "status": "True", "lastProbeTime": None, "lastTransitionTime": created}],
                       "containerStatuses": [{"name": "main", "image": "busybox:1.36", "ready": True,
                                              "started": True, "restartCount": 0,
                                              "state": {"running": {"startedAt": created}}}]},
        }
        pods.append(copy.deepcopy(pod) if i == 0 else pod)
    if workload_count:
        for resource, owner in scale_workloads.assign(pods, workload_count, created):
            store.put(resource, owner, record_event=False)
    for pod in pods:
        store.put("pods", pod, record_event=False)


def populate_sharing(store, kube_version):
    """The --gpu-sharing nodes (after the four whole-GPU ones)."""
    created = now_rfc3339()
    kubelet_version = f"{kube_version}-eks-lab"
    for offset, spec in enumerate(SHARING_NODES):
        store.put("nodes", make_shared_node(len(NODE_POOLS) + offset, *spec, kubelet_version, created),
                  record_event=False)

