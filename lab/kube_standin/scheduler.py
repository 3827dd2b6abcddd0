"""Pod placement for the kube stand-in, following kube-scheduler's default filter plugins.

Filters, in kube-scheduler's order: NodeUnschedulable, NodeName, TaintToleration,
NodeAffinity (nodeSelector + required node affinity), InterPodAffinity (required pod
anti-affinity only), NodeResourcesFit (cpu, memory, pods, nvidia.com/gpu and any other
extended resource). Among the nodes that pass, the least allocated one wins (the default
scoring), ties broken by name. GPUs on the chosen node are the lowest free indices, the way
the NVIDIA device plugin hands out devices; they are recorded in the pod annotation
`strata.lab/gpu-indices` (a stand-in convention; the real plugin keeps them in the kubelet).
"""

from quantities import GPU, parse_quantity, pod_requests

GPU_INDICES_ANNOTATION = "strata.lab/gpu-indices"
TERMINAL = ("Succeeded", "Failed")


def is_active_on_node(pod):
    """Holds resources on its node: bound, accepted by the kubelet (startTime), not finished."""
    status = pod.get("status", {})
    return bool(pod["spec"].get("nodeName")) and bool(status.get("startTime")) and \
        status.get("phase") not in TERMINAL


def gpu_indices(pod):
    text = (pod["metadata"].get("annotations") or {}).get(GPU_INDICES_ANNOTATION, "")
    return [int(x) for x in text.split(",") if x.strip().isdigit()]


class NodeUsage:
    def __init__(self, node):
        self.node = node
        self.requested = {"pods": 0.0}
        self.gpus_used = set()
        self.pods = []

    def add(self, pod, requests, indices):
        for name, value in requests.items():
            self.requested[name] = self.requested.get(name, 0) + value
        self.requested["pods"] += 1
        self.gpus_used.update(indices)
        self.pods.append(pod)

    def allocatable(self, name):
        value = (self.node.get("status", {}).get("allocatable") or {}).get(name)
        return parse_quantity(value) if value is not None else 0.0

    def gpu_count(self):
        return int(self.allocatable(GPU))

    def shares_gpus(self):
        """Time-sliced, MPS or MIG "single": nvidia.com/gpu units are shares or MIG devices, not
        GPU indices (GPU feature discovery's labels say so)."""
        labels = self.node["metadata"].get("labels") or {}
        replicas = labels.get("nvidia.com/gpu.replicas", "1")
        return (replicas.isdigit() and int(replicas) > 1) or labels.get("nvidia.com/mig.strategy") == "single"

    def free_gpu_indices(self, count):
        if self.shares_gpus():
            # Resource fit is NodeResourcesFit's; no index is recorded for a share.
            return [] if self.requested.get(GPU, 0) + count <= self.gpu_count() + 1e-9 else None
        free = [i for i in range(self.gpu_count()) if i not in self.gpus_used]
        return free[:count] if len(free) >= count else None

    def score(self):
        """Fraction allocated of cpu, memory and GPUs: lower is better (LeastAllocated)."""
        parts = []
        for name in ("cpu", "memory", GPU):
            total = self.allocatable(name)
            if total > 0:
                parts.append(self.requested.get(name, 0) / total)
        return sum(parts) / len(parts) if parts else 0.0


def usage_by_node(store):
    usage = {n["metadata"]["name"]: NodeUsage(n) for n in store.items("nodes")}
    for pod in store.items("pods"):
        if is_active_on_node(pod) and pod["spec"]["nodeName"] in usage:
            usage[pod["spec"]["nodeName"]].add(pod, pod_requests(pod), gpu_indices(pod))
    return usage


def toleration_matches(toleration, taint):
    effect = toleration.get("effect", "")
    if effect and effect != taint.get("effect"):
        return False
    if toleration.get("operator", "Equal") == "Exists":
        return not toleration.get("key") or toleration.get("key") == taint.get("key")
    return toleration.get("key") == taint.get("key") and \
        (toleration.get("value") or "") == (taint.get("value") or "")


def untolerated_taint(node, pod):
    tolerations = pod["spec"].get("tolerations") or []
    for taint in node["spec"].get("taints") or []:
        if taint.get("effect") not in ("NoSchedule", "NoExecute"):
            continue
        if not any(toleration_matches(t, taint) for t in tolerations):
            return taint
    return None


def expression_matches(labels, expression):
    key, op, values = expression.get("key"), expression.get("operator"), expression.get("values") or []
    value = labels.get(key)
    if op == "In":
        return value in values
    if op == "NotIn":
        return value not in values
    if op == "Exists":
        return key in labels
    if op == "DoesNotExist":
        return key not in labels
    if op in ("Gt", "Lt") and value is not None and values:
        try:
            return int(value) > int(values[0]) if op == "Gt" else int(value) < int(values[0])
        except ValueError:
            return False
    return False


def node_affinity_matches(node, pod):
    labels = node["metadata"].get("labels") or {}
    selector = pod["spec"].get("nodeSelector") or {}
    if any(labels.get(k) != v for k, v in selector.items()):
        return False
    required = (((pod["spec"].get("affinity") or {}).get("nodeAffinity") or {})
                .get("requiredDuringSchedulingIgnoredDuringExecution") or {})
    terms = required.get("nodeSelectorTerms")
    if not terms:
        return True
    fields = {"metadata.name": node["metadata"]["name"]}
    for term in terms:
        expressions = term.get("matchExpressions") or []
        field_expressions = term.get("matchFields") or []
        if not expressions and not field_expressions:
            continue
        if all(expression_matches(labels, e) for e in expressions) and \
                all(expression_matches(fields, e) for e in field_expressions):
            return True
    return False


def label_selector_matches(selector, labels):
    if selector is None:
        return False
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    return all(expression_matches(labels, e) for e in selector.get("matchExpressions") or [])


def anti_affinity_violated(node_name, pod, usage):
    terms = (((pod["spec"].get("affinity") or {}).get("podAntiAffinity") or {})
             .get("requiredDuringSchedulingIgnoredDuringExecution") or [])
    for term in terms:
        key = term.get("topologyKey")
        namespaces = term.get("namespaces") or [pod["metadata"]["namespace"]]
        target = usage[node_name].node["metadata"].get("labels", {}).get(key)
        if target is None:
            continue
        for other in usage.values():
            if other.node["metadata"].get("labels", {}).get(key) != target:
                continue
            for existing in other.pods:
                if existing["metadata"].get("namespace") in namespaces and label_selector_matches(
                        term.get("labelSelector"), existing["metadata"].get("labels") or {}):
                    return True
    return False


def filter_node(usage, node_usage, pod, requests):
    """None when the pod fits on the node, else kube-scheduler's reason for that node."""
    node = node_usage.node
    name = node["metadata"]["name"]
    if node["spec"].get("unschedulable") and not any(
            toleration_matches(t, {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"})
            for t in pod["spec"].get("tolerations") or []):
        return "node(s) were unschedulable"
    wanted = pod["spec"].get("nodeName")
    if wanted and wanted != name:
        return "node(s) didn't match the requested node name"
    taint = untolerated_taint(node, pod)
    if taint is not None:
        return f"node(s) had untolerated taint {{{taint.get('key')}: {taint.get('value', '')}}}"
    if not node_affinity_matches(node, pod):
        return "node(s) didn't match Pod's node affinity/selector"
    if anti_affinity_violated(name, pod, usage):
        return "node(s) didn't match pod anti-affinity rules"
    for resource, amount in sorted(dict(requests, pods=1).items()):
        if amount <= 0:
            continue
        if node_usage.requested.get(resource, 0) + amount > node_usage.allocatable(resource) + 1e-9:
            return "Too many pods" if resource == "pods" else f"Insufficient {resource}"
    return None


def place(usage, pod):
    """Returns (node name, GPU indices) or (None, FailedScheduling message)."""
    requests = pod_requests(pod)
    gpus = int(requests.get(GPU, 0))
    reasons = {}
    fitting = []
    for name in sorted(usage):
        reason = filter_node(usage, usage[name], pod, requests)
        if reason is None and gpus and usage[name].free_gpu_indices(gpus) is None:
            reason = f"Insufficient {GPU}"
        if reason is None:
            fitting.append(name)
        else:
            reasons[reason] = reasons.get(reason, 0) + 1
    if fitting:
        best = min(fitting, key=lambda n: (usage[n].score(), n))
        indices = usage[best].free_gpu_indices(gpus) if gpus else []
        usage[best].add(pod, requests, indices)
        return best, indices
    total = len(usage)
    summary = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items()))
    return None, (f"0/{total} nodes are available: {summary}. preemption: 0/{total} nodes are "
                  f"available: {total} Preemption is not helpful for scheduling.")


def admit_on_node(usage, pod):
    """Kubelet admission for pods created with spec.nodeName (they skip the scheduler).
    Returns (indices, None) or (None, (reason, message))."""
    name = pod["spec"]["nodeName"]
    if name not in usage:
        return None, ("NodeNotFound", f"node {name} not found")
    requests = pod_requests(pod)
    node_usage = usage[name]
    for resource, amount in sorted(requests.items()):
        if amount <= 0:
            continue
        used, capacity = node_usage.requested.get(resource, 0), node_usage.allocatable(resource)
        if used + amount > capacity + 1e-9:
            return None, (f"OutOf{resource}",
                          f"Pod was rejected: Node didn't have enough resource: {resource}, "
                          f"requested: {fmt(amount)}, used: {fmt(used)}, capacity: {fmt(capacity)}")
    gpus = int(requests.get(GPU, 0))
    indices = node_usage.free_gpu_indices(gpus) if gpus else []
    node_usage.add(pod, requests, indices)
    return indices, None


def fmt(value):
    return str(int(value)) if float(value).is_integer() else str(value)
