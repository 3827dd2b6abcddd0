"""Kueue's flavor assignment in the kube stand-in: a Workload's pod sets fitted, resource group by
resource group, into the first flavor of its ClusterQueue whose unused nominalQuota holds them,
with Kueue's messages for what does not fit. Pure functions over the store's objects (callers
hold its lock). No cohorts, so no borrowing.
"""

from api_errors import ApiError
from kueue_resources import RESOURCE_FLAVORS
from quantities import parse_quantity, pod_requests


def format_quantity(name, value):
    """Canonical text of a summed quantity: "16", "500m", "64Gi"."""
    if name == "memory" or name.endswith("storage"):
        for suffix, size in (("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
            if value >= size and float(value / size).is_integer():
                return f"{int(value // size)}{suffix}"
    if float(value).is_integer():
        return str(int(value))
    return f"{int(round(value * 1000))}m"


def quota_of(text):
    try:
        return parse_quantity(text)
    except ValueError:
        return 0.0


class PodSetRequest:
    def __init__(self, name, count, template):
        self.name = name
        self.count = count
        self.template = template
        per_pod = pod_requests({"spec": template.get("spec") or {}})
        self.total = {resource: value * count for resource, value in per_pod.items() if value}

    def node_selector(self):
        return (self.template.get("spec") or {}).get("nodeSelector") or {}


class FlavorAssignment:
    """The outcome of fitting one Workload into its ClusterQueue."""

    def __init__(self):
        self.assignments = []   # per pod set: (PodSetRequest, {resource: flavor})
        self.problems = []      # "couldn't assign flavors to pod set ..." texts
        self.usage = {}         # (flavor, resource) -> amount this Workload takes

    def fits(self):
        return not self.problems



def assign_flavors(store, cluster_queue, workload, usage):
    """Kueue's flavor assigner, without borrowing: every pod set, every resource group."""
    result = FlavorAssignment()
    groups = (cluster_queue.get("spec") or {}).get("resourceGroups") or []
    taken = dict(usage)
    for pod_set in workload["spec"].get("podSets") or []:
        try:
            request = PodSetRequest(pod_set.get("name", "main"), pod_set.get("count", 1),
                                    pod_set.get("template") or {})
        except ApiError as error:
            result.problems.append(f"couldn't assign flavors to pod set {pod_set.get('name')}: "
                                   f"{error.status['message']}")
            continue
        flavors_chosen, problems, groups_done = {}, [], set()
        for resource in sorted(request.total):
            group_index = next((i for i, g in enumerate(groups) if resource in (g.get("coveredResources") or [])),
                               None)
            if group_index is None:
                problems.append(f"resource {resource} unavailable in ClusterQueue")
                continue
            if group_index in groups_done:
                continue  # one flavor for all the resources of a group
            groups_done.add(group_index)
            group = groups[group_index]
            wanted = {r: request.total[r] for r in group.get("coveredResources") or [] if r in request.total}
            chosen, reasons = None, []
            for flavor in group.get("flavors") or []:
                flavor_name = flavor.get("name", "")
                flavor_object = store.get(RESOURCE_FLAVORS, "", flavor_name) or {}
                labels = (flavor_object.get("spec") or {}).get("nodeLabels") or {}
                clash = [k for k, v in request.node_selector().items() if k in labels and labels[k] != v]
                if clash:
                    reasons.append(f"flavor {flavor_name} doesn't match node affinity")
                    continue
                quotas = {q.get("name"): quota_of(q.get("nominalQuota", 0)) for q in flavor.get("resources") or []}
                short = []
                for name, amount in sorted(wanted.items()):
                    nominal = quotas.get(name, 0.0)
                    used = taken.get((flavor_name, name), 0.0)
                    if amount > nominal:
                        short.append(f"insufficient quota for {name} in flavor {flavor_name}, request > "
                                     f"maximum capacity ({format_quantity(name, amount)} > "
                                     f"{format_quantity(name, nominal)})")
                    elif used + amount > nominal:
                        short.append(f"insufficient unused quota for {name} in flavor {flavor_name}, "
                                     f"{format_quantity(name, used + amount - nominal)} more needed")
                if short:
                    reasons.extend(short)
                    continue
                chosen = flavor_name
                break
            if chosen is None:
                problems.extend(reasons)
                continue
            for name, amount in wanted.items():
                flavors_chosen[name] = chosen
                taken[(chosen, name)] = taken.get((chosen, name), 0.0) + amount
                result.usage[(chosen, name)] = result.usage.get((chosen, name), 0.0) + amount
        if problems:
            result.problems.append(f"couldn't assign flavors to pod set {request.name}: " + ", ".join(problems))
        result.assignments.append((request, flavors_chosen))
    return result
