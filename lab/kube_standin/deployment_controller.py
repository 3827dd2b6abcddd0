"""apps/v1 Deployment controller: one ReplicaSet per pod template (NAME-HASH, with the
pod-template-hash label on it, its selector and its pods, and the deployment.kubernetes.io/revision
annotation), scaled to spec.replicas; the ReplicaSets of older templates are scaled to 0 at once (a
stand-in simplification: no surge/unavailable pacing of a rolling update). Status and the
Available/Progressing conditions in the real controller's words. Controller thread, store lock held.
"""

import copy

from workload_objects import TemplateHashes, make_child, record, status_before, store_if_changed

HASH_LABEL = "pod-template-hash"
REVISION = "deployment.kubernetes.io/revision"


def deployment_condition(type_, status, reason, message, stamp):
    return {"type": type_, "status": status, "lastUpdateTime": stamp, "lastTransitionTime": stamp,
            "reason": reason, "message": message}


def set_deployment_condition(status, new):
    conditions = status.setdefault("conditions", [])
    for i, old in enumerate(conditions):
        if old["type"] == new["type"]:
            if old["status"] == new["status"] and old.get("reason") == new["reason"]:
                return
            if old["status"] == new["status"]:
                new["lastTransitionTime"] = old["lastTransitionTime"]
            conditions[i] = new
            return
    conditions.append(new)


class DeploymentController:
    def __init__(self, store):
        self.store = store
        self.hashes = TemplateHashes()
        self.events = None

    def tick(self, index, now):
        from store import now_rfc3339
        stamp = now_rfc3339(now)
        for deployment in self.store.items("deployments"):
            before = status_before(deployment)
            self.reconcile(deployment, index.children(deployment, "replicasets"), stamp)
            store_if_changed(self.store, "deployments", deployment, before)
        self.hashes.end_tick()

    def scaled(self, deployment, rs, old, new):
        record(self.events, deployment, "Normal", "ScalingReplicaSet",
               f"Scaled {'up' if new > old else 'down'} replica set {rs['metadata']['name']} from {old} to {new}",
               "deployment-controller")

    def reconcile(self, deployment, replica_sets, stamp):
        meta, spec = deployment["metadata"], deployment["spec"]
        template = spec.get("template") or {}
        pod_hash = self.hashes.of(deployment, template, (deployment.get("status") or {}).get("collisionCount", 0))
        current = next((rs for rs in replica_sets
                        if (rs["metadata"].get("labels") or {}).get(HASH_LABEL) == pod_hash), None)
        revisions = [int((rs["metadata"].get("annotations") or {}).get(REVISION, "0") or 0) for rs in replica_sets]
        wanted = 0 if spec.get("paused") else spec.get("replicas", 1)
        if current is None:
            labels = dict((template.get("metadata") or {}).get("labels") or {}, **{HASH_LABEL: pod_hash})
            rs_template = copy.deepcopy(template)
            rs_template.setdefault("metadata", {})["labels"] = labels
            selector = copy.deepcopy(spec.get("selector") or {})
            selector.setdefault("matchLabels", {})[HASH_LABEL] = pod_hash
            current = make_child(self.store, deployment, "replicasets", f"{meta['name']}-{pod_hash}",
                                 {"replicas": spec.get("replicas", 1), "selector": selector, "template": rs_template},
                                 labels=labels,
                                 annotations={REVISION: str(max(revisions, default=0) + 1),
                                              "deployment.kubernetes.io/desired-replicas": str(spec.get("replicas", 1)),
                                              "deployment.kubernetes.io/max-replicas": str(spec.get("replicas", 1) + 1)})
            current["spec"]["minReadySeconds"] = spec.get("minReadySeconds", 0)
            self.store.put("replicasets", current)
            replica_sets = replica_sets + [current]
            self.scaled(deployment, current, 0, spec.get("replicas", 1))
        elif not spec.get("paused") and current["spec"].get("replicas") != wanted:
            self.scaled(deployment, current, current["spec"].get("replicas", 0), wanted)
            current["spec"]["replicas"] = wanted
            current["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"] = str(wanted)
            self.store.put("replicasets", current)
        for rs in replica_sets:
            if rs is not current and rs["spec"].get("replicas"):
                self.scaled(deployment, rs, rs["spec"]["replicas"], 0)
                rs["spec"]["replicas"] = 0
                self.store.put("replicasets", rs)
        counts = {k: sum(rs.get("status", {}).get(k, 0) for rs in replica_sets)
                  for k in ("replicas", "readyReplicas", "availableReplicas")}
        updated = current.get("status", {}).get("replicas", 0)
        status = deployment.setdefault("status", {})
        status["observedGeneration"] = meta.get("generation", 1)
        for field, value in (("replicas", counts["replicas"]), ("updatedReplicas", updated),
                             ("readyReplicas", counts["readyReplicas"]),
                             ("availableReplicas", counts["availableReplicas"]),
                             ("unavailableReplicas", max(0, spec.get("replicas", 1) - counts["availableReplicas"]))):
            if value:
                status[field] = value
            else:
                status.pop(field, None)
        max_unavailable = 0 if spec.get("replicas", 1) <= 1 else spec.get("replicas", 1) // 4
        available = counts["availableReplicas"] >= spec.get("replicas", 1) - max_unavailable
        set_deployment_condition(status, deployment_condition(
            "Available", "True" if available else "False",
            "MinimumReplicasAvailable" if available else "MinimumReplicasUnavailable",
            "Deployment has minimum availability." if available
            else "Deployment does not have minimum availability.", stamp))
        done = updated == spec.get("replicas", 1) and counts["availableReplicas"] >= spec.get("replicas", 1)
        rs_name = current["metadata"]["name"]
        set_deployment_condition(status, deployment_condition(
            "Progressing", "True", "NewReplicaSetAvailable" if done else "ReplicaSetUpdated",
            f'ReplicaSet "{rs_name}" has successfully progressed.' if done
            else f'ReplicaSet "{rs_name}" is progressing.', stamp))
        status["conditions"].sort(key=lambda c: c["type"] != "Available")
