"""HyperPodPyTorchJob (sagemaker.amazonaws.com/v1, the SageMaker HyperPod training operator):
spec.replicaSpecs [{name, replicas, template}], nprocPerNode, runPolicy (cleanPodPolicy All /
OnlyComplete / None, suspend). AWS publishes the spec and the status it shows (conditions Created,
PodsRunning, Running, Completed / Failed; restartCount) but not the operator's pod names and
labels: the stand-in names pods NAME-REPLICA-I and labels them sagemaker.amazonaws.com/{job-name,
replica-name,replica-index} (its own convention), with torchrun's PET_* env. A pod that failed is
replaced and counted in restartCount (the operator's job-level restart) up to
runPolicy.jobMaxRetryCount (default 0: the job fails). Controller thread, store lock held.
"""

from store import now_rfc3339
from workload_objects import (condition_true, make_pod, phase, set_operator_condition,
                              status_before, store_if_changed)

PREFIX = "sagemaker.amazonaws.com/"
MASTER_PORT = 23456


def hyperpod_condition(type_, status, reason, message, stamp):
    c = {"type": type_, "status": status, "lastTransitionTime": stamp}
    if reason:
        c["reason"] = reason
    if message:
        c["message"] = message
    return c


class HyperPodJobController:
    def __init__(self, store):
        self.store = store
        self.events = None

    def tick(self, index, now):
        stamp = now_rfc3339(now)
        for job in self.store.items("hyperpodpytorchjobs"):
            before = status_before(job)
            self.reconcile(job, index.children(job, "pods"), stamp)
            store_if_changed(self.store, "hyperpodpytorchjobs", job, before)

    def reconcile(self, job, pods, stamp):
        meta, spec = job["metadata"], job["spec"]
        name, namespace = meta["name"], meta["namespace"]
        status = job.setdefault("status", {})
        run_policy = spec.get("runPolicy") or {}
        set_operator_condition(status, hyperpod_condition("Created", "True", None, None, stamp))
        if condition_true(job, "Completed") or condition_true(job, "Failed"):
            policy = run_policy.get("cleanPodPolicy", "None")
            for pod in pods:
                if policy == "All" or (policy == "OnlyComplete" and phase(pod) == "Succeeded"):
                    self.store.remove("pods", namespace, pod["metadata"]["name"])
            return
        if run_policy.get("suspend"):
            for pod in pods:
                self.store.remove("pods", namespace, pod["metadata"]["name"])
            set_operator_condition(status, hyperpod_condition("Suspended", "True", "Suspended",
                                                              "The job is suspended", stamp))
            return
        if condition_true(job, "Suspended"):
            set_operator_condition(status, hyperpod_condition("Suspended", "False", "Resumed",
                                                              "The job is resumed", stamp))
        replicas = spec["replicaSpecs"]
        total = sum(r.get("replicas", 1) for r in replicas)
        nproc = str(spec.get("nprocPerNode", "auto"))
        first = f"{name}-{replicas[0]['name']}-0"
        by_name = {p["metadata"]["name"]: p for p in pods}
        rank, current = 0, []
        for replica in replicas:
            for i in range(replica.get("replicas", 1)):
                pod_name = f"{name}-{replica['name']}-{i}"
                pod = by_name.get(pod_name)
                if pod is not None and phase(pod) == "Failed":
                    status["restartCount"] = status.get("restartCount", 0) + 1
                    self.store.remove("pods", namespace, pod_name)
                    pod = None
                if pod is None:
                    pod = make_pod(self.store, job, replica.get("template"), name=pod_name,
                                   labels={PREFIX + "job-name": name, PREFIX + "replica-name": replica["name"],
                                           PREFIX + "replica-index": str(i)},
                                   env=[{"name": "PET_NNODES", "value": str(total)},
                                        {"name": "PET_NPROC_PER_NODE", "value": nproc},
                                        {"name": "PET_NODE_RANK", "value": str(rank)},
                                        {"name": "PET_MASTER_ADDR", "value": first},
                                        {"name": "PET_MASTER_PORT", "value": str(MASTER_PORT)}],
                                   restart_policy="Never")
                current.append(pod)
                rank += 1
        if status.get("restartCount", 0) > run_policy.get("jobMaxRetryCount", 0):
            set_operator_condition(status, hyperpod_condition(
                "Failed", "True", "MaxRetryCountExceeded",
                f"The job failed after {status['restartCount']} restarts", stamp))
            return
        running = all(phase(p) == "Running" for p in current)
        if running:
            set_operator_condition(status, hyperpod_condition("PodsRunning", "True", None, None, stamp))
            set_operator_condition(status, hyperpod_condition("Running", "True", "Running",
                                                              "The job is running", stamp))
        if current and all(phase(p) == "Succeeded" for p in current):
            set_operator_condition(status, hyperpod_condition("Running", "False", "Completed",
                                                              "The job has completed", stamp))
            set_operator_condition(status, hyperpod_condition("Completed", "True", "Completed",
                                                              "The job has completed", stamp))
            status["completionTime"] = stamp
        status.setdefault("startTime", stamp)
