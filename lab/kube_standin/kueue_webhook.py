"""Kueue's admission webhooks in the kube stand-in, called by api.create: a queued job is created
suspended, Kueue's objects get their CRDs' defaults, and the fields its controllers read are
checked as the CRDs' schemas check them (a 422, never a controller crash later).
"""

from api_errors import FieldError, invalid
from kueue_flavors import format_quantity
from kueue_jobs import INTEGRATIONS
from kueue_resources import (CLUSTER_QUEUES, GROUP, LOCAL_QUEUES, PRIORITY_CLASSES, QUEUE_LABEL, RESOURCE_FLAVORS,
                             WORKLOADS)
from quantities import parse_quantity


def admit_on_create(resource, obj):
    """What Kueue's webhooks (and its CRDs' schemas) do to an object being created (api.create)."""
    if resource in KINDS:
        validate(resource, obj)
    integration = INTEGRATIONS.get(resource)
    if integration is not None and ((obj.get("metadata") or {}).get("labels") or {}).get(QUEUE_LABEL):
        integration.set_suspended(obj, True)
    elif resource == CLUSTER_QUEUES:
        spec = obj.setdefault("spec", {})
        spec.setdefault("queueingStrategy", "BestEffortFIFO")
        spec.setdefault("stopPolicy", "None")
        spec.setdefault("flavorFungibility", {"whenCanBorrow": "Borrow", "whenCanPreempt": "TryNextFlavor"})
        preemption = spec.setdefault("preemption", {})
        preemption.setdefault("borrowWithinCohort", {"policy": "Never"})
        preemption.setdefault("reclaimWithinCohort", "Never")
        preemption.setdefault("withinClusterQueue", "Never")
        for group in spec.get("resourceGroups") or []:
            for flavor in group.get("flavors") or []:
                for quota in flavor.get("resources") or []:
                    if isinstance(quota.get("nominalQuota"), (int, float)):
                        quota["nominalQuota"] = format_quantity(quota["name"], quota["nominalQuota"])
    elif resource == LOCAL_QUEUES:
        obj.setdefault("spec", {}).setdefault("stopPolicy", "None")
    elif resource == WORKLOADS:
        obj.setdefault("spec", {}).setdefault("active", True)
    if resource in KINDS:
        obj["metadata"].setdefault("generation", 1)


KINDS = {RESOURCE_FLAVORS: "ResourceFlavor", CLUSTER_QUEUES: "ClusterQueue", LOCAL_QUEUES: "LocalQueue",
         WORKLOADS: "Workload", PRIORITY_CLASSES: "WorkloadPriorityClass"}


def validate(resource, obj):
    """The CRD schemas' checks on the fields the controllers read: a 422, never a crash later."""
    errors = []
    spec = obj.get("spec")

    def expect(path, value, types, required=True):
        if value is None:
            if required:
                errors.append(FieldError(path, "Required"))
            return False
        if not isinstance(value, types) or isinstance(value, bool):
            errors.append(FieldError(path, "Invalid", f"must be of type {TYPE_NAMES.get(types, 'object')}", value))
            return False
        return True

    def quantity(path, value):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            errors.append(FieldError(path, "Invalid", "must be a quantity", value))
            return
        try:
            if parse_quantity(value) < 0:
                errors.append(FieldError(path, "Invalid", "must be greater than or equal to 0", value))
        except ValueError as error:
            errors.append(FieldError(path, "Invalid", str(error), value))

    if resource == PRIORITY_CLASSES:
        expect("value", obj.get("value"), int)
    elif spec is not None and not isinstance(spec, dict):
        errors.append(FieldError("spec", "Invalid", "must be of type object", spec))
    elif resource == RESOURCE_FLAVORS:
        labels = (spec or {}).get("nodeLabels")
        if expect("spec.nodeLabels", labels, dict, required=False):
            for key, value in labels.items():
                expect(f"spec.nodeLabels.{key}", value, str)
    elif resource == CLUSTER_QUEUES:
        groups = (spec or {}).get("resourceGroups") or []
        if expect("spec.resourceGroups", groups, list, required=False):
            for i, group in enumerate(groups):
                path = f"spec.resourceGroups[{i}]"
                if not expect(path, group, dict):
                    continue
                covered = group.get("coveredResources")
                if expect(f"{path}.coveredResources", covered, list):
                    for j, name in enumerate(covered):
                        expect(f"{path}.coveredResources[{j}]", name, str)
                flavors = group.get("flavors")
                if not expect(f"{path}.flavors", flavors, list):
                    continue
                for j, flavor in enumerate(flavors):
                    fpath = f"{path}.flavors[{j}]"
                    if not expect(fpath, flavor, dict):
                        continue
                    expect(f"{fpath}.name", flavor.get("name"), str)
                    quotas = flavor.get("resources")
                    if not expect(f"{fpath}.resources", quotas, list):
                        continue
                    for k, quota in enumerate(quotas):
                        qpath = f"{fpath}.resources[{k}]"
                        if expect(qpath, quota, dict):
                            expect(f"{qpath}.name", quota.get("name"), str)
                            quantity(f"{qpath}.nominalQuota", quota.get("nominalQuota"))
        selector = (spec or {}).get("namespaceSelector")
        expect("spec.namespaceSelector", selector, dict, required=False)
    elif resource == LOCAL_QUEUES:
        expect("spec.clusterQueue", (spec or {}).get("clusterQueue"), str)
    elif resource == WORKLOADS:
        pod_sets = (spec or {}).get("podSets")
        if expect("spec.podSets", pod_sets, list):
            if not 1 <= len(pod_sets) <= 8:
                errors.append(FieldError("spec.podSets", "Invalid", "must have between 1 and 8 items", len(pod_sets)))
            for i, pod_set in enumerate(pod_sets):
                path = f"spec.podSets[{i}]"
                if expect(path, pod_set, dict):
                    expect(f"{path}.count", pod_set.get("count"), int)
                    if expect(f"{path}.template", pod_set.get("template"), dict):
                        template_spec = pod_set["template"].get("spec")
                        if expect(f"{path}.template.spec", template_spec, dict):
                            expect(f"{path}.template.spec.containers", template_spec.get("containers"), list)
        expect("spec.queueName", (spec or {}).get("queueName"), str, required=False)
    if errors:
        raise invalid(KINDS[resource], GROUP, (obj.get("metadata") or {}).get("name", ""), errors)


TYPE_NAMES = {int: "integer", str: "string", list: "array", dict: "object"}
