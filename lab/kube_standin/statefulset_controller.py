"""apps/v1 StatefulSet controller: pods NAME-ORDINAL for ordinals spec.ordinals.start ..
start+replicas-1, each with hostname NAME-ORDINAL and subdomain spec.serviceName and the labels
controller-revision-hash, statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index;
OrderedReady makes the next ordinal only once the ones below run and are ready (Parallel: all at
once); a pod that ended is replaced, scale-down removes the highest ordinals first. Status as the
real controller writes it. Runs on the controller thread with the store lock held.
"""

from workload_objects import (TERMINAL, is_ready, make_pod, phase, record,
                              status_before, store_if_changed, TemplateHashes)


class StatefulSetController:
    def __init__(self, store, pod_webhooks=()):
        self.store = store
        self.hashes = TemplateHashes()
        self.pod_webhooks = pod_webhooks
        self.events = None

    def tick(self, index, now):
        for sts in self.store.items("statefulsets"):
            before = status_before(sts)
            self.reconcile(sts, index.children(sts, "pods"))
            store_if_changed(self.store, "statefulsets", sts, before)
        self.hashes.end_tick()

    def reconcile(self, sts, pods):
        meta, spec = sts["metadata"], sts["spec"]
        name, namespace = meta["name"], meta["namespace"]
        start = (spec.get("ordinals") or {}).get("start", 0)
        wanted = spec.get("replicas", 1)
        revision = f"{name}-{self.hashes.of(sts, spec.get('template') or {})}"
        by_name = {p["metadata"]["name"]: p for p in pods}
        ordered = spec.get("podManagementPolicy", "OrderedReady") == "OrderedReady"
        for ordinal in range(start, start + wanted):
            pod_name = f"{name}-{ordinal}"
            pod = by_name.get(pod_name)
            if pod is not None and phase(pod) in TERMINAL:
                self.store.remove("pods", namespace, pod_name)  # the real controller recreates it
                by_name.pop(pod_name)
                pod = None
            if pod is None:
                below = [by_name.get(f"{name}-{o}") for o in range(start, ordinal)]
                if ordered and not all(p is not None and phase(p) == "Running" and is_ready(p) for p in below):
                    break
                by_name[pod_name] = make_pod(
                    self.store, sts, spec.get("template"), name=pod_name, hostname=pod_name,
                    subdomain=spec.get("serviceName") or None,
                    labels={"controller-revision-hash": revision,
                            "statefulset.kubernetes.io/pod-name": pod_name,
                            "apps.kubernetes.io/pod-index": str(ordinal)},
                    webhooks=self.pod_webhooks)
                record(self.events, sts, "Normal", "SuccessfulCreate",
                       f"create Pod {pod_name} in StatefulSet {name} successful", "statefulset-controller")
        keep = {f"{name}-{o}" for o in range(start, start + wanted)}
        for pod_name in sorted((n for n in by_name if n not in keep), reverse=True):
            self.store.remove("pods", namespace, pod_name)
            record(self.events, sts, "Normal", "SuccessfulDelete",
                   f"delete Pod {pod_name} in StatefulSet {name} successful", "statefulset-controller")
            by_name.pop(pod_name)
        current = list(by_name.values())
        ready = sum(1 for p in current if is_ready(p))
        status = {"observedGeneration": meta.get("generation", 1), "replicas": len(current),
                  "readyReplicas": ready, "currentReplicas": len(current), "updatedReplicas": len(current),
                  "availableReplicas": ready, "currentRevision": revision, "updateRevision": revision,
                  "collisionCount": 0}
        sts["status"] = {k: v for k, v in status.items()
                         if v or k in ("replicas", "availableReplicas", "observedGeneration", "collisionCount")}
