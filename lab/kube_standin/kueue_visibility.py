"""Kueue's visibility API in the kube stand-in (visibility.kueue.x-k8s.io/v1beta1, an aggregated
API server in a real cluster, listed in /apis here): the pending Workloads of a ClusterQueue or
LocalQueue in queue order, with their positions (PendingWorkloadsSummary), and its discovery.
"""

from api_errors import ApiError, bad_request, not_found, path_not_found
from kueue_resources import CLUSTER_QUEUES, LOCAL_QUEUES, VISIBILITY_GROUP, VISIBILITY_VERSION
from responses import first, json_response


def handle_request(kueue, method, parts, query):
    """A request to /apis/visibility.kueue.x-k8s.io/PARTS... (kueue: the KueueController)."""
    if not parts:
        return json_response(200, visibility_group(with_type=True))
    if parts[0] != VISIBILITY_VERSION:
        raise path_not_found()
    parts = parts[1:]
    if not parts:
        return json_response(200, {"kind": "APIResourceList", "apiVersion": "v1",
                                   "groupVersion": f"{VISIBILITY_GROUP}/{VISIBILITY_VERSION}",
                                   "resources": visibility_resources()})
    if method != "GET":
        raise ApiError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource")
    try:
        limit = int(first(query, "limit", "1000") or 1000)
        offset = int(first(query, "offset", "0") or 0)
    except ValueError:
        raise bad_request("limit and offset must be integers") from None
    if limit < 1 or offset < 0:
        raise bad_request("limit must be positive and offset not negative")
    with kueue.store.lock:
        if len(parts) == 3 and parts[0] == CLUSTER_QUEUES and parts[2] == "pendingworkloads":
            if kueue.store.get(CLUSTER_QUEUES, "", parts[1]) is None:
                raise not_found("clusterqueue", VISIBILITY_GROUP, parts[1])
            entries = kueue.pending_in_cluster_queue(parts[1])
        elif len(parts) == 5 and parts[0] == "namespaces" and parts[2] == LOCAL_QUEUES \
                and parts[4] == "pendingworkloads":
            namespace, name = parts[1], parts[3]
            local = kueue.store.get(LOCAL_QUEUES, namespace, name)
            if local is None:
                raise not_found("localqueue", VISIBILITY_GROUP, name)
            entries = [e for e in kueue.pending_in_cluster_queue((local.get("spec") or {}).get("clusterQueue", ""))
                       if e[0]["metadata"]["namespace"] == namespace and e[0]["spec"].get("queueName") == name]
        else:
            raise path_not_found()
        items = []
        for workload, cq_position, lq_position in entries[offset:offset + limit]:
            meta = workload["metadata"]
            items.append({"metadata": {"name": meta["name"], "namespace": meta["namespace"],
                                       "creationTimestamp": meta.get("creationTimestamp"),
                                       "ownerReferences": [{k: r[k] for k in ("apiVersion", "kind", "name", "uid")}
                                                           for r in meta.get("ownerReferences") or []]},
                          "priority": kueue.priority(workload), "localQueueName": workload["spec"].get("queueName", ""),
                          "positionInClusterQueue": cq_position, "positionInLocalQueue": lq_position})
        return json_response(200, {"kind": "PendingWorkloadsSummary",
                                   "apiVersion": f"{VISIBILITY_GROUP}/{VISIBILITY_VERSION}",
                                   "metadata": {"creationTimestamp": None}, "items": items})


def visibility_group(with_type=False):
    version = {"groupVersion": f"{VISIBILITY_GROUP}/{VISIBILITY_VERSION}", "version": VISIBILITY_VERSION}
    group = {"name": VISIBILITY_GROUP, "versions": [version], "preferredVersion": version}
    return dict({"kind": "APIGroup", "apiVersion": "v1"}, **group) if with_type else group


def visibility_aggregated_discovery():
    """The group's APIGroupDiscovery entry in /apis (kube-aggregator lists aggregated servers)."""
    resources = []
    for entry in visibility_resources():
        if "/" in entry["name"]:
            continue
        subresource = next(e for e in visibility_resources() if e["name"] == entry["name"] + "/pendingworkloads")
        resources.append({"resource": entry["name"], "responseKind": {"group": VISIBILITY_GROUP,
                                                                       "version": VISIBILITY_VERSION,
                                                                       "kind": entry["kind"]},
                          "scope": "Namespaced" if entry["namespaced"] else "Cluster",
                          "singularResource": entry["singularName"], "verbs": entry["verbs"],
                          "subresources": [{"subresource": "pendingworkloads", "verbs": subresource["verbs"],
                                            "responseKind": {"group": VISIBILITY_GROUP,
                                                             "version": VISIBILITY_VERSION,
                                                             "kind": "PendingWorkloadsSummary"}}]})
    return {"metadata": {"name": VISIBILITY_GROUP, "creationTimestamp": None},
            "versions": [{"version": VISIBILITY_VERSION, "resources": resources, "freshness": "Current"}]}


def visibility_resources():
    """The visibility group's APIResourceList entries (an aggregated API server in real Kueue)."""
    return [
        {"name": CLUSTER_QUEUES, "singularName": "clusterqueue", "namespaced": False, "kind": "ClusterQueue",
         "verbs": []},
        {"name": f"{CLUSTER_QUEUES}/pendingworkloads", "singularName": "", "namespaced": False,
         "kind": "PendingWorkloadsSummary", "verbs": ["get"]},
        {"name": LOCAL_QUEUES, "singularName": "localqueue", "namespaced": True, "kind": "LocalQueue",
         "verbs": []},
        {"name": f"{LOCAL_QUEUES}/pendingworkloads", "singularName": "", "namespaced": True,
         "kind": "PendingWorkloadsSummary", "verbs": ["get"]},
    ]
