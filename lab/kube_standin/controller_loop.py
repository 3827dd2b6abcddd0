"""The kube stand-in's control plane loop: node lifecycle taints, the Job controller, the
scheduler and the kubelets, ticking on one thread (the way kube-controller-manager,
kube-scheduler and the kubelets each reconcile), plus the state and GPU-allocation exports.
"""

import json
import os
import threading
import time

from endpoints_controller import EndpointsController
from events import DEFAULT_TTL_SECONDS, EventRecorder
from quantities import GPU
from job_controller import JobController
from kueue import KueueController
from kubelet import Kubelets, condition, set_condition
from scheduler import GPU_INDICES_ANNOTATION, gpu_indices, is_active_on_node, place, usage_by_node
from store import now_rfc3339, write_atomically
from workload_controllers import WorkloadControllers

SCHEDULER = "default-scheduler"
SCHEDULER_INSTANCE = "default-scheduler-kube-standin"
LAB_GPU_UTIL_ANNOTATION = "strata.io/lab-gpu-util"
MANAGED_TAINTS = ("node.kubernetes.io/unschedulable", "node.kubernetes.io/not-ready",
                  "node.kubernetes.io/unreachable")


def lab_gpu_util(pod):
    """The utilisation a pod asks its GPUs to show in the DCGM stand-in (LAB_GPU_UTIL_ANNOTATION,
    "0".."100"), as a Slurm job's --comment=strata-lab-gpu-util=N; None when absent or not a
    whole percentage (the GPUs then show busy, as any held GPU)."""
    text = str((pod["metadata"].get("annotations") or {}).get(LAB_GPU_UTIL_ANNOTATION, "")).strip()
    return int(text) if text.isdigit() and 0 <= int(text) <= 100 else None


def desired_taints(node, stamp):
    """Taints the node lifecycle controller keeps in step with spec and conditions."""
    current = node["spec"].get("taints") or []
    kept = [t for t in current if t.get("key") not in MANAGED_TAINTS]
    managed = []
    if node["spec"].get("unschedulable"):
        managed.append(("node.kubernetes.io/unschedulable", "NoSchedule"))
    ready = next((c["status"] for c in node.get("status", {}).get("conditions", [])
                  if c["type"] == "Ready"), "Unknown")
    if ready != "True":
        key = "node.kubernetes.io/not-ready" if ready == "False" else "node.kubernetes.io/unreachable"
        managed += [(key, "NoSchedule"), (key, "NoExecute")]
    for key, effect in managed:
        old = next((t for t in current if t.get("key") == key and t.get("effect") == effect), None)
        kept.append(old or {"key": key, "effect": effect, "timeAdded": stamp})
    return kept


class ControllerLoop:
    """Owned by the server; runs its own thread; every step holds the store lock."""

    def __init__(self, store, burn_agent, state_dir, work_dir, start_delay, tick_seconds, api_port,
                 event_ttl=DEFAULT_TTL_SECONDS):
        self.store = store
        self.state_dir = state_dir
        self.tick_seconds = tick_seconds
        self.kubelets = Kubelets(store, burn_agent, os.path.join(state_dir, "logs") if state_dir else None,
                                 work_dir, start_delay, api_port)
        self.events = EventRecorder(store, event_ttl)
        self.jobs = JobController(store)
        self.workloads = WorkloadControllers(store, self.events)
        self.kueue = KueueController(store, self.events)
        self.endpoints = EndpointsController(store)
        self.kubelets.events = self.jobs.events = self.events
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.run, name="kube-standin-controllers", daemon=True)
        self.last_save = 0.0
        self.last_allocations = None

    def start(self):
        self.thread.start()

    def stop(self):
        self.stop_event.set()
        self.thread.join(timeout=5)
        with self.store.lock:
            for run in self.kubelets.runs.values():
                run.kill()
        self.save(force=True)

    def run(self):
        while not self.stop_event.is_set():
            started = time.time()
            try:
                self.tick(started)
            except Exception as e:  # a bug in one tick must not stop the cluster; say so loudly
                import traceback
                traceback.print_exc()
                print(f"kube stand-in: controller tick failed: {e}", flush=True)
            self.stop_event.wait(max(0.01, self.tick_seconds - (time.time() - started)))

    def tick(self, now):
        with self.store.lock:
            self.sync_nodes(now)
            self.kubelets.tick(now)
            self.kueue.tick(now)
            self.workloads.tick(now)
            self.jobs.tick(now)
            self.events.expire(now)
            self.endpoints.tick(now)
            self.schedule(now)
        self.save()

    def sync_nodes(self, now):
        stamp = now_rfc3339(now)
        for node in self.store.items("nodes"):
            taints = desired_taints(node, stamp)
            if taints != (node["spec"].get("taints") or []):
                if taints:
                    node["spec"]["taints"] = taints
                else:
                    node["spec"].pop("taints", None)
                self.store.put("nodes", node)

    def schedule(self, now):
        pending = [p for p in self.store.items("pods")
                   if not p["spec"].get("nodeName") and p.get("status", {}).get("phase") == "Pending"
                   and not p["metadata"].get("deletionTimestamp")]
        if not pending:
            return
        usage = usage_by_node(self.store)
        pending.sort(key=lambda p: (p["metadata"].get("creationTimestamp", ""), p["metadata"]["name"]))
        stamp = now_rfc3339(now)
        for pod in pending:
            node, result = place(usage, pod)
            if node is not None:
                pod["spec"]["nodeName"] = node
                self.kubelets.accept(pod, now, result)
                self.events.record_new_api(pod, "Normal", "Scheduled", "Binding",
                                           f"Successfully assigned {pod['metadata']['namespace']}/"
                                           f"{pod['metadata']['name']} to {node}", SCHEDULER, SCHEDULER_INSTANCE, now)
                continue
            status = pod["status"]
            old = next((c for c in status.get("conditions", []) if c["type"] == "PodScheduled"), None)
            if old and old.get("message") == result:
                continue
            set_condition(status, condition("PodScheduled", "False", stamp, "Unschedulable", result))
            self.store.put("pods", pod)
            self.events.record_new_api(pod, "Warning", "FailedScheduling", "Scheduling", result, SCHEDULER,
                                       SCHEDULER_INSTANCE, now)

    # Exports
    def allocations(self):
        """Which pod holds which GPUs on which node (for the DCGM stand-in's Kubernetes mode)."""
        with self.store.lock:
            nodes = {}
            for node in self.store.items("nodes"):
                labels = node["metadata"].get("labels") or {}
                nodes[node["metadata"]["name"]] = {
                    "gpuProduct": labels.get("nvidia.com/gpu.product", ""),
                    # Physical GPUs: GPU feature discovery's count (capacity counts shares).
                    "gpuCount": int(labels.get("nvidia.com/gpu.count")
                                    or (node["status"].get("capacity") or {}).get("nvidia.com/gpu", "0")),
                    "allocations": []}
            for pod in self.store.items("pods"):
                if not is_active_on_node(pod) or pod["spec"]["nodeName"] not in nodes:
                    continue
                owner = next((r["name"] for r in pod["metadata"].get("ownerReferences") or []
                              if r.get("kind") == "Job"), "")
                # The container the device plugin gave the GPUs to (the kubelet's pod-resources
                # API names it): the first one asking for nvidia.com/gpu.
                containers = pod["spec"]["containers"]
                container = next((c["name"] for c in containers if GPU in (
                    ((c.get("resources") or {}).get("limits") or {}) | ((c.get("resources") or {}).get("requests") or {}))),
                    containers[0]["name"])
                util = lab_gpu_util(pod)
                for index in gpu_indices(pod):
                    entry = {"gpu": index, "namespace": pod["metadata"]["namespace"],
                             "pod": pod["metadata"]["name"], "container": container, "job": owner}
                    if util is not None:
                        entry["utilPercent"] = util
                    nodes[pod["spec"]["nodeName"]]["allocations"].append(entry)
            for entry in nodes.values():
                entry["allocations"].sort(key=lambda a: a["gpu"])
            return {"comment": "GPU allocations of the Strata kube stand-in (from the pod annotation "
                               f"{GPU_INDICES_ANNOTATION}); not a Kubernetes API object.",
                    "resourceVersion": str(self.store.revision), "nodes": nodes}

    def save(self, force=False):
        if not self.state_dir:
            return
        now = time.time()
        if not force and (not self.store.dirty or now - self.last_save < 0.5):
            return
        self.last_save = now
        self.store.save()
        allocations = self.allocations()
        comparable = json.dumps(allocations["nodes"], sort_keys=True)
        if force or comparable != self.last_allocations:
            self.last_allocations = comparable
            write_atomically(os.path.join(self.state_dir, "gpu-allocations.json"),
                             json.dumps(allocations, indent=1, sort_keys=True))
