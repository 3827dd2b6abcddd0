"""`--scale NODES:PODS:WORKLOADS`: the synthetic scale pods (lab_cluster.populate_scale) owned by
WORKLOADS workloads, in turn a PyTorchJob (NAME-master-0, NAME-worker-I), a Deployment (its
ReplicaSet NAME-HASH, pods NAME-HASH-xxxxx), a JobSet (one Job NAME-workers-0) and a
LeaderWorkerSet (leader StatefulSet, leader pod NAME-0 owning the worker StatefulSet NAME-0, pods
NAME-0-I), each with the names, labels and ownerReferences its controller gives them, so the
controllers find their pods already there and only write status. Built directly, as the pods
are (no scheduling), to measure Strata's grouping at 50,000 pods and 2,000 workloads.
"""

from admission import default_job
from garbage_collector import controller_reference
from store import new_uid
from workload_objects import template_hash

KINDS = ("pytorchjobs", "deployments", "jobsets", "leaderworkersets")
GPU_TOLERATION = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]


def template(labels=None):
    spec = {"restartPolicy": "Never", "tolerations": list(GPU_TOLERATION),
            "containers": [{"name": "main", "image": "busybox:1.36", "command": ["sleep", "infinity"],
                            "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}
    return {"metadata": {"labels": dict(labels or {})}, "spec": spec}


def workload(kind, api_version, name, spec, created, owner=None, labels=None):
    meta = {"name": name, "namespace": "scale", "uid": new_uid(), "creationTimestamp": created,
            "generation": 1, "labels": dict(labels or {})}
    if owner is not None:
        meta["ownerReferences"] = [controller_reference(owner)]
    return {"apiVersion": api_version, "kind": kind, "metadata": meta, "spec": spec, "status": {}}


def own(pod, owner, name, labels, hostname=None, subdomain=None):
    pod["metadata"]["name"] = name
    pod["metadata"]["labels"] = dict(pod["metadata"].get("labels") or {}, **labels)
    pod["metadata"]["ownerReferences"] = [controller_reference(owner)]
    if hostname:
        pod["spec"]["hostname"] = hostname
    if subdomain:
        pod["spec"]["subdomain"] = subdomain


def assign(pods, workload_count, created):
    """Renames and owns pods in place; returns [(resource, object)] of the owners to store."""
    objects = []
    size = max(1, len(pods) // workload_count)
    for w in range(workload_count):
        chunk = pods[w * size:(w + 1) * size] if w < workload_count - 1 else pods[w * size:]
        if not chunk:
            break
        kind = KINDS[w % len(KINDS)]
        name = f"scale-{kind[:-1]}-{w:05d}"
        objects += globals()["own_" + kind](name, chunk, created)
    return objects


def own_pytorchjobs(name, pods, created):
    roles = {"Master": {"replicas": 1, "restartPolicy": "OnFailure", "template": template()}}
    if len(pods) > 1:
        roles["Worker"] = {"replicas": len(pods) - 1, "restartPolicy": "OnFailure", "template": template()}
    job = workload("PyTorchJob", "kubeflow.org/v1", name, {"nprocPerNode": "1", "pytorchReplicaSpecs": roles},
                   created)
    for i, pod in enumerate(pods):
        role, index = ("master", 0) if i == 0 else ("worker", i - 1)
        own(pod, job, f"{name}-{role}-{index}",
            {"training.kubeflow.org/job-name": name, "training.kubeflow.org/operator-name": "pytorchjob-controller",
             "training.kubeflow.org/replica-type": role, "training.kubeflow.org/replica-index": str(index)})
    return [("pytorchjobs", job)]


def own_deployments(name, pods, created):
    labels = {"app": name}
    deployment = workload("Deployment", "apps/v1", name,
                          {"replicas": len(pods), "selector": {"matchLabels": labels}, "template": template(labels),
                           "strategy": {"type": "RollingUpdate",
                                        "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
                           "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600}, created, labels=labels)
    pod_hash = template_hash(deployment["spec"]["template"], 0)
    rs_labels = dict(labels, **{"pod-template-hash": pod_hash})
    rs_template = template(rs_labels)
    rs = workload("ReplicaSet", "apps/v1", f"{name}-{pod_hash}",
                  {"replicas": len(pods), "selector": {"matchLabels": dict(rs_labels)}, "template": rs_template,
                   "minReadySeconds": 0}, created, owner=deployment, labels=rs_labels)
    rs["metadata"]["annotations"] = {"deployment.kubernetes.io/revision": "1"}
    for i, pod in enumerate(pods):
        own(pod, rs, f"{name}-{pod_hash}-{i:05d}", rs_labels)
    return [("deployments", deployment), ("replicasets", rs)]


def own_jobsets(name, pods, created):
    n = len(pods)
    job_template = {"parallelism": n, "completions": n, "completionMode": "NonIndexed", "template": template()}
    jobset = workload("JobSet", "jobset.x-k8s.io/v1alpha2", name,
                      {"replicatedJobs": [{"name": "workers", "replicas": 1, "template": {"spec": job_template}}],
                       "network": {"enableDNSHostnames": False}}, created)
    marks = {"jobset.sigs.k8s.io/jobset-name": name, "jobset.sigs.k8s.io/replicatedjob-name": "workers",
             "jobset.sigs.k8s.io/replicatedjob-replicas": "1", "jobset.sigs.k8s.io/job-index": "0",
             "jobset.sigs.k8s.io/job-global-index": "0"}
    job = {"apiVersion": "batch/v1", "kind": "Job",
           "metadata": {"name": f"{name}-workers-0", "labels": dict(marks), "annotations": dict(marks),
                        "ownerReferences": [controller_reference(jobset)]},
           "spec": {"parallelism": n, "completions": n, "completionMode": "NonIndexed",
                    "template": template(marks)}}
    default_job(job, "scale")
    job["metadata"]["creationTimestamp"] = created
    job["status"] = {"active": n, "ready": n, "startTime": created, "terminating": 0, "uncountedTerminatedPods": {}}
    controller_labels = job["spec"]["template"]["metadata"]["labels"]
    for i, pod in enumerate(pods):
        own(pod, job, f"{name}-workers-0-{i:05d}", controller_labels)
        pod["metadata"]["finalizers"] = ["batch.kubernetes.io/job-tracking"]
    return [("jobsets", jobset), ("jobs", job)]


def own_leaderworkersets(name, pods, created):
    size = len(pods)
    lws = workload("LeaderWorkerSet", "leaderworkerset.x-k8s.io/v1", name,
                   {"replicas": 1, "leaderWorkerTemplate": {"size": size, "workerTemplate": template(),
                                                            "restartPolicy": "None"}}, created)
    base = {"leaderworkerset.sigs.k8s.io/name": name}
    leader_labels = dict(base, **{"leaderworkerset.sigs.k8s.io/worker-index": "0"})
    leader_sts = workload("StatefulSet", "apps/v1", name,
                          {"replicas": 1, "serviceName": name, "podManagementPolicy": "Parallel",
                           "selector": {"matchLabels": dict(leader_labels)}, "template": template(leader_labels)},
                          created, owner=lws, labels=base)
    leader = pods[0]
    own(leader, leader_sts, f"{name}-0", dict(leader_labels, **{"leaderworkerset.sigs.k8s.io/group-index": "0",
                                                                 "apps.kubernetes.io/pod-index": "0"}),
        hostname=f"{name}-0", subdomain=name)
    leader["metadata"]["uid"] = leader["metadata"].get("uid") or new_uid()
    objects = [("leaderworkersets", lws), ("statefulsets", leader_sts)]
    if size > 1:
        group_labels = dict(base, **{"leaderworkerset.sigs.k8s.io/group-index": "0"})
        leader_as_owner = {"apiVersion": "v1", "kind": "Pod", "metadata": leader["metadata"]}
        worker_sts = workload("StatefulSet", "apps/v1", f"{name}-0",
                              {"replicas": size - 1, "ordinals": {"start": 1}, "serviceName": name,
                               "podManagementPolicy": "Parallel", "selector": {"matchLabels": dict(group_labels)},
                               "template": template(group_labels)}, created, owner=leader_as_owner,
                              labels=group_labels)
        for i, pod in enumerate(pods[1:], start=1):
            own(pod, worker_sts, f"{name}-0-{i}",
                dict(group_labels, **{"leaderworkerset.sigs.k8s.io/worker-index": str(i),
                                      "apps.kubernetes.io/pod-index": str(i)}),
                hostname=f"{name}-0-{i}", subdomain=name)
        objects.append(("statefulsets", worker_sts))
    return objects
