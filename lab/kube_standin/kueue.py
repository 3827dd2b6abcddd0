"""Kueue in the kube stand-in (kueue.x-k8s.io/v1beta1, as Kueue 0.9-0.10 serves it).

What Kueue's webhook and controllers do, in the real objects' shapes:
- Webhook: a Job (batch/v1), JobSet, PyTorchJob, MPIJob or RayJob created with the label
  `kueue.x-k8s.io/queue-name` is suspended (`spec.suspend`, or `spec.runPolicy.suspend` for the
  Kubeflow kinds). ClusterQueues get the CRD's defaults.
- Job reconciler: each such job gets a Workload `<kind>-<name>-<hash>` owned by it (labels
  `kueue.x-k8s.io/job-uid`), one pod set per role with its count and pod template. Once the
  Workload is admitted the job is unsuspended with its flavor's `nodeLabels` merged into the
  pods' nodeSelector; evicted, it is suspended again; finished, the Workload is `Finished`.
  A job deleted takes its Workload with it.
- Scheduler: per ClusterQueue, pending Workloads by priority then creation time; a Workload is
  admitted when every pod set's requests fit a flavor of the resource group covering them
  (flavors tried in order, `nominalQuota` minus what admitted Workloads use); otherwise it stays
  pending with Kueue's message (`couldn't assign flavors to pod set main: insufficient unused
  quota for nvidia.com/gpu in flavor h100, 8 more needed`). BestEffortFIFO lets a later Workload
  that fits pass one that does not; StrictFIFO does not. `preemption.withinClusterQueue`
  LowerPriority / LowerOrNewerEqualPriority evicts lower-priority admitted Workloads
  (priorities from WorkloadPriorityClass via `kueue.x-k8s.io/priority-class`). `spec.active:
  false` on a Workload evicts it (Deactivated).
- Status of ClusterQueues (flavorsReservation, flavorsUsage, pending/reserving/admitted counts,
  Active) and LocalQueues (the same per namespace queue).
The webhook is kueue_webhook.py, the job kinds kueue_jobs.py, flavor assignment
kueue_flavors.py, the visibility API (pendingworkloads with positions) kueue_visibility.py.
Not simulated: cohorts and borrowing, fair sharing, admission checks, partial admission,
topology-aware scheduling, waitForPodsReady, plain-pod and LeaderWorkerSet integrations.
Runs on the controller thread with the store lock held.
"""

import hashlib
import json

from api_errors import ApiError
from kueue_flavors import PodSetRequest, assign_flavors, format_quantity, quota_of
from kueue_jobs import INTEGRATIONS, conditions_of, job_outcome
from kueue_resources import (API_VERSION, CLUSTER_QUEUES, JOB_UID_LABEL, LOCAL_QUEUES, PRIORITY_CLASS_LABEL,
                             PRIORITY_CLASSES, QUEUE_LABEL, RESOURCE_FLAVORS, WORKLOADS)
from store import RESOURCES, new_uid, now_rfc3339, parse_rfc3339

ADMISSION = "kueue-admission"          # the recorder names Kueue's components use
JOB_CONTROLLER = "kueue-job-controller"


def condition(type_, status, reason, message, now, previous=None, generation=None):
    """A metav1.Condition; lastTransitionTime kept while the status stays."""
    stamp = now_rfc3339(now)
    if previous is not None and previous.get("status") == status:
        stamp = previous.get("lastTransitionTime", stamp)
    result = {"type": type_, "status": status}
    if generation is not None:
        result["observedGeneration"] = generation
    result.update(lastTransitionTime=stamp, reason=reason, message=message)
    return result


def set_condition(obj, type_, status, reason, message, now):
    """A Workload's condition, with the generation it saw as Kueue writes it."""
    conditions = obj.setdefault("status", {}).setdefault("conditions", [])
    generation = obj["metadata"].get("generation", 1)
    for i, old in enumerate(conditions):
        if old.get("type") == type_:
            conditions[i] = condition(type_, status, reason, message, now, old, generation)
            return
    conditions.append(condition(type_, status, reason, message, now, generation=generation))


def is_true(obj, type_):
    return (conditions_of(obj).get(type_) or {}).get("status") == "True"


def workload_name(kind, name, uid):
    """GetWorkloadNameForOwnerWithGVK: "<kind>-<name>-<5 hex>", the prefix cut to fit 253."""
    digest = hashlib.sha1(f"{name}/{uid}/{kind}".encode()).hexdigest()[:5]
    return f"{kind.lower()}-{name}"[:247] + "-" + digest


def selector_matches(selector, labels):
    """A metav1.LabelSelector against labels; None selects nothing, {} everything."""
    if selector is None:
        return False
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions") or []:
        key, operator, values = expression.get("key"), expression.get("operator"), expression.get("values") or []
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and key in labels and labels[key] in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True


class KueueController:
    """Owned by the controller loop; its tick runs with the store lock held."""

    def __init__(self, store, events):
        self.store = store
        self.events = events
        self.unreadable = set()  # uids of jobs whose pod sets could not be read (said once)
        self.installed = True    # False under --crds without Kueue's group: nothing of Kueue runs
        self.last_error = None   # what the last failed tick said (not repeated every tick)

    def available(self):
        return self.installed and WORKLOADS in RESOURCES and WORKLOADS in self.store.objects

    # The loop
    def tick(self, now):
        if not self.available():
            return
        try:
            self.reconcile(now)
        except (AttributeError, TypeError, ValueError, KeyError) as error:
            # An object Kueue cannot read (a status patched by hand, say) must not stop the
            # controllers after it in the loop's tick: said in the server's log, once per error.
            text = f"kube stand-in: Kueue skipped a tick: {error!r}"
            if text != self.last_error:
                print(text, flush=True)
                self.last_error = text
        else:
            self.last_error = None

    def reconcile(self, now):
        jobs = self.managed_jobs()
        workloads = {}
        for workload in self.store.items(WORKLOADS):
            for ref in workload["metadata"].get("ownerReferences") or []:
                workloads[ref.get("uid")] = workload
        live_owners = {job["metadata"]["uid"] for _, job in jobs}
        self.unreadable &= live_owners
        for workload in self.store.items(WORKLOADS):
            owners = [r.get("uid") for r in workload["metadata"].get("ownerReferences") or []]
            if owners and not any(uid in live_owners for uid in owners):
                # The owner is gone: the garbage collector deletes its Workload.
                self.store.remove(WORKLOADS, workload["metadata"]["namespace"], workload["metadata"]["name"])
        for resource, job in jobs:
            workload = workloads.get(job["metadata"]["uid"])
            if workload is None:
                if job_outcome(job) is None:
                    self.create_workload(resource, job, now)
                continue
            self.sync_finished(resource, job, workload, now)
        self.deactivate(now)
        self.schedule(now)
        for resource, job in jobs:
            workload = workloads.get(job["metadata"]["uid"]) or self.workload_of(job)
            if workload is not None:
                self.sync_job(resource, job, workload, now)
        self.update_queue_statuses(now)

    def managed_jobs(self):
        jobs = []
        for resource in INTEGRATIONS:
            if resource not in self.store.objects:
                continue
            for job in self.store.items(resource):
                if (job["metadata"].get("labels") or {}).get(QUEUE_LABEL):
                    jobs.append((resource, job))
        return jobs

    def workload_of(self, job):
        uid = job["metadata"]["uid"]
        for workload in self.store.items(WORKLOADS, job["metadata"]["namespace"]):
            if any(r.get("uid") == uid for r in workload["metadata"].get("ownerReferences") or []):
                return workload
        return None

    def read_pod_sets(self, integration, job, now):
        """The job's pod sets, or None (and a Warning Event, once) when its spec cannot say them."""
        try:
            pod_sets = integration.pod_sets(job)
            problem = None if pod_sets else "no pod sets"
            for name, count, template in pod_sets:
                if not isinstance(count, int) or isinstance(count, bool) or count < 0 \
                        or not isinstance(template, dict) or not isinstance(name, str):
                    problem = f"pod set {name!r}: count {count!r} or its template is not valid"
        except (AttributeError, TypeError) as error:
            problem = f"the spec cannot be read: {error}"
        if problem is None:
            return pod_sets
        if job["metadata"]["uid"] not in self.unreadable:
            self.unreadable.add(job["metadata"]["uid"])
            self.events.record(job, "Warning", "ErrWorkloadCompose", problem, JOB_CONTROLLER, now=now)
        return None

    def create_workload(self, resource, job, now):
        integration = INTEGRATIONS[resource]
        meta = job["metadata"]
        pod_sets = self.read_pod_sets(integration, job, now)
        if pod_sets is None:
            return None
        name = workload_name(integration.kind, meta["name"], meta["uid"])
        priority_class = (meta.get("labels") or {}).get(PRIORITY_CLASS_LABEL)
        spec = {"active": True, "queueName": meta["labels"][QUEUE_LABEL],
                "podSets": [{"name": n, "count": c, "template": json.loads(json.dumps(t))} for n, c, t in pod_sets]}
        priority_object = self.store.get(PRIORITY_CLASSES, "", priority_class) if priority_class else None
        if priority_object is not None:
            spec.update(priorityClassName=priority_class, priorityClassSource="kueue.x-k8s.io/workloadpriorityclass",
                        priority=int(priority_object.get("value", 0)))
        else:
            spec.update(priority=0)
        workload = {"apiVersion": API_VERSION, "kind": "Workload",
                    "metadata": {"name": name, "namespace": meta["namespace"], "uid": new_uid(),
                                 "generation": 1, "creationTimestamp": now_rfc3339(now),
                                 "labels": {JOB_UID_LABEL: meta["uid"]},
                                 "ownerReferences": [{"apiVersion": job["apiVersion"], "kind": job["kind"],
                                                      "name": meta["name"], "uid": meta["uid"],
                                                      "controller": True, "blockOwnerDeletion": True}],
                                 "finalizers": ["kueue.x-k8s.io/resource-in-use"]},
                    "spec": spec, "status": {}}
        self.store.put(WORKLOADS, workload)
        self.events.record(job, "Normal", "CreatedWorkload",
                           f"Created Workload: {meta['namespace']}/{name}", JOB_CONTROLLER, now=now)
        return workload

    def sync_finished(self, resource, job, workload, now):
        outcome = job_outcome(job)
        if outcome is None or is_true(workload, "Finished"):
            return
        succeeded, message = outcome
        set_condition(workload, "Finished", "True", "Succeeded" if succeeded else "Failed", message, now)
        self.store.put(WORKLOADS, workload)
        meta = workload["metadata"]
        self.events.record(job, "Normal", "FinishedWorkload",
                           f"Workload '{meta['namespace']}/{meta['name']}' is declared finished",
                           JOB_CONTROLLER, now=now)

    def sync_job(self, resource, job, workload, now):
        """The job reconciler: unsuspend an admitted job, suspend one that lost its admission."""
        integration = INTEGRATIONS[resource]
        if is_true(workload, "Finished"):
            return
        admitted = is_true(workload, "Admitted")
        if admitted and integration.suspended(job):
            self.start_job(integration, job, workload)
            self.store.put(resource, job)
            self.events.record(job, "Normal", "Started",
                               f"Admitted by clusterQueue {workload['status']['admission']['clusterQueue']}",
                               JOB_CONTROLLER, now=now)
        elif not admitted and not integration.suspended(job):
            integration.set_suspended(job, True)
            self.store.put(resource, job)
            evicted = conditions_of(workload).get("Evicted") or {}
            message = evicted.get("message") if evicted.get("status") == "True" else "Not admitted by cluster queue"
            self.events.record(job, "Normal", "Stopped", message, JOB_CONTROLLER, now=now)

    def start_job(self, integration, job, workload):
        """RunWithPodSetsInfo: the flavors' node labels join each pod set's nodeSelector."""
        assignments = {a["name"]: a for a in workload["status"]["admission"]["podSetAssignments"]}
        for name, _, template in integration.pod_sets(job):
            assignment = assignments.get(name) or {}
            selector = {}
            for flavor_name in sorted(set((assignment.get("flavors") or {}).values())):
                flavor = self.store.get(RESOURCE_FLAVORS, "", flavor_name) or {}
                selector.update((flavor.get("spec") or {}).get("nodeLabels") or {})
            if selector:
                spec = template.setdefault("spec", {})
                spec["nodeSelector"] = dict(spec.get("nodeSelector") or {}, **selector)
        integration.set_suspended(job, False)

    # Deactivation (spec.active: false)
    def deactivate(self, now):
        for workload in self.store.items(WORKLOADS):
            if workload["spec"].get("active", True) or not workload["status"].get("admission"):
                continue
            if is_true(workload, "Finished"):
                continue
            self.evict(workload, "Deactivated", "The workload is deactivated", now, requeue=False)

    def evict(self, workload, reason, message, now, requeue=True, preempted_reason=None):
        set_condition(workload, "Evicted", "True", reason, message, now)
        if preempted_reason:
            set_condition(workload, "Preempted", "True", preempted_reason, message, now)
        set_condition(workload, "QuotaReserved", "False", "Pending", message, now)
        set_condition(workload, "Admitted", "False", "NoReservation", "The workload has no reservation", now)
        if requeue:
            set_condition(workload, "Requeued", "True", reason, message, now)
        else:
            set_condition(workload, "Requeued", "False", reason, message, now)
        workload["status"].pop("admission", None)
        self.store.put(WORKLOADS, workload)
        self.events.record(workload, "Normal", "Preempted" if preempted_reason else "EvictedDue" + reason,
                           message, ADMISSION, now=now)

    # Scheduling
    def priority(self, workload):
        return workload["spec"].get("priority") or 0

    def queue_order(self, workloads):
        return sorted(workloads, key=lambda w: (-self.priority(w), w["metadata"].get("creationTimestamp", ""),
                                                w["metadata"]["namespace"], w["metadata"]["name"]))

    def cluster_queue_of(self, workload):
        """(ClusterQueue or None, the reason it cannot be used or None)."""
        queue_name = workload["spec"].get("queueName", "")
        local = self.store.get(LOCAL_QUEUES, workload["metadata"]["namespace"], queue_name)
        if local is None:
            return None, f"LocalQueue {queue_name} doesn't exist"
        cq_name = (local.get("spec") or {}).get("clusterQueue", "")
        cluster_queue = self.store.get(CLUSTER_QUEUES, "", cq_name)
        if cluster_queue is None:
            return None, f"ClusterQueue {cq_name} doesn't exist"
        missing = self.missing_flavors(cluster_queue)
        if missing:
            return None, f"ClusterQueue {cq_name} is inactive"
        namespace = self.store.get("namespaces", "", workload["metadata"]["namespace"]) or {"metadata": {}}
        if not selector_matches((cluster_queue.get("spec") or {}).get("namespaceSelector"),
                                namespace["metadata"].get("labels") or {}):
            return None, "Workload namespace doesn't match ClusterQueue selector"
        return cluster_queue, None

    def missing_flavors(self, cluster_queue):
        names = [f.get("name") for g in (cluster_queue.get("spec") or {}).get("resourceGroups") or []
                 for f in g.get("flavors") or []]
        return [n for n in names if self.store.get(RESOURCE_FLAVORS, "", n) is None]

    def is_pending(self, workload):
        status = workload.get("status") or {}
        return workload["spec"].get("active", True) and not status.get("admission") \
            and not is_true(workload, "Finished")

    def holds_quota(self, workload):
        return bool((workload.get("status") or {}).get("admission")) and not is_true(workload, "Finished")

    def usage_of(self, workload):
        usage = {}
        for assignment in workload["status"]["admission"].get("podSetAssignments") or []:
            flavors = assignment.get("flavors") or {}
            for resource, amount in (assignment.get("resourceUsage") or {}).items():
                key = (flavors.get(resource, ""), resource)
                usage[key] = usage.get(key, 0) + quota_of(amount)
        return usage

    def cluster_queue_usage(self, cq_name, excluded=()):
        usage = {}
        for workload in self.store.items(WORKLOADS):
            if workload["metadata"]["uid"] in excluded or not self.holds_quota(workload):
                continue
            if workload["status"]["admission"].get("clusterQueue") != cq_name:
                continue
            for key, amount in self.usage_of(workload).items():
                usage[key] = usage.get(key, 0) + amount
        return usage

    def schedule(self, now):
        pending_by_queue = {}
        for workload in self.store.items(WORKLOADS):
            if not self.is_pending(workload):
                continue
            cluster_queue, problem = self.cluster_queue_of(workload)
            if cluster_queue is None:
                self.set_pending(workload, "Inadmissible", problem, now)
                continue
            pending_by_queue.setdefault(cluster_queue["metadata"]["name"], (cluster_queue, []))[1].append(workload)
        for cq_name, (cluster_queue, pending) in sorted(pending_by_queue.items()):
            usage = self.cluster_queue_usage(cq_name)
            strict = (cluster_queue.get("spec") or {}).get("queueingStrategy") == "StrictFIFO"
            stopped = (cluster_queue.get("spec") or {}).get("stopPolicy", "None") != "None"
            blocked = False
            for workload in self.queue_order(pending):
                if stopped:
                    self.set_pending(workload, "Inadmissible", f"ClusterQueue {cq_name} is inactive", now)
                    continue
                if blocked:
                    continue  # StrictFIFO: nothing passes the head
                assignment = assign_flavors(self.store, cluster_queue, workload, usage)
                if assignment.fits():
                    self.admit(cluster_queue, workload, assignment, now)
                    for key, amount in assignment.usage.items():
                        usage[key] = usage.get(key, 0.0) + amount
                    continue
                message = "; ".join(assignment.problems)
                victims = self.preemption_targets(cluster_queue, workload)
                if victims:
                    count = len(victims)
                    for victim in victims:
                        self.evict(victim, "Preempted",
                                   f"Preempted to accommodate a workload (UID: {workload['metadata']['uid']}, "
                                   f"JobUID: {workload['metadata'].get('labels', {}).get(JOB_UID_LABEL, 'UNKNOWN')}) "
                                   "due to prioritization in the ClusterQueue", now, preempted_reason="InClusterQueue")
                    message += f". Pending the preemption of {count} workload(s)"
                    usage = self.cluster_queue_usage(cq_name)
                self.set_pending(workload, "Pending", message, now)
                blocked = strict

    def preemption_targets(self, cluster_queue, workload):
        """The fewest lower-priority admitted Workloads whose quota makes room (withinClusterQueue)."""
        policy = ((cluster_queue.get("spec") or {}).get("preemption") or {}).get("withinClusterQueue", "Never")
        if policy not in ("LowerPriority", "LowerOrNewerEqualPriority"):
            return []
        mine = self.priority(workload)
        created = workload["metadata"].get("creationTimestamp", "")
        cq_name = cluster_queue["metadata"]["name"]
        candidates = []
        for other in self.store.items(WORKLOADS):
            if not self.holds_quota(other) or other["status"]["admission"].get("clusterQueue") != cq_name:
                continue
            theirs = self.priority(other)
            if theirs < mine or (policy == "LowerOrNewerEqualPriority" and theirs == mine
                                 and other["metadata"].get("creationTimestamp", "") > created):
                candidates.append(other)
        # Lowest priority first; among equals the most recently created first.
        candidates.sort(key=lambda w: w["metadata"].get("creationTimestamp", ""), reverse=True)
        candidates.sort(key=self.priority)
        chosen = []
        for candidate in candidates:
            chosen.append(candidate)
            excluded = {w["metadata"]["uid"] for w in chosen}
            if assign_flavors(self.store, cluster_queue, workload, self.cluster_queue_usage(cq_name, excluded)).fits():
                return chosen
        return []

    def set_pending(self, workload, reason, message, now):
        old = conditions_of(workload).get("QuotaReserved") or {}
        requests = [{"name": ps.get("name", "main"),
                     "resources": {r: format_quantity(r, v) for r, v in sorted(self.requests_of(ps).items())}}
                    for ps in workload["spec"].get("podSets") or []]
        if old.get("status") == "False" and old.get("reason") == reason and old.get("message") == message \
                and workload["status"].get("resourceRequests") == requests:
            return
        set_condition(workload, "QuotaReserved", "False", reason, message, now)
        workload["status"]["resourceRequests"] = requests
        self.store.put(WORKLOADS, workload)
        self.events.record(workload, "Normal", reason, message, ADMISSION, now=now)

    def requests_of(self, pod_set):
        try:
            return PodSetRequest(pod_set.get("name", "main"), pod_set.get("count", 1),
                                 pod_set.get("template") or {}).total
        except ApiError:
            return {}

    def admit(self, cluster_queue, workload, assignment, now):
        cq_name = cluster_queue["metadata"]["name"]
        status = workload.setdefault("status", {})
        status["admission"] = {"clusterQueue": cq_name, "podSetAssignments": [
            {"name": request.name, "flavors": dict(sorted(flavors.items())),
             "resourceUsage": {r: format_quantity(r, v) for r, v in sorted(request.total.items())},
             "count": request.count}
            for request, flavors in assignment.assignments]}
        status.pop("resourceRequests", None)
        queued_at = parse_rfc3339(workload["metadata"].get("creationTimestamp")) or now
        set_condition(workload, "QuotaReserved", "True", "QuotaReserved",
                      f"Quota reserved in ClusterQueue {cq_name}", now)
        set_condition(workload, "Admitted", "True", "Admitted", "The workload is admitted", now)
        for type_ in ("Evicted", "Preempted"):
            previous = conditions_of(workload).get(type_)
            if previous and previous.get("status") == "True":
                set_condition(workload, type_, "False", "QuotaReserved",
                              "Previously: " + previous.get("message", ""), now)
        if (conditions_of(workload).get("Requeued") or {}).get("status") == "True":
            set_condition(workload, "Requeued", "False", "QuotaReserved", "Quota reserved", now)
        self.store.put(WORKLOADS, workload)
        self.events.record(workload, "Normal", "QuotaReserved",
                           f"Quota reserved in ClusterQueue {cq_name}, wait time since queued was "
                           f"{max(0, int(now - queued_at))}s", ADMISSION, now=now)
        self.events.record(workload, "Normal", "Admitted",
                           f"Admitted by ClusterQueue {cq_name}, wait time since reservation was 0s",
                           ADMISSION, now=now)

    # Queue statuses
    def update_queue_statuses(self, now):
        workloads = self.store.items(WORKLOADS)
        for cluster_queue in self.store.items(CLUSTER_QUEUES):
            name = cluster_queue["metadata"]["name"]
            local_names = {(q["metadata"]["namespace"], q["metadata"]["name"]) for q in self.store.items(LOCAL_QUEUES)
                           if (q.get("spec") or {}).get("clusterQueue") == name}
            mine = [w for w in workloads
                    if ((w.get("status") or {}).get("admission") or {}).get("clusterQueue") == name
                    or (not (w.get("status") or {}).get("admission")
                        and (w["metadata"]["namespace"], w["spec"].get("queueName")) in local_names)]
            status = self.queue_status(cluster_queue, mine, "flavorsUsage", with_borrowed=True)
            missing = self.missing_flavors(cluster_queue)
            if missing:
                active = ("False", "FlavorNotFound",
                          f"Can't admit new workloads: references missing ResourceFlavor(s): {missing}.")
            elif (cluster_queue.get("spec") or {}).get("stopPolicy", "None") != "None":
                active = ("False", "Stopped", "Can't admit new workloads: is stopped.")
            else:
                active = ("True", "Ready", "Can admit new workloads")
            self.write_status(CLUSTER_QUEUES, cluster_queue, status, active, now)
        for local in self.store.items(LOCAL_QUEUES):
            namespace, name = local["metadata"]["namespace"], local["metadata"]["name"]
            cq_name = (local.get("spec") or {}).get("clusterQueue", "")
            cluster_queue = self.store.get(CLUSTER_QUEUES, "", cq_name)
            mine = [w for w in workloads if w["metadata"]["namespace"] == namespace and w["spec"].get("queueName") == name]
            status = self.queue_status(cluster_queue or {"spec": {}}, mine, "flavorUsage", with_borrowed=False)
            if cluster_queue is None:
                active = ("False", "ClusterQueueDoesNotExist", "Can't submit new workloads to clusterQueue")
            else:
                active = ("True", "Ready", "Can submit new workloads to localQueue")
            self.write_status(LOCAL_QUEUES, local, status, active, now)

    def queue_status(self, cluster_queue, workloads, usage_field, with_borrowed):
        reserved = {}
        pending = reserving = admitted = 0
        for workload in workloads:
            if is_true(workload, "Finished"):
                continue
            if self.holds_quota(workload):
                reserving += 1
                admitted += is_true(workload, "Admitted")
                for key, amount in self.usage_of(workload).items():
                    reserved[key] = reserved.get(key, 0.0) + amount
            elif self.is_pending(workload):
                pending += 1
        flavors = []
        for group in (cluster_queue.get("spec") or {}).get("resourceGroups") or []:
            for flavor in group.get("flavors") or []:
                resources = []
                for quota in flavor.get("resources") or []:
                    entry = {"name": quota.get("name"),
                             "total": format_quantity(quota.get("name", ""),
                                                      reserved.get((flavor.get("name"), quota.get("name")), 0.0))}
                    if with_borrowed:
                        entry["borrowed"] = "0"
                    resources.append(entry)
                flavors.append({"name": flavor.get("name"), "resources": resources})
        return {"flavorsReservation": flavors, usage_field: json.loads(json.dumps(flavors)),
                "pendingWorkloads": pending, "reservingWorkloads": reserving, "admittedWorkloads": admitted}

    def write_status(self, resource, obj, status, active, now):
        old = obj.get("status") or {}
        previous = next((c for c in old.get("conditions") or [] if c.get("type") == "Active"), None)
        status["conditions"] = [condition("Active", *active, now, previous)]
        if status != old:
            obj["status"] = status
            self.store.put(resource, obj)

    # What the visibility API (kueue_visibility.py) shows
    def pending_in_cluster_queue(self, cq_name):
        """[(workload, position in ClusterQueue, position in LocalQueue)], queue order."""
        order = self.queue_order([w for w in self.store.items(WORKLOADS) if self.is_pending(w)
                                  and (self.cluster_queue_of(w)[0] or {}).get("metadata", {}).get("name") == cq_name])
        result, per_local = [], {}
        for position, workload in enumerate(order):
            key = (workload["metadata"]["namespace"], workload["spec"].get("queueName"))
            local_position = per_local.get(key, 0)
            per_local[key] = local_position + 1
            result.append((workload, position, local_position))
        return result
