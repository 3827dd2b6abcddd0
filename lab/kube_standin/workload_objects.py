"""What the workload controllers share: an index of owned objects by owner uid (built once per
controller tick), making a pod or child object from a template with a controller ownerReference,
conditions in the operators' shape, and storing an object only when it changed.
"""

import copy
import hashlib
import json

from admission import NAME_ALPHABET, default_metadata, default_pod, random_suffix
from garbage_collector import controller_reference
from store import RESOURCES, api_version, now_rfc3339

TERMINAL = ("Succeeded", "Failed")


class OwnerIndex:
    """owner uid -> {resource: [objects]} over the kinds a controller can own; one per tick."""

    KINDS = ("pods", "jobs", "services", "replicasets", "statefulsets", "jobsets", "rayclusters")

    def __init__(self, store):
        self.children_of = {}
        for resource in self.KINDS:
            for obj in store.items(resource):
                for ref in obj["metadata"].get("ownerReferences") or []:
                    if ref.get("controller"):
                        self.children_of.setdefault(ref.get("uid"), {}).setdefault(resource, []).append(obj)

    def children(self, owner, resource):
        return list(self.children_of.get(owner["metadata"]["uid"], {}).get(resource, []))


def phase(pod):
    return pod.get("status", {}).get("phase")


def is_ready(pod):
    return any(c.get("type") == "Ready" and c.get("status") == "True"
               for c in pod.get("status", {}).get("conditions") or [])


def restarts(pods):
    return sum(cs.get("restartCount", 0) for p in pods for cs in p.get("status", {}).get("containerStatuses") or [])


def template_hash(template, collision=0):
    """A stable short hash of a pod template, in the alphabet of the pod-template-hash label
    (the real one is fnv32a of the template, SafeEncodeString'd)."""
    text = json.dumps(template, sort_keys=True, separators=(",", ":")) + str(collision)
    value = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    out = []
    for _ in range(10):
        value, rest = divmod(value, len(NAME_ALPHABET))
        out.append(NAME_ALPHABET[rest])
    return "".join(out)


class TemplateHashes:
    """template_hash per (uid, generation): a template changes only with the generation, and
    hashing 2,000 templates every tick would cost more than the reconciling. Owned by one
    controller; forgets the objects not seen in a tick."""

    def __init__(self):
        self.hashes, self.seen = {}, set()

    def of(self, obj, template, collision=0):
        key = (obj["metadata"]["uid"], obj["metadata"].get("generation", 1), collision)
        self.seen.add(key)
        if key not in self.hashes:
            self.hashes[key] = template_hash(template, collision)
        return self.hashes[key]

    def end_tick(self):
        self.hashes = {k: v for k, v in self.hashes.items() if k in self.seen}
        self.seen = set()


def add_env(spec, env):
    """Appends env entries to every container, keeping one a user set himself."""
    for container in spec.get("containers") or []:
        current = container.setdefault("env", [])
        names = {e.get("name") for e in current}
        current.extend(e for e in env if e["name"] not in names)


def make_pod(store, owner, template, name=None, generate_name=None, labels=None, annotations=None,
             env=None, hostname=None, subdomain=None, restart_policy=None, owner_ref=None, webhooks=()):
    """Creates a pod from a pod template, owned (controller) by owner, and stores it; webhooks
    mutate it first, as mutating admission webhooks do (LWS's pod webhook)."""
    template = copy.deepcopy(template or {})
    template_meta = template.get("metadata") or {}
    meta = {"labels": dict(template_meta.get("labels") or {}, **(labels or {})),
            "ownerReferences": [owner_ref or controller_reference(owner)]}
    merged_annotations = dict(template_meta.get("annotations") or {}, **(annotations or {}))
    if merged_annotations:
        meta["annotations"] = merged_annotations
    if name:
        meta["name"] = name
    else:
        meta["generateName"] = generate_name
        meta["name"] = generate_name + random_suffix()
    spec = template.get("spec") or {}
    if restart_policy:
        spec["restartPolicy"] = restart_policy
    if hostname:
        spec.setdefault("hostname", hostname)
    if subdomain:
        spec.setdefault("subdomain", subdomain)
    if env:
        add_env(spec, env)
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    meta["namespace"] = owner["metadata"]["namespace"]
    for webhook in webhooks:
        webhook(pod)
    default_pod(pod, owner["metadata"]["namespace"])
    return store.put("pods", pod)


def make_child(store, owner, resource, name, spec, labels=None, annotations=None, owner_ref=None):
    """Creates a child object (a ReplicaSet, Job, StatefulSet, JobSet...) owned by owner."""
    _, _, kind, _ = RESOURCES[resource]
    obj = {"apiVersion": api_version(resource), "kind": kind,
           "metadata": {"name": name, "labels": dict(labels or {}),
                        "ownerReferences": [owner_ref or controller_reference(owner)]},
           "spec": spec}
    if annotations:
        obj["metadata"]["annotations"] = dict(annotations)
    default_metadata(obj, owner["metadata"]["namespace"])
    obj["metadata"]["generation"] = 1
    obj["status"] = {}
    return obj


def operator_condition(type_, status, reason, message, stamp):
    """The conditions of the Kubeflow/KubeRay/JobSet operators (metav1.Condition-like)."""
    return {"type": type_, "status": status, "reason": reason, "message": message,
            "lastUpdateTime": stamp, "lastTransitionTime": stamp}


def set_operator_condition(status, new):
    conditions = status.setdefault("conditions", [])
    for i, old in enumerate(conditions):
        if old.get("type") == new["type"]:
            if old.get("status") == new["status"]:
                new["lastTransitionTime"] = old.get("lastTransitionTime", new["lastTransitionTime"])
                if old.get("reason") == new.get("reason") and old.get("message") == new.get("message"):
                    return
            conditions[i] = new
            return
    conditions.append(new)


def condition_true(obj, type_):
    return any(c.get("type") == type_ and c.get("status") == "True"
               for c in obj.get("status", {}).get("conditions") or [])


def status_before(obj):
    """What store_if_changed compares with: a copy of the status only (the controllers write no
    other field of the object they reconcile), cheap at 2,000 workloads a tick."""
    return copy.deepcopy(obj.get("status"))


def store_if_changed(store, resource, obj, before):
    """Stores obj when its status changed since status_before(obj) was taken."""
    meta = obj["metadata"]
    if store.get(resource, meta.get("namespace"), meta["name"]) is not obj:
        return
    if obj.get("status") != before:
        store.put(resource, obj)


def record(events, obj, type_, reason, message, component):
    """An Event about obj as the controller `component` records it (events: the loop's
    EventRecorder; None where a controller runs without one, as in the scale measurements)."""
    if events is not None:
        events.record(obj, type_, reason, message, component)


def stamp_of(now):
    return now_rfc3339(now)
