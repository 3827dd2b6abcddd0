"""The kube stand-in's Job controller: creates a Job's pods, counts them and sets its status
and conditions the way kube-controller-manager's job controller does (batch/v1, 1.31 shapes:
SuccessCriteriaMet then Complete, FailureTarget then Failed). Runs on the controller thread
with the store lock held.
"""

import copy

from admission import default_pod, random_suffix
from kubelet import condition, set_condition
from store import now_rfc3339, parse_rfc3339

TERMINAL = ("Succeeded", "Failed")


def job_conditions(job):
    return {c["type"]: c["status"] for c in job.get("status", {}).get("conditions", [])}


def is_finished(job):
    conditions = job_conditions(job)
    return conditions.get("Complete") == "True" or conditions.get("Failed") == "True"


def owned_pods(store, job):
    uid = job["metadata"]["uid"]
    return [p for p in store.items("pods", job["metadata"]["namespace"])
            if any(r.get("uid") == uid for r in p["metadata"].get("ownerReferences") or [])]


def compress_indexes(indexes):
    """[0,1,2,5] -> "0-2,5", as status.completedIndexes writes them."""
    parts, ordered = [], sorted(indexes)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ",".join(parts)


def pod_index(pod):
    value = (pod["metadata"].get("annotations") or {}).get("batch.kubernetes.io/job-completion-index")
    return int(value) if value is not None and value.isdigit() else None


class JobController:
    def __init__(self, store):
        self.store = store
        self.events = None  # the EventRecorder, set by the controller loop
        self.seen = {}     # job uid -> {pod name: phase} at the last tick, to count deleted pods
        self.lost = {}     # job uid -> pods that vanished before finishing (count as failed)

    def tick(self, now):
        live = set()
        by_owner = {}
        for pod in self.store.items("pods"):
            for ref in pod["metadata"].get("ownerReferences") or []:
                by_owner.setdefault(ref.get("uid"), []).append(pod)
        for job in self.store.items("jobs"):
            meta = job["metadata"]
            live.add(meta["uid"])
            before = copy.deepcopy(job.get("status", {}))
            self.reconcile(job, by_owner.get(meta["uid"], []), now)
            still_there = self.store.get("jobs", meta["namespace"], meta["name"]) is job
            if still_there and job.get("status", {}) != before:
                self.store.put("jobs", job)
        for uid in [u for u in self.seen if u not in live]:
            self.seen.pop(uid)
            self.lost.pop(uid, None)

    def record(self, job, type_, reason, message, now=None):
        """An Event as kube-controller-manager's job controller records it."""
        if self.events is not None:
            self.events.record(job, type_, reason, message, "job-controller", now=now)

    def remove_pod(self, job, pod):
        """Deleting a pod itself is no failure: forget it before the next tick looks."""
        self.seen.get(job["metadata"]["uid"], {}).pop(pod["metadata"]["uid"], None)
        self.store.remove("pods", pod["metadata"]["namespace"], pod["metadata"]["name"])
        self.record(job, "Normal", "SuccessfulDelete", f"Deleted pod: {pod['metadata']['name']}")

    def reconcile(self, job, pods, now):
        meta, spec = job["metadata"], job["spec"]
        status = job.setdefault("status", {})
        stamp = now_rfc3339(now)
        self.track_lost(job, pods)
        if is_finished(job):
            self.expire(job, now)
            return
        active = [p for p in pods if p.get("status", {}).get("phase") not in TERMINAL]
        succeeded_pods = [p for p in pods if p.get("status", {}).get("phase") == "Succeeded"]
        failed = sum(1 for p in pods if p.get("status", {}).get("phase") == "Failed")
        failed += sum(cs.get("restartCount", 0) for p in pods
                      for cs in p.get("status", {}).get("containerStatuses") or [])
        failed = max(failed + self.lost.get(meta["uid"], 0), status.get("failed", 0))
        succeeded = len(succeeded_pods)
        indexed = spec.get("completionMode") == "Indexed"
        if indexed:
            done = {pod_index(p) for p in succeeded_pods} - {None}
            succeeded = len(done)
            if done:
                status["completedIndexes"] = compress_indexes(done)

        if spec.get("suspend"):
            for pod in active:
                self.remove_pod(job, pod)
            active = []
            if job_conditions(job).get("Suspended") != "True":
                self.record(job, "Normal", "Suspended", "Job suspended", now)
            set_condition(status, condition("Suspended", "True", stamp, "JobSuspended", "Job suspended"))
            status.pop("startTime", None)
        else:
            if job_conditions(job).get("Suspended") == "True":
                set_condition(status, condition("Suspended", "False", stamp, "JobResumed", "Job resumed"))
                self.record(job, "Normal", "Resumed", "Job resumed", now)
            status.setdefault("startTime", stamp)
            start = parse_rfc3339(status["startTime"])
            deadline = spec.get("activeDeadlineSeconds")
            if failed > spec.get("backoffLimit", 6):
                self.fail(job, active, stamp, "BackoffLimitExceeded",
                          "Job has reached the specified backoff limit")
                active = []
            elif deadline is not None and now - start >= deadline:
                self.fail(job, active, stamp, "DeadlineExceeded",
                          "Job was active longer than specified deadline")
                active = []
            elif self.reached_completions(spec, succeeded, active):
                for type_ in ("SuccessCriteriaMet", "Complete"):
                    set_condition(status, condition(type_, "True", stamp, "CompletionsReached",
                                                    "Reached expected number of succeeded pods"))
                status["completionTime"] = stamp
                self.record(job, "Normal", "Completed", "Job completed", now)
            else:
                active += self.create_pods(job, active, succeeded_pods, succeeded)
        ready = sum(1 for p in active if any(
            c["type"] == "Ready" and c["status"] == "True"
            for c in p.get("status", {}).get("conditions", [])))
        for field, value in (("active", len(active)), ("succeeded", succeeded), ("failed", failed)):
            if value:
                status[field] = value
            else:
                status.pop(field, None)
        status["ready"] = ready
        status["terminating"] = 0
        status["uncountedTerminatedPods"] = {}

    def reached_completions(self, spec, succeeded, active):
        completions = spec.get("completions")
        if completions is None:
            return succeeded >= 1 and not active
        return succeeded >= completions

    def track_lost(self, job, pods):
        """A running pod deleted by someone else counts as failed, as with job tracking."""
        uid = job["metadata"]["uid"]
        now_phases = {p["metadata"]["uid"]: p.get("status", {}).get("phase") for p in pods}
        for pod_uid, phase in self.seen.get(uid, {}).items():
            if pod_uid not in now_phases and \
                    phase not in TERMINAL and not is_finished(job):
                self.lost[uid] = self.lost.get(uid, 0) + 1
        self.seen[uid] = now_phases

    def fail(self, job, active, stamp, reason, message):
        for pod in active:
            self.remove_pod(job, pod)
        status = job["status"]
        for type_ in ("FailureTarget", "Failed"):
            set_condition(status, condition(type_, "True", stamp, reason, message))
        self.record(job, "Warning", reason, message)

    def create_pods(self, job, active, succeeded_pods, succeeded):
        spec = job["spec"]
        parallelism, completions = spec.get("parallelism", 1), spec.get("completions")
        if spec.get("completionMode") == "Indexed":
            busy = {pod_index(p) for p in active} | {pod_index(p) for p in succeeded_pods}
            wanted = [i for i in range(completions) if i not in busy]
            wanted = wanted[:max(0, parallelism - len(active))]
        else:
            remaining = parallelism if completions is None else min(parallelism, completions - succeeded)
            if completions is None and succeeded:
                remaining = 0
            wanted = [None] * max(0, remaining - len(active))
        return [self.create_pod(job, index) for index in wanted]

    def create_pod(self, job, index):
        meta = job["metadata"]
        template = copy.deepcopy(job["spec"]["template"])
        pod_meta = template.get("metadata") or {}
        prefix = f"{meta['name']}-" if index is None else f"{meta['name']}-{index}-"
        pod_meta.update(name=prefix + random_suffix(), generateName=prefix)
        pod_meta["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": meta["name"],
                                        "uid": meta["uid"], "controller": True,
                                        "blockOwnerDeletion": True}]
        pod_meta["finalizers"] = ["batch.kubernetes.io/job-tracking"]
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": pod_meta, "spec": template["spec"]}
        if index is not None:
            pod_meta.setdefault("annotations", {})["batch.kubernetes.io/job-completion-index"] = str(index)
            pod_meta.setdefault("labels", {})["batch.kubernetes.io/job-completion-index"] = str(index)
            pod["spec"].setdefault("hostname", f"{meta['name']}-{index}")
            for container in pod["spec"].get("containers", []):
                container.setdefault("env", []).insert(0, {
                    "name": "JOB_COMPLETION_INDEX", "valueFrom": {"fieldRef": {
                        "fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}})
        default_pod(pod, meta["namespace"])
        self.store.put("pods", pod)
        self.record(job, "Normal", "SuccessfulCreate", f"Created pod: {pod_meta['name']}")
        self.seen.setdefault(meta["uid"], {})[pod_meta["uid"]] = "Pending"
        return pod

    def expire(self, job, now):
        ttl = job["spec"].get("ttlSecondsAfterFinished")
        if ttl is None:
            return
        finished = [c.get("lastTransitionTime") for c in job["status"].get("conditions", [])
                    if c["type"] in ("Complete", "Failed") and c["status"] == "True"]
        at = parse_rfc3339(finished[0]) if finished else None
        if at is not None and now >= at + ttl:
            delete_job(self.store, job, "Background")


def delete_job(store, job, propagation):
    """DELETE of a Job: Background/Foreground take its pods with it, Orphan leaves them."""
    namespace, uid = job["metadata"]["namespace"], job["metadata"]["uid"]
    for pod in owned_pods(store, job):
        if propagation == "Orphan":
            pod["metadata"]["ownerReferences"] = [r for r in pod["metadata"]["ownerReferences"]
                                                  if r.get("uid") != uid]
            store.put("pods", pod)
        else:
            store.remove("pods", namespace, pod["metadata"]["name"])
    job["metadata"]["deletionTimestamp"] = now_rfc3339()
    return store.remove("jobs", namespace, job["metadata"]["name"])
