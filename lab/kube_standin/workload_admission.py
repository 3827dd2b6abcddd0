"""Admission of the workload kinds: the API server's defaults for apps/v1 (SetDefaults_Deployment,
_ReplicaSet, _StatefulSet) and the checks a CRD's structural schema makes (types of the fields the
stand-in's controllers read), so that bad input is a 422 and never a controller crash.
Pod templates are checked as the pods they become (containers, images, resources).
"""

from admission import default_pod_spec, validate_name, validate_pod_spec
from api_errors import FieldError, invalid
from store import RESOURCES

ALL_POLICIES = ("Always", "OnFailure", "Never")


def templates(resource, spec):
    """(path, pod template) of every pod template in a workload's spec, for validation."""
    found = []

    def at(path, value):
        if isinstance(value, dict):
            found.append((path, value))

    def each(path, items, inner):
        for i, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict):
                inner(f"{path}[{i}]", item)

    if resource in ("deployments", "replicasets", "statefulsets"):
        at("spec.template", spec.get("template"))
    elif resource in ("pytorchjobs", "mpijobs"):
        field = "pytorchReplicaSpecs" if resource == "pytorchjobs" else "mpiReplicaSpecs"
        for role, replica in (spec.get(field) or {}).items():
            if isinstance(replica, dict):
                at(f"spec.{field}[{role}].template", replica.get("template"))
    elif resource == "hyperpodpytorchjobs":
        each("spec.replicaSpecs", spec.get("replicaSpecs"), lambda p, r: at(p + ".template", r.get("template")))
    elif resource == "jobsets":
        each("spec.replicatedJobs", spec.get("replicatedJobs"),
             lambda p, r: at(p + ".template.spec.template", ((r.get("template") or {}).get("spec") or {}).get("template")))
    elif resource in ("rayclusters", "rayjobs"):
        cluster = spec if resource == "rayclusters" else spec.get("rayClusterSpec")
        prefix = "spec" if resource == "rayclusters" else "spec.rayClusterSpec"
        if isinstance(cluster, dict):
            at(f"{prefix}.headGroupSpec.template", (cluster.get("headGroupSpec") or {}).get("template"))
            each(f"{prefix}.workerGroupSpecs", cluster.get("workerGroupSpecs"),
                 lambda p, r: at(p + ".template", r.get("template")))
    elif resource == "leaderworkersets":
        lwt = spec.get("leaderWorkerTemplate") or {}
        at("spec.leaderWorkerTemplate.workerTemplate", lwt.get("workerTemplate"))
        if lwt.get("leaderTemplate") is not None:
            at("spec.leaderWorkerTemplate.leaderTemplate", lwt.get("leaderTemplate"))
    return found


def check_types(resource, spec, errors):
    """The CRD schemas' types for the fields the controllers read."""
    def integer(path, value, minimum=0):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < minimum):
            errors.append(FieldError(path, "Invalid", f"must be an integer >= {minimum}", value))

    def listing(path, value, required=True):
        if value is None and not required:
            return []
        if not isinstance(value, list) or (required and not value):
            errors.append(FieldError(path, "Required" if not value else "Invalid", "must be a non-empty list"))
            return []
        return value

    integer("spec.replicas", spec.get("replicas"))
    if resource in ("pytorchjobs", "mpijobs"):
        field = "pytorchReplicaSpecs" if resource == "pytorchjobs" else "mpiReplicaSpecs"
        roles = spec.get(field)
        allowed = ("Master", "Worker") if resource == "pytorchjobs" else ("Launcher", "Worker")
        if not isinstance(roles, dict) or not roles:
            errors.append(FieldError(f"spec.{field}", "Required"))
        else:
            for role, replica in roles.items():
                if role not in allowed:
                    errors.append(FieldError(f"spec.{field}", "NotSupported", value=role, supported=list(allowed)))
                elif not isinstance(replica, dict):
                    errors.append(FieldError(f"spec.{field}[{role}]", "Invalid", "must be an object"))
                else:
                    integer(f"spec.{field}[{role}].replicas", replica.get("replicas"))
    elif resource == "hyperpodpytorchjobs":
        for i, r in enumerate(listing("spec.replicaSpecs", spec.get("replicaSpecs"))):
            if not isinstance(r, dict) or not isinstance(r.get("name"), str):
                errors.append(FieldError(f"spec.replicaSpecs[{i}].name", "Required"))
            else:
                integer(f"spec.replicaSpecs[{i}].replicas", r.get("replicas"))
    elif resource == "jobsets":
        for i, r in enumerate(listing("spec.replicatedJobs", spec.get("replicatedJobs"))):
            if not isinstance(r, dict) or not isinstance(r.get("name"), str) or not r.get("name"):
                errors.append(FieldError(f"spec.replicatedJobs[{i}].name", "Required"))
            else:
                integer(f"spec.replicatedJobs[{i}].replicas", r.get("replicas"))
    elif resource in ("rayclusters", "rayjobs"):
        cluster = spec if resource == "rayclusters" else spec.get("rayClusterSpec")
        if resource == "rayjobs" and cluster is None and not spec.get("clusterSelector"):
            errors.append(FieldError("spec.rayClusterSpec", "Required", "one of rayClusterSpec or clusterSelector"))
        if isinstance(cluster, dict):
            if not isinstance(cluster.get("headGroupSpec"), dict):
                errors.append(FieldError("spec.headGroupSpec", "Required"))
            for i, g in enumerate(listing("spec.workerGroupSpecs", cluster.get("workerGroupSpecs"), False)):
                if not isinstance(g, dict) or not g.get("groupName"):
                    errors.append(FieldError(f"spec.workerGroupSpecs[{i}].groupName", "Required"))
                else:
                    integer(f"spec.workerGroupSpecs[{i}].replicas", g.get("replicas"))
    elif resource == "leaderworkersets":
        lwt = spec.get("leaderWorkerTemplate")
        if not isinstance(lwt, dict) or not isinstance(lwt.get("workerTemplate"), dict):
            errors.append(FieldError("spec.leaderWorkerTemplate.workerTemplate", "Required"))
        else:
            integer("spec.leaderWorkerTemplate.size", lwt.get("size"), 1)
    elif resource == "trainjobs":
        if not isinstance(spec.get("runtimeRef"), dict) or not spec["runtimeRef"].get("name"):
            errors.append(FieldError("spec.runtimeRef.name", "Required"))
        integer("spec.trainer.numNodes", (spec.get("trainer") or {}).get("numNodes"), 1)


def default_apps(resource, spec):
    spec.setdefault("replicas", 1)
    spec.setdefault("revisionHistoryLimit", 10)
    if resource == "deployments":
        spec.setdefault("strategy", {"type": "RollingUpdate",
                                     "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
        spec.setdefault("progressDeadlineSeconds", 600)
    elif resource == "statefulsets":
        spec.setdefault("podManagementPolicy", "OrderedReady")
        spec.setdefault("updateStrategy", {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}})
        spec.setdefault("persistentVolumeClaimRetentionPolicy", {"whenDeleted": "Retain", "whenScaled": "Retain"})
    template = spec.get("template")
    if isinstance(template, dict):
        default_pod_spec(template.setdefault("spec", {}))


def validate_selector(spec, errors):
    selector = (spec.get("selector") or {}).get("matchLabels") if isinstance(spec.get("selector"), dict) else None
    if not spec.get("selector"):
        errors.append(FieldError("spec.selector", "Required"))
        return
    labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
    if selector and any(labels.get(k) != v for k, v in selector.items()):
        errors.append(FieldError("spec.template.metadata.labels", "Invalid",
                                 "`selector` does not match template `labels`",
                                 "map[" + " ".join(f"{k}:{v}" for k, v in sorted(labels.items())) + "]"))


def admit(resource, obj):
    """Defaults and validates a new workload object (metadata already defaulted); raises 422."""
    group, _, kind, _ = RESOURCES[resource]
    meta = obj["metadata"]
    errors = []
    validate_name(meta, errors, 63 if resource in ("statefulsets", "leaderworkersets", "jobsets") else 253)
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        errors.append(FieldError("spec", "Required"))
        raise invalid(kind, group, meta.get("name", ""), errors)
    meta["generation"] = 1
    if resource in ("deployments", "replicasets", "statefulsets"):
        default_apps(resource, spec)
    validate_spec(resource, spec, errors)
    if errors:
        raise invalid(kind, group, meta.get("name", ""), errors)
    obj.setdefault("status", {})


def validate_update(resource, obj):
    """An update (PUT/PATCH) is checked as a create is, as the API server checks a CRD's
    schema and apps/v1's validation on every write: no later tick meets a spec it cannot read."""
    group, _, kind, _ = RESOURCES[resource]
    spec = obj.get("spec")
    errors = []
    if not isinstance(spec, dict):
        errors.append(FieldError("spec", "Required"))
    else:
        validate_spec(resource, spec, errors)
    if errors:
        raise invalid(kind, group, obj["metadata"].get("name", ""), errors)


def validate_spec(resource, spec, errors):
    if resource in ("deployments", "replicasets", "statefulsets"):
        validate_selector(spec, errors)
    check_types(resource, spec, errors)
    for path, template in templates(resource, spec):
        pod_spec = template.get("spec")
        if not isinstance(pod_spec, dict):
            errors.append(FieldError(f"{path}.spec", "Required"))
            continue
        policies = ("Always",) if resource in ("deployments", "replicasets", "statefulsets") else ALL_POLICIES
        validate_pod_spec(dict(pod_spec, restartPolicy=pod_spec.get("restartPolicy", policies[0])),
                          f"{path}.spec", errors, policies)


DEFAULTERS = set(RESOURCES) & {"deployments", "replicasets", "statefulsets", "pytorchjobs", "mpijobs",
                                "trainjobs", "jobsets", "rayjobs", "rayclusters", "leaderworkersets",
                                "hyperpodpytorchjobs"}


def replicas_path(resource):
    """Where the scale subresource reads and writes replicas (the CRDs' specReplicasPath)."""
    if resource == "pytorchjobs":
        return ["spec", "pytorchReplicaSpecs", "Worker", "replicas"]
    return ["spec", "replicas"]


def scale_of(resource, obj):
    value = obj
    for key in replicas_path(resource):
        value = value.get(key) if isinstance(value, dict) else None
    meta = obj["metadata"]
    selector = ",".join(f"{k}={v}" for k, v in sorted(((obj["spec"].get("selector") or {}).get("matchLabels") or {}).items()))
    return {"kind": "Scale", "apiVersion": "autoscaling/v1",
            "metadata": {k: meta[k] for k in ("name", "namespace", "uid", "resourceVersion", "creationTimestamp") if k in meta},
            "spec": {"replicas": value or 0},
            "status": {"replicas": obj.get("status", {}).get("replicas", 0), "selector": selector}}


def set_replicas(resource, obj, replicas):
    target = obj
    path = replicas_path(resource)
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = replicas
