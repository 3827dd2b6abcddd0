"""Create-time defaulting, validation and strict field checking for Jobs and Pods (kube stand-in).

Mirrors what the real API server does on POST: fill defaults (SetDefaults_Job, SetDefaults_PodSpec,
the DefaultTolerationSeconds and ExtendedResourceToleration admission plugins), then validate and
answer 422 Invalid with one cause per field, or 400 for unknown fields under fieldValidation=Strict.
Only the fields the stand-in understands are validated; the rest are stored as sent.
"""

import re

from api_errors import FieldError, bad_request, invalid
from quantities import GPU, parse_quantity
from store import RANDOM, new_uid, now_rfc3339

NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"  # what the API server's generateName draws from
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
SUBDOMAIN_MESSAGE = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                     "characters, '-' or '.', and must start and end with an alphanumeric "
                     "character (e.g. 'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
LABEL_MESSAGE = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                 "or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
                 "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")

ANY = None  # a subtree the stand-in does not check
OBJECT_META = {k: ANY for k in (
    "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
    "annotations", "ownerReferences", "finalizers", "managedFields")}
CONTAINER = {k: ANY for k in (
    "name", "image", "command", "args", "workingDir", "ports", "envFrom", "env", "resources",
    "resizePolicy", "restartPolicy", "volumeMounts", "volumeDevices", "livenessProbe",
    "readinessProbe", "startupProbe", "lifecycle", "terminationMessagePath",
    "terminationMessagePolicy", "imagePullPolicy", "securityContext", "stdin", "stdinOnce", "tty")}
POD_SPEC = {k: ANY for k in (
    "volumes", "ephemeralContainers", "restartPolicy", "terminationGracePeriodSeconds",
    "activeDeadlineSeconds", "dnsPolicy", "nodeSelector", "serviceAccountName", "serviceAccount",
    "automountServiceAccountToken", "nodeName", "hostNetwork", "hostPID", "hostIPC",
    "shareProcessNamespace", "securityContext", "imagePullSecrets", "hostname", "subdomain",
    "affinity", "schedulerName", "tolerations", "hostAliases", "priorityClassName", "priority",
    "dnsConfig", "readinessGates", "runtimeClassName", "enableServiceLinks", "preemptionPolicy",
    "overhead", "topologySpreadConstraints", "setHostnameAsFQDN", "os", "hostUsers",
    "schedulingGates", "resourceClaims", "resources")}
POD_SPEC.update(containers=[CONTAINER], initContainers=[CONTAINER])
POD_TEMPLATE = {"metadata": OBJECT_META, "spec": POD_SPEC}
JOB_SPEC = {k: ANY for k in (
    "parallelism", "completions", "activeDeadlineSeconds", "podFailurePolicy", "successPolicy",
    "backoffLimit", "backoffLimitPerIndex", "maxFailedIndexes", "selector", "manualSelector",
    "ttlSecondsAfterFinished", "completionMode", "suspend", "podReplacementPolicy", "managedBy")}
JOB_SPEC["template"] = POD_TEMPLATE
SERVICE_SPEC = {k: ANY for k in (
    "ports", "selector", "clusterIP", "clusterIPs", "type", "externalIPs", "sessionAffinity",
    "loadBalancerIP", "loadBalancerSourceRanges", "externalName", "externalTrafficPolicy",
    "healthCheckNodePort", "publishNotReadyAddresses", "sessionAffinityConfig", "ipFamilies",
    "ipFamilyPolicy", "allocateLoadBalancerNodePorts", "loadBalancerClass",
    "internalTrafficPolicy", "trafficDistribution")}
SCHEMAS = {
    "Job": {"apiVersion": ANY, "kind": ANY, "metadata": OBJECT_META, "spec": JOB_SPEC, "status": ANY},
    "Pod": {"apiVersion": ANY, "kind": ANY, "metadata": OBJECT_META, "spec": POD_SPEC, "status": ANY},
    "Service": {"apiVersion": ANY, "kind": ANY, "metadata": OBJECT_META, "spec": SERVICE_SPEC,
                "status": ANY},
}


def unknown_fields(obj, schema, path=""):
    found = []
    if schema is ANY:
        return found
    if isinstance(schema, list):
        for i, item in enumerate(obj if isinstance(obj, list) else []):
            found += unknown_fields(item, schema[0], f"{path}[{i}]")
        return found
    if not isinstance(obj, dict):
        return found
    for key, value in obj.items():
        field = f"{path}.{key}" if path else key
        if key not in schema:
            found.append(field)
        else:
            found += unknown_fields(value, schema[key], field)
    return found


def check_fields(kind, obj, mode):
    """Returns warnings for `Warn`, raises 400 for `Strict`, nothing for `Ignore`."""
    unknown = unknown_fields(obj, SCHEMAS[kind])
    if not unknown or mode == "Ignore":
        return []
    texts = [f'unknown field "{f}"' for f in unknown]
    if mode == "Strict":
        raise bad_request(f'{kind} in version "v1" cannot be handled as a {kind}: '
                          f'strict decoding error: {", ".join(texts)}')
    return texts


def random_suffix(length=5):
    return "".join(RANDOM.choice(NAME_ALPHABET) for _ in range(length))


def default_metadata(obj, namespace):
    meta = obj.setdefault("metadata", {})
    if not meta.get("name") and meta.get("generateName"):
        meta["name"] = meta["generateName"] + random_suffix()
    meta["namespace"] = namespace
    meta["uid"] = new_uid()
    meta["creationTimestamp"] = now_rfc3339()
    meta.pop("resourceVersion", None)
    return meta


def default_pod_spec(spec):
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("dnsPolicy", "ClusterFirst")
    spec.setdefault("schedulerName", "default-scheduler")
    spec.setdefault("securityContext", {})
    spec.setdefault("terminationGracePeriodSeconds", 30)
    for container in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        image = container.get("image", "")
        tag = image.rsplit("/", 1)[-1]
        latest = ":" not in tag or tag.endswith(":latest")
        if "@" in image:
            latest = False
        container.setdefault("imagePullPolicy", "Always" if latest else "IfNotPresent")
        resources = container.setdefault("resources", {})
        for kind in ("limits", "requests"):
            if isinstance(resources.get(kind), dict):
                resources[kind] = {k: canonical_quantity(v) for k, v in resources[kind].items()}
        container.setdefault("terminationMessagePath", "/dev/termination-log")
        container.setdefault("terminationMessagePolicy", "File")


def canonical_quantity(value):
    """The API stores quantities as strings: 8 -> "8", 0.5 -> "500m"."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if float(value).is_integer():
        return str(int(value))
    return f"{int(round(value * 1000))}m"


def default_job(job, namespace):
    meta = default_metadata(job, namespace)
    meta["generation"] = 1
    spec = job.setdefault("spec", {})
    if "completions" not in spec and "parallelism" not in spec:
        spec["completions"] = 1
    spec.setdefault("parallelism", 1)
    spec.setdefault("backoffLimit", 6)
    spec.setdefault("completionMode", "NonIndexed")
    spec.setdefault("suspend", False)
    spec.setdefault("podReplacementPolicy", "TerminatingOrFailed")
    uid, name = meta["uid"], meta.get("name", "")
    controller = {"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
                  "controller-uid": uid, "job-name": name}
    if not spec.get("manualSelector"):
        spec["selector"] = {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}}
    template = spec.setdefault("template", {})
    template_meta = template.setdefault("metadata", {})
    template_meta["labels"] = dict(template_meta.get("labels") or {}, **controller)
    if not meta.get("labels"):
        meta["labels"] = dict(template_meta["labels"])
    template.setdefault("spec", {})
    default_pod_spec(template["spec"])
    job["status"] = {}


def default_pod(pod, namespace):
    default_metadata(pod, namespace)
    spec = pod.setdefault("spec", {})
    default_pod_spec(spec)
    for container in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        resources = container["resources"]
        limits = resources.get("limits") or {}
        if limits:  # SetDefaults_Pod: requests default to limits
            resources["requests"] = dict(limits, **(resources.get("requests") or {}))
    add_default_tolerations(spec)
    spec.setdefault("serviceAccountName", "default")
    spec.setdefault("serviceAccount", spec["serviceAccountName"])
    spec.setdefault("enableServiceLinks", True)
    spec.setdefault("preemptionPolicy", "PreemptLowerPriority")
    spec.setdefault("priority", 0)
    pod["status"] = {"phase": "Pending", "qosClass": qos_class(spec)}


def add_default_tolerations(spec):
    tolerations = spec.setdefault("tolerations", [])
    keys = {(t.get("key"), t.get("effect")) for t in tolerations}
    # ExtendedResourceToleration: one toleration per extended resource asked for (a domain-
    # prefixed name outside kubernetes.io: nvidia.com/gpu, nvidia.com/mig-1g.5gb, ...), in name order.
    extended = sorted({name for c in spec.get("containers") or []
                       for kind in ("limits", "requests")
                       for name in ((c.get("resources") or {}).get(kind) or {})
                       if "/" in name and not name.split("/", 1)[0].endswith("kubernetes.io")})
    for name in extended:
        if (name, "NoSchedule") not in keys:
            tolerations.append({"key": name, "operator": "Exists", "effect": "NoSchedule"})
    for key in ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"):
        if (key, "NoExecute") not in keys:  # DefaultTolerationSeconds
            tolerations.append({"key": key, "operator": "Exists", "effect": "NoExecute",
                                "tolerationSeconds": 300})


def qos_class(spec):
    containers = spec.get("containers") or []
    requests = [(c.get("resources") or {}) for c in containers]
    if not any(r.get("requests") or r.get("limits") for r in requests):
        return "BestEffort"
    for r in requests:
        limits = r.get("limits") or {}
        if "cpu" not in limits or "memory" not in limits:
            return "Burstable"
        if any(r.get("requests", {}).get(k, limits[k]) != limits[k] for k in ("cpu", "memory")):
            return "Burstable"
    return "Guaranteed"


def validate_name(meta, errors, max_length=253):
    name = meta.get("name")
    if not name:
        errors.append(FieldError("metadata.name", "Required", "name or generateName is required"))
    elif not DNS_SUBDOMAIN.match(name):
        errors.append(FieldError("metadata.name", "Invalid", SUBDOMAIN_MESSAGE, name))
    elif len(name) > max_length:
        errors.append(FieldError("metadata.name", "Invalid",
                                 f"must be no more than {max_length} characters", name))


def validate_pod_spec(spec, path, errors, restart_policies):
    containers = spec.get("containers") or []
    if not containers:
        errors.append(FieldError(f"{path}.containers", "Required"))
    seen = set()
    for i, container in enumerate(containers):
        cpath = f"{path}.containers[{i}]"
        name = container.get("name")
        if not name:
            errors.append(FieldError(f"{cpath}.name", "Required"))
        elif not DNS_LABEL.match(name):
            errors.append(FieldError(f"{cpath}.name", "Invalid", LABEL_MESSAGE, name))
        elif name in seen:
            errors.append(FieldError(f"{cpath}.name", "Duplicate", value=name))
        seen.add(name)
        if not container.get("image"):
            errors.append(FieldError(f"{cpath}.image", "Required"))
        validate_resources(container.get("resources") or {}, f"{cpath}.resources", errors)
    policy = spec.get("restartPolicy")
    if policy not in restart_policies:
        if restart_policies == ("OnFailure", "Never"):
            errors.append(FieldError(f"{path}.restartPolicy", "Required",
                                     'valid values: "OnFailure", "Never"'))
        else:
            errors.append(FieldError(f"{path}.restartPolicy", "NotSupported", value=policy,
                                     supported=list(restart_policies)))


def validate_resources(resources, path, errors):
    limits, requests = resources.get("limits") or {}, resources.get("requests") or {}
    for kind, values in (("limits", limits), ("requests", requests)):
        for name, value in values.items():
            try:
                amount = parse_quantity(value)
            except ValueError as e:
                errors.append(FieldError(f"{path}.{kind}[{name}]", "Invalid", str(e), value))
                continue
            if amount < 0:
                errors.append(FieldError(f"{path}.{kind}[{name}]", "Invalid",
                                         "must be greater than or equal to 0", value))
            elif name == GPU and not float(amount).is_integer():
                errors.append(FieldError(f"{path}.{kind}[{name}]", "Invalid",
                                         "must be an integer", value))
    if GPU in requests and GPU not in limits:
        errors.append(FieldError(f"{path}.limits", "Required",
                                 "Limit must be set for non overcommitable resources"))
    elif GPU in requests and GPU in limits and str(requests[GPU]) != str(limits[GPU]):
        errors.append(FieldError(f"{path}.requests", "Invalid",
                                 f"must be equal to {GPU} limit of {limits[GPU]}", requests[GPU]))


def validate_job(job):
    errors = []
    meta, spec = job["metadata"], job["spec"]
    validate_name(meta, errors, 63)
    for field in ("parallelism", "completions", "backoffLimit", "activeDeadlineSeconds",
                  "ttlSecondsAfterFinished"):
        value = spec.get(field)
        if value is not None and (not isinstance(value, int) or value < 0):
            errors.append(FieldError(f"spec.{field}", "Invalid",
                                     "must be greater than or equal to 0", value))
    mode = spec.get("completionMode")
    if mode not in ("NonIndexed", "Indexed"):
        errors.append(FieldError("spec.completionMode", "NotSupported", value=mode,
                                 supported=["NonIndexed", "Indexed"]))
    elif mode == "Indexed" and spec.get("completions") is None:
        errors.append(FieldError("spec.completions", "Required",
                                 "when completion mode is Indexed"))
    validate_pod_spec(spec["template"]["spec"], "spec.template.spec", errors, ("OnFailure", "Never"))
    if errors:
        raise invalid("Job", "batch", meta.get("name", ""), errors)


def validate_pod(pod):
    errors = []
    validate_name(pod["metadata"], errors)
    validate_pod_spec(pod["spec"], "spec", errors, ("Always", "OnFailure", "Never"))
    if errors:
        raise invalid("Pod", "", pod["metadata"].get("name", ""), errors)
