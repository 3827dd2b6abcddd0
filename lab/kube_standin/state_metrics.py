"""A STAND-IN for kube-state-metrics (KSM v2.13), NOT kube-state-metrics: the kube stand-in's
objects rendered as KSM renders them, for the lab's Kubernetes Prometheus to scrape.

Only the families Strata reads of finished workloads (and their neighbours that say the same
thing): pods (info, created, start and completion time, phase, container resource requests,
owner), Jobs (info, owner, start/completion time, succeeded/failed) and ReplicaSets (owner).
Faithful to KSM's internal/store/{pod,job,replicaset}.go and docs/metrics/workload/*.md:
  - label names and order as KSM writes them: namespace, pod, uid first for pods (wrapPodFunc),
    namespace, job_name for Jobs, namespace, replicaset for ReplicaSets; then the family's own;
  - HELP text as KSM's, prefixed "[STABLE] " for families KSM marks stable (generateHeader);
  - values as KSM computes them: kube_pod_start_time from status.startTime,
    kube_pod_completion_time the latest containerStatuses[].state.terminated.finishedAt of the
    containers that have terminated (KSM does not wait for all of them: a pod whose sidecar
    ended shows one while it runs; its phase says more), kube_pod_status_phase one series per
    phase 0/1 (none while the phase is empty), resource requests with the resource name
    sanitised (nvidia.com/gpu -> nvidia_com_gpu) and unit core/byte/integer, on the pod's node;
  - numbers as Go's strconv.FormatFloat(v, 'g', -1, 64) writes them (1.7e+09, not 1700000000.0);
  - label values escaped as the text format wants (backslash, double quote, newline).
Families are written with their HELP/TYPE lines even when empty, as KSM writes every header.
A family's series come object by object in the store's (namespace, name) order (KSM's is its
informer's, which is no order at all), each object's in KSM's own order.
"""

import decimal
import math
import re

from quantities import container_requests
from store import parse_rfc3339

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
POD_PHASES = ("Pending", "Succeeded", "Failed", "Unknown", "Running")
JOB_FAILURE_REASONS = ("BackoffLimitExceeded", "DeadlineExceeded", "Evicted")

# (name, help, stable) in KSM's generator order.
POD_FAMILIES = (
    ("kube_pod_completion_time", "Completion time in unix timestamp for a pod.", True),
    ("kube_pod_container_resource_requests", "The number of requested request resource by a container. It is "
     "recommended to use the `kube_pod_resource_request` metric exposed by kube-scheduler instead, as it is "
     "more precise.", True),
    ("kube_pod_created", "Unix creation timestamp", True),
    ("kube_pod_info", "Information about pod.", True),
    ("kube_pod_owner", "Information about the Pod's owner.", True),
    ("kube_pod_start_time", "Start time in unix timestamp for a pod.", True),
    ("kube_pod_status_phase", "The pods current phase.", True),
)
JOB_FAMILIES = (
    ("kube_job_info", "Information about job.", True),
    ("kube_job_created", "Unix creation timestamp", True),
    ("kube_job_status_succeeded", "The number of pods which reached Phase Succeeded.", True),
    ("kube_job_status_failed", "The number of pods which reached Phase Failed and the reason for failure.", True),
    ("kube_job_status_active", "The number of actively running pods.", True),
    ("kube_job_status_start_time", "StartTime represents time when the job was acknowledged by the Job Manager.",
     True),
    ("kube_job_status_completion_time", "CompletionTime represents time when the job was completed.", True),
    ("kube_job_owner", "Information about the Job's owner.", True),
)
REPLICASET_FAMILIES = (
    ("kube_replicaset_created", "Unix creation timestamp", True),
    ("kube_replicaset_owner", "Information about the ReplicaSet's owner.", True),
)

INVALID_LABEL_CHARACTERS = re.compile(r"[^a-zA-Z0-9_]")


def go_float(value):
    """strconv.FormatFloat(value, 'g', -1, 64): shortest digits, %e from exponent 6 on or below -4."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "0"
    sign, digits, exponent = decimal.Decimal(repr(value)).as_tuple()
    digits = list(digits)
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
        exponent += 1
    text = "".join(map(str, digits))
    point = len(digits) + exponent  # digits before the decimal point
    exp = point - 1
    prefix = "-" if sign else ""
    if exp < -4 or exp >= 6:
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        return f"{prefix}{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if point <= 0:
        return f"{prefix}0.{'0' * -point}{text}"
    if point >= len(text):
        return prefix + text + "0" * (point - len(text))
    return f"{prefix}{text[:point]}.{text[point:]}"


def escape(value):
    return str(value).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")


def sanitize_label_name(name):
    """KSM's sanitizeLabelName: every character but [a-zA-Z0-9_] becomes '_'."""
    return INVALID_LABEL_CHARACTERS.sub("_", name)


def unix(text):
    seconds = parse_rfc3339(text)
    return None if seconds is None else float(seconds)


def resource_unit(name):
    """KSM's unit for a requested resource, or None where KSM writes no series for it."""
    if name == "cpu":
        return "core"
    if name in ("memory", "storage", "ephemeral-storage") or name.startswith("hugepages-") \
            or name.startswith("attachable-volumes-"):
        return "byte"
    # isExtendedResourceName: not in the kubernetes.io namespace, has a domain, not "requests.".
    if "/" in name and not name.split("/", 1)[0].endswith("kubernetes.io") and not name.startswith("requests."):
        return "integer"
    return None


def resource_value(name, value):
    """cpu as MilliValue()/1000, everything else as Value() (rounded up to an integer)."""
    if name == "cpu":
        return math.ceil(value * 1000 - 1e-9) / 1000
    return float(math.ceil(value - 1e-9))


def owner_series(meta, none):
    """kube_*_owner: one series per owner reference; `none` the label values when there is none."""
    owners = meta.get("ownerReferences") or []
    if not owners:
        return [(none, none, none)]
    return [(o.get("kind", ""), o.get("name", ""), "true" if o.get("controller") else "false") for o in owners]


def completion_time(status):
    finished = [unix(((cs.get("state") or {}).get("terminated") or {}).get("finishedAt"))
                for cs in status.get("containerStatuses") or []
                if (cs.get("state") or {}).get("terminated")]
    finished = [f for f in finished if f]
    return max(finished) if finished else None


def pod_series(pod):
    """[(family, [(label, value)...], value)] for one pod, KSM's labels after namespace/pod/uid."""
    meta, spec, status = pod["metadata"], pod.get("spec") or {}, pod.get("status") or {}
    node = spec.get("nodeName", "")
    out = []
    done = completion_time(status)
    if done:
        out.append(("kube_pod_completion_time", [], done))
    for container in spec.get("containers") or []:
        try:
            requests = container_requests(container)
        except Exception:  # an unparsable quantity: the API server would have refused it
            continue
        for name in sorted(requests):
            unit = resource_unit(name)
            if unit:
                out.append(("kube_pod_container_resource_requests",
                            [("container", container.get("name", "")), ("node", node),
                             ("resource", sanitize_label_name(name)), ("unit", unit)],
                            resource_value(name, requests[name])))
    created = unix(meta.get("creationTimestamp"))
    if created:
        out.append(("kube_pod_created", [], created))
    controller = next((o for o in meta.get("ownerReferences") or [] if o.get("controller")), None)
    out.append(("kube_pod_info", [("host_ip", status.get("hostIP", "")), ("pod_ip", status.get("podIP", "")),
                                  ("node", node),
                                  ("created_by_kind", (controller or {}).get("kind") or "<none>"),
                                  ("created_by_name", (controller or {}).get("name") or "<none>"),
                                  ("priority_class", spec.get("priorityClassName", "")),
                                  ("host_network", "true" if spec.get("hostNetwork") else "false")], 1))
    for kind, name, is_controller in owner_series(meta, "<none>"):
        out.append(("kube_pod_owner", [("owner_kind", kind), ("owner_name", name),
                                       ("owner_is_controller", is_controller)], 1))
    started = unix(status.get("startTime"))
    if started:
        out.append(("kube_pod_start_time", [], started))
    phase = status.get("phase") or ""
    if phase:
        for p in POD_PHASES:
            out.append(("kube_pod_status_phase", [("phase", p)], 1 if phase == p else 0))
    prefix = [("namespace", meta.get("namespace", "")), ("pod", meta.get("name", "")), ("uid", meta.get("uid", ""))]
    return [(family, prefix + labels, value) for family, labels, value in out]


def job_series(job):
    meta, status = job["metadata"], job.get("status") or {}
    out = [("kube_job_info", [], 1)]
    created = unix(meta.get("creationTimestamp"))
    if created:
        out.append(("kube_job_created", [], created))
    out.append(("kube_job_status_succeeded", [], status.get("succeeded", 0)))
    failed = status.get("failed", 0)
    if not failed:
        out.append(("kube_job_status_failed", [], 0))
    else:
        known = False
        for condition in status.get("conditions") or []:
            if condition.get("type") == "Failed":
                for reason in JOB_FAILURE_REASONS:
                    known = known or condition.get("reason") == reason
                    out.append(("kube_job_status_failed", [("reason", reason)],
                                1 if condition.get("reason") == reason else 0))
        if not known:
            out.append(("kube_job_status_failed", [("reason", "")], failed))
    out.append(("kube_job_status_active", [], status.get("active", 0)))
    started = unix(status.get("startTime"))
    if started:
        out.append(("kube_job_status_start_time", [], started))
    completed = unix(status.get("completionTime"))
    if completed:
        out.append(("kube_job_status_completion_time", [], completed))
    for kind, name, is_controller in owner_series(meta, ""):
        out.append(("kube_job_owner", [("owner_kind", kind), ("owner_name", name),
                                       ("owner_is_controller", is_controller)], 1))
    prefix = [("namespace", meta.get("namespace", "")), ("job_name", meta.get("name", ""))]
    return [(family, prefix + labels, value) for family, labels, value in out]


def replicaset_series(rs):
    meta = rs["metadata"]
    out = []
    created = unix(meta.get("creationTimestamp"))
    if created:
        out.append(("kube_replicaset_created", [], created))
    for kind, name, is_controller in owner_series(meta, "<none>"):
        out.append(("kube_replicaset_owner", [("owner_kind", kind), ("owner_name", name),
                                              ("owner_is_controller", is_controller)], 1))
    prefix = [("namespace", meta.get("namespace", "")), ("replicaset", meta.get("name", ""))]
    return [(family, prefix + labels, value) for family, labels, value in out]


def render(store):
    """The whole exposition, as bytes. Copies what it needs under the store lock, formats after."""
    with store.lock:
        series = []
        for pod in store.items("pods"):
            series += pod_series(pod)
        for job in store.items("jobs"):
            series += job_series(job)
        for rs in store.items("replicasets"):
            series += replicaset_series(rs)
    by_family = {}
    for family, labels, value in series:
        by_family.setdefault(family, []).append((labels, value))
    lines = []
    for name, help_text, stable in POD_FAMILIES + JOB_FAMILIES + REPLICASET_FAMILIES:
        lines.append(f"# HELP {name} {'[STABLE] ' if stable else ''}{help_text}")
        lines.append(f"# TYPE {name} gauge")
        for labels, value in by_family.get(name, []):
            text = ",".join(f'{key}="{escape(v)}"' for key, v in labels)
            lines.append(f"{name}{{{text}}} {go_float(value)}")
    return ("\n".join(lines) + "\n").encode()
