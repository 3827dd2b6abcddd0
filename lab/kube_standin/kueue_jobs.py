"""The job kinds Kueue manages in the kube stand-in (its jobframework integrations): how to read
a kind's pod sets (name, count, pod template), its suspend switch and whether it ended.
batch/v1 Job, JobSet, PyTorchJob, MPIJob, RayJob.
"""


def job_pod_sets(job):
    spec = job.get("spec") or {}
    count = spec.get("parallelism", 1)
    if spec.get("completions") is not None:
        count = min(count, spec["completions"])
    return [("main", count, spec.get("template") or {})]


def jobset_pod_sets(jobset):
    sets = []
    for replicated in (jobset.get("spec") or {}).get("replicatedJobs") or []:
        job_spec = (replicated.get("template") or {}).get("spec") or {}
        per_job = job_spec.get("parallelism", 1)
        if job_spec.get("completions") is not None:
            per_job = min(per_job, job_spec["completions"])
        sets.append((replicated.get("name", "main"), replicated.get("replicas", 1) * per_job,
                     job_spec.setdefault("template", {})))
    return sets


def replica_specs_pod_sets(field, order):
    def pod_sets(job):
        specs = (job.get("spec") or {}).get(field) or {}
        names = [n for n in order if n in specs] + sorted(n for n in specs if n not in order)
        return [(name.lower(), specs[name].get("replicas", 1), specs[name].setdefault("template", {}))
                for name in names]
    return pod_sets


def rayjob_pod_sets(rayjob):
    cluster = (rayjob.get("spec") or {}).get("rayClusterSpec") or {}
    sets = [("head", 1, (cluster.get("headGroupSpec") or {}).setdefault("template", {}))]
    for group in cluster.get("workerGroupSpecs") or []:
        sets.append((group.get("groupName", "workers"), group.get("replicas", 1),
                     group.setdefault("template", {})))
    return sets


def conditions_of(obj):
    return {c.get("type"): c for c in (obj.get("status") or {}).get("conditions") or []}


def job_outcome(job):
    """None while running, else (succeeded, message), from the kind's own status."""
    conditions = conditions_of(job)
    for success, failure in (("Complete", "Failed"), ("Completed", "Failed"), ("Succeeded", "Failed")):
        if (conditions.get(success) or {}).get("status") == "True":
            return True, "Job finished successfully"
        if (conditions.get(failure) or {}).get("status") == "True":
            return False, conditions[failure].get("message") or "Job failed"
    status = job.get("status") or {}
    deployment = status.get("jobDeploymentStatus")  # RayJob
    if deployment in ("Complete", "Failed"):
        ok = status.get("jobStatus") == "SUCCEEDED" and deployment == "Complete"
        return ok, "Job finished successfully" if ok else (status.get("message") or "Job failed")
    return None


class Integration:
    def __init__(self, kind, pod_sets, suspend_path):
        self.kind = kind
        self.pod_sets = pod_sets
        self.suspend_path = suspend_path

    def suspended(self, job):
        node = job
        for key in self.suspend_path[:-1]:
            node = node.get(key) or {}
        return bool(node.get(self.suspend_path[-1]))

    def set_suspended(self, job, value):
        node = job
        for key in self.suspend_path[:-1]:
            node = node.setdefault(key, {})
        node[self.suspend_path[-1]] = value


INTEGRATIONS = {
    "jobs": Integration("Job", job_pod_sets, ("spec", "suspend")),
    "jobsets": Integration("JobSet", jobset_pod_sets, ("spec", "suspend")),
    "pytorchjobs": Integration("PyTorchJob", replica_specs_pod_sets("pytorchReplicaSpecs", ["Master", "Worker"]),
                               ("spec", "runPolicy", "suspend")),
    "mpijobs": Integration("MPIJob", replica_specs_pod_sets("mpiReplicaSpecs", ["Launcher", "Worker"]),
                           ("spec", "runPolicy", "suspend")),
    "rayjobs": Integration("RayJob", rayjob_pod_sets, ("spec", "suspend")),
}
