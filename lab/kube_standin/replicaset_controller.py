"""apps/v1 ReplicaSet controller: keeps spec.replicas active pods (NAME-xxxxx, owned by the
ReplicaSet, labelled from the template), replacing pods that ended or were deleted, removing the
newest extras; status replicas/fullyLabeledReplicas/readyReplicas/availableReplicas as the real
controller counts them. Runs on the controller thread with the store lock held.
"""

from workload_objects import TERMINAL, is_ready, make_pod, phase, record, status_before, store_if_changed


class ReplicaSetController:
    def __init__(self, store):
        self.store = store
        self.events = None

    def tick(self, index, now):
        for rs in self.store.items("replicasets"):
            before = status_before(rs)
            self.reconcile(rs, index.children(rs, "pods"))
            store_if_changed(self.store, "replicasets", rs, before)

    def reconcile(self, rs, pods):
        meta, spec = rs["metadata"], rs["spec"]
        active = [p for p in pods if phase(p) not in TERMINAL and not p["metadata"].get("deletionTimestamp")]
        wanted = spec.get("replicas", 1)
        if len(active) < wanted:
            for _ in range(wanted - len(active)):
                pod = make_pod(self.store, rs, spec.get("template"), generate_name=meta["name"] + "-")
                active.append(pod)
                record(self.events, rs, "Normal", "SuccessfulCreate", f"Created pod: {pod['metadata']['name']}",
                       "replicaset-controller")
        elif len(active) > wanted:
            # The real controller deletes the least advanced first: unscheduled, pending, not ready, newest.
            active.sort(key=lambda p: (bool(p["spec"].get("nodeName")), phase(p) == "Running", is_ready(p),
                                       p["metadata"].get("creationTimestamp", "")), reverse=False)
            for pod in active[:len(active) - wanted]:
                self.store.remove("pods", meta["namespace"], pod["metadata"]["name"])
                record(self.events, rs, "Normal", "SuccessfulDelete", f"Deleted pod: {pod['metadata']['name']}",
                       "replicaset-controller")
            active = active[len(active) - wanted:]
        selector = (spec.get("selector") or {}).get("matchLabels") or {}
        ready = sum(1 for p in active if is_ready(p))
        status = {"replicas": len(active),
                  "fullyLabeledReplicas": sum(1 for p in active if all(
                      (p["metadata"].get("labels") or {}).get(k) == v for k, v in selector.items())),
                  "readyReplicas": ready, "availableReplicas": ready,
                  "observedGeneration": meta.get("generation", 1)}
        rs["status"] = {k: v for k, v in status.items() if v or k in ("replicas", "observedGeneration")}
