"""LeaderWorkerSet (leaderworkerset.x-k8s.io/v1) as the LWS controller and its pod webhook make it:
a headless Service NAME and a leader StatefulSet NAME (replicas = spec.replicas, pods NAME-I, the
leader template or else the worker template); each leader pod owns its group's worker StatefulSet
NAME-I (size-1 pods NAME-I-1..NAME-I-(size-1), ordinals from 1). The webhook part labels every
pod leaderworkerset.sigs.k8s.io/{name,group-index,worker-index,group-key}, annotates size (and
leader-name on workers) and sets LWS_LEADER_ADDRESS, LWS_GROUP_SIZE, LWS_WORKER_INDEX.
RecreateGroupOnPodRestart: a group whose pod restarted or failed is recreated (its leader pod is
deleted, and with it the workers). Status replicas/readyReplicas/updatedReplicas/hpaPodSelector
and conditions Available/Progressing. Runs on the controller thread with the store lock held.
"""

import copy
import hashlib

import services
from admission import default_metadata
from garbage_collector import controller_reference, delete_with_dependents
from store import now_rfc3339
from workload_objects import (TERMINAL, is_ready, make_child, phase, restarts, status_before,
                              store_if_changed, TemplateHashes)

NAME_LABEL = "leaderworkerset.sigs.k8s.io/name"
GROUP_INDEX = "leaderworkerset.sigs.k8s.io/group-index"
WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index"
GROUP_KEY = "leaderworkerset.sigs.k8s.io/group-key"
REVISION = "leaderworkerset.sigs.k8s.io/template-revision-hash"
SIZE = "leaderworkerset.sigs.k8s.io/size"
LEADER_NAME = "leaderworkerset.sigs.k8s.io/leader-name"


def lws_pod_webhook(pod):
    """The LWS pod webhook's mutation of a pod the StatefulSet controller is about to create."""
    labels = pod["metadata"].setdefault("labels", {})
    annotations = pod["metadata"].setdefault("annotations", {})
    name = labels.get(NAME_LABEL)
    if not name:
        return
    namespace = pod["metadata"].get("namespace", "")
    ordinal = labels.get("apps.kubernetes.io/pod-index", "0")
    leader = labels.get(WORKER_INDEX) == "0" and GROUP_INDEX not in labels
    group = ordinal if leader else labels.get(GROUP_INDEX, "0")
    worker = "0" if leader else ordinal
    labels[GROUP_INDEX], labels[WORKER_INDEX] = group, worker
    labels[GROUP_KEY] = hashlib.sha1(f"{namespace}/{name}-{group}".encode()).hexdigest()
    if not leader:
        annotations[LEADER_NAME] = f"{name}-{group}"
    env = [{"name": "LWS_LEADER_ADDRESS", "value": f"{name}-{group}.{name}.{namespace}"},
           {"name": "LWS_GROUP_SIZE", "value": annotations.get(SIZE, "1")},
           {"name": "LWS_WORKER_INDEX", "value": worker}]
    for container in pod["spec"].get("containers") or []:
        current = container.setdefault("env", [])
        names = {e.get("name") for e in current}
        container["env"] = [e for e in env if e["name"] not in names] + current


def lws_condition(type_, status, reason, message, stamp):
    return {"type": type_, "status": status, "lastTransitionTime": stamp, "reason": reason, "message": message}


class LeaderWorkerSetController:
    def __init__(self, store):
        self.store = store
        self.events = None
        self.hashes = TemplateHashes()

    def tick(self, index, now):
        stamp = now_rfc3339(now)
        for lws in self.store.items("leaderworkersets"):
            before = status_before(lws)
            self.reconcile(lws, index, stamp)
            store_if_changed(self.store, "leaderworkersets", lws, before)
        self.hashes.end_tick()

    def statefulset_spec(self, lws, template, replicas, labels, selector, start=0):
        template = copy.deepcopy(template or {})
        meta = template.setdefault("metadata", {})
        meta["labels"] = dict(meta.get("labels") or {}, **labels)
        meta["annotations"] = dict(meta.get("annotations") or {},
                                   **{SIZE: str(lws["spec"]["leaderWorkerTemplate"].get("size", 1))})
        spec = {"replicas": replicas, "serviceName": lws["metadata"]["name"], "podManagementPolicy": "Parallel",
                "selector": {"matchLabels": selector}, "template": template,
                "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0, "maxUnavailable": 1}},
                "revisionHistoryLimit": 10,
                "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"}}
        if start:
            spec["ordinals"] = {"start": start}
        return spec

    def reconcile(self, lws, index, stamp):
        meta, spec = lws["metadata"], lws["spec"]
        name, namespace = meta["name"], meta["namespace"]
        lwt = spec["leaderWorkerTemplate"]
        size = lwt.get("size", 1)
        revision = self.hashes.of(lws, lwt)[:8]
        if self.store.get("services", namespace, name) is None:
            service = {"apiVersion": "v1", "kind": "Service",
                       "metadata": {"name": name, "namespace": namespace,
                                    "ownerReferences": [controller_reference(lws)]},
                       "spec": {"clusterIP": "None", "selector": {NAME_LABEL: name},
                                "publishNotReadyAddresses": True}}
            default_metadata(service, namespace)
            services.default_service(service)
            self.store.put("services", service)
        leaders = index.children(lws, "statefulsets")
        if not leaders:
            labels = {NAME_LABEL: name, WORKER_INDEX: "0", REVISION: revision}
            sts = make_child(self.store, lws, "statefulsets", name,
                             self.statefulset_spec(lws, lwt.get("leaderTemplate") or lwt["workerTemplate"],
                                                   spec.get("replicas", 1), labels,
                                                   {NAME_LABEL: name, WORKER_INDEX: "0"}),
                             labels={NAME_LABEL: name, REVISION: revision})
            self.store.put("statefulsets", sts)
            leaders = [sts]
        elif leaders[0]["spec"].get("replicas") != spec.get("replicas", 1):
            leaders[0]["spec"]["replicas"] = spec.get("replicas", 1)
            self.store.put("statefulsets", leaders[0])
        ready_groups = 0
        for leader_pod in index.children(leaders[0], "pods"):
            group = (leader_pod["metadata"].get("labels") or {}).get(GROUP_INDEX) or \
                leader_pod["metadata"]["name"].rsplit("-", 1)[-1]
            workers_sts = index.children(leader_pod, "statefulsets")
            if size > 1 and not workers_sts and phase(leader_pod) not in TERMINAL:
                labels = {NAME_LABEL: name, GROUP_INDEX: group, REVISION: revision}
                sts = make_child(self.store, leader_pod, "statefulsets", f"{name}-{group}",
                                 self.statefulset_spec(lws, lwt["workerTemplate"], size - 1, labels,
                                                       {NAME_LABEL: name, GROUP_INDEX: group}, start=1),
                                 labels=labels, owner_ref=controller_reference(leader_pod))
                self.store.put("statefulsets", sts)
                workers_sts = [sts]
            workers = [p for s in workers_sts for p in index.children(s, "pods")]
            group_pods = [leader_pod] + workers
            if lwt.get("restartPolicy", "RecreateGroupOnPodRestart") == "RecreateGroupOnPodRestart" and \
                    (restarts(group_pods) or any(phase(p) == "Failed" for p in group_pods)):
                delete_with_dependents(self.store, "pods", leader_pod, "Background")
                continue
            if len(group_pods) == size and all(is_ready(p) for p in group_pods):
                ready_groups += 1
        replicas = spec.get("replicas", 1)
        status = lws.setdefault("status", {})
        status.update({"replicas": leaders[0].get("status", {}).get("replicas", 0), "readyReplicas": ready_groups,
                       "updatedReplicas": ready_groups,
                       "hpaPodSelector": f"{NAME_LABEL}={name},{WORKER_INDEX}=0"})
        for field in ("readyReplicas", "updatedReplicas", "replicas"):
            if not status[field]:
                status.pop(field)
        available = ready_groups >= replicas
        conditions = [lws_condition("Available", "True" if available else "False",
                                    "AllGroupsReady" if available else "GroupsNotReady",
                                    "All replicas are ready" if available else "Not all replicas are ready", stamp),
                      lws_condition("Progressing", "False" if available else "True",
                                    "GroupsAreProgressing" if not available else "AllGroupsReady",
                                    "Replicas are progressing" if not available else "All replicas are ready",
                                    stamp)]
        old = {c["type"]: c for c in status.get("conditions") or []}
        for c in conditions:
            if c["type"] in old and old[c["type"]]["status"] == c["status"]:
                c["lastTransitionTime"] = old[c["type"]]["lastTransitionTime"]
        status["conditions"] = conditions
