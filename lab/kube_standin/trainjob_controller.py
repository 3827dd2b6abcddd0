"""TrainJob (trainer.kubeflow.org/v1alpha1, Kubeflow Trainer v2) -> a JobSet of the same name,
as the trainer controller builds it from its runtime. The stand-in serves no
ClusterTrainingRuntime objects: every runtimeRef gets the layout of Kubeflow's `torch-distributed`
runtime (replicated Job `node`, Indexed, numNodes pods running torchrun with PET_NNODES,
PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR/PORT), overridden by spec.trainer (image,
command, args, env, numNodes, resourcesPerNode, numProcPerNode). spec.suspend passes to the JobSet.
Status: conditions Suspended/Complete/Failed and jobsStatus from the JobSet's replicatedJobsStatus.
Runs on the controller thread with the store lock held.
"""

import copy

from store import now_rfc3339
from workload_objects import (condition_true, make_child, operator_condition, set_operator_condition,
                              status_before, store_if_changed)

DEFAULT_IMAGE = "pytorch/pytorch:2.5.0-cuda12.4-cudnn9-runtime"
MASTER_PORT = 29400


class TrainJobController:
    def __init__(self, store):
        self.store = store
        self.events = None

    def tick(self, index, now):
        stamp = now_rfc3339(now)
        for trainjob in self.store.items("trainjobs"):
            before = status_before(trainjob)
            self.reconcile(trainjob, index, stamp)
            store_if_changed(self.store, "trainjobs", trainjob, before)

    def jobset_spec(self, trainjob):
        name = trainjob["metadata"]["name"]
        trainer = trainjob["spec"].get("trainer") or {}
        nodes = trainer.get("numNodes", 1)
        nproc = str(trainer.get("numProcPerNode", "auto"))
        container = {"name": "node", "image": trainer.get("image", DEFAULT_IMAGE),
                     "env": [{"name": "PET_NNODES", "value": str(nodes)},
                             {"name": "PET_NPROC_PER_NODE", "value": nproc},
                             {"name": "PET_NODE_RANK", "valueFrom": {"fieldRef": {
                                 "fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}},
                             {"name": "PET_MASTER_ADDR", "value": f"{name}-node-0-0.{name}"},
                             {"name": "PET_MASTER_PORT", "value": str(MASTER_PORT)}]
                     + copy.deepcopy(trainer.get("env") or []),
                     "ports": [{"containerPort": MASTER_PORT}]}
        container["command"] = copy.deepcopy(trainer.get("command") or ["torchrun", "/workspace/train.py"])
        if trainer.get("args"):
            container["args"] = copy.deepcopy(trainer["args"])
        if trainer.get("resourcesPerNode"):
            container["resources"] = copy.deepcopy(trainer["resourcesPerNode"])
        pod_labels = {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}
        return {"suspend": bool(trainjob["spec"].get("suspend")),
                "network": {"enableDNSHostnames": True, "publishNotReadyAddresses": True},
                "replicatedJobs": [{"name": "node", "replicas": 1, "template": {
                    "metadata": {"labels": pod_labels},
                    "spec": {"parallelism": nodes, "completions": nodes, "completionMode": "Indexed",
                             "backoffLimit": 0,
                             "template": {"metadata": {"labels": pod_labels},
                                          "spec": {"restartPolicy": "Never", "containers": [container]}}}}}]}

    def reconcile(self, trainjob, index, stamp):
        status = trainjob.setdefault("status", {})
        if condition_true(trainjob, "Complete") or condition_true(trainjob, "Failed"):
            return
        jobsets = index.children(trainjob, "jobsets")
        suspended = bool(trainjob["spec"].get("suspend"))
        if not jobsets:
            jobset = make_child(self.store, trainjob, "jobsets", trainjob["metadata"]["name"],
                                self.jobset_spec(trainjob),
                                labels={"trainer.kubeflow.org/trainjob-name": trainjob["metadata"]["name"]})
            self.store.put("jobsets", jobset)
            jobsets = [jobset]
        jobset = jobsets[0]
        if bool(jobset["spec"].get("suspend")) != suspended:
            jobset["spec"]["suspend"] = suspended
            self.store.put("jobsets", jobset)
        status["jobsStatus"] = copy.deepcopy(jobset.get("status", {}).get("replicatedJobsStatus") or [])
        if suspended:
            set_operator_condition(status, operator_condition("Suspended", "True", "Suspended",
                                                              "TrainJob is suspended", stamp))
        elif condition_true(trainjob, "Suspended"):
            set_operator_condition(status, operator_condition("Suspended", "False", "Resumed",
                                                              "TrainJob is resumed", stamp))
        if condition_true(jobset, "Completed"):
            set_operator_condition(status, operator_condition("Complete", "True", "JobsCompleted",
                                                              "TrainJob is completed", stamp))
        elif condition_true(jobset, "Failed"):
            set_operator_condition(status, operator_condition("Failed", "True", "JobsFailed",
                                                              "TrainJob has failed", stamp))
        for c in status.get("conditions") or []:
            c.pop("lastUpdateTime", None)
