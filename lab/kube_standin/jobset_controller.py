"""JobSet (jobset.x-k8s.io/v1alpha2) as the JobSet controller makes it: per replicated Job RJ,
batch/v1 Jobs NAME-RJ-I (I < replicas), labelled and annotated jobset.sigs.k8s.io/{jobset-name,
replicatedjob-name,replicatedjob-replicas,job-index,job-global-index,job-key}, Indexed unless the
template says otherwise, their pods in the subdomain of the headless Service NAME
(network.enableDNSHostnames, default true); spec.suspend passed down to the Jobs (Kueue admits a
JobSet by unsuspending it). Status replicatedJobsStatus (ready/succeeded/failed/active/suspended
Jobs), terminalState, restarts and conditions Completed / Failed / Suspended in JobSet's words.
Runs on the controller thread with the store lock held.
"""

import copy
import hashlib

import services
from admission import default_job, default_metadata
from garbage_collector import controller_reference
from store import now_rfc3339
from workload_objects import (condition_true, operator_condition, record, set_operator_condition,
                              status_before, store_if_changed)

PREFIX = "jobset.sigs.k8s.io/"


def job_is(job, type_):
    return condition_true(job, type_)


def job_ready(job):
    status, spec = job.get("status", {}), job["spec"]
    return status.get("ready", 0) + status.get("succeeded", 0) >= spec.get("parallelism", 1)


class JobSetController:
    def __init__(self, store):
        self.store = store
        self.events = None

    def tick(self, index, now):
        stamp = now_rfc3339(now)
        for jobset in self.store.items("jobsets"):
            before = status_before(jobset)
            self.reconcile(jobset, index, stamp)
            store_if_changed(self.store, "jobsets", jobset, before)

    def ensure_service(self, jobset, subdomain):
        namespace = jobset["metadata"]["namespace"]
        if self.store.get("services", namespace, subdomain) is not None:
            return
        service = {"apiVersion": "v1", "kind": "Service",
                   "metadata": {"name": subdomain, "namespace": namespace,
                                "ownerReferences": [controller_reference(jobset)]},
                   "spec": {"clusterIP": "None", "publishNotReadyAddresses": True,
                            "selector": {PREFIX + "jobset-name": jobset["metadata"]["name"]}}}
        default_metadata(service, namespace)
        services.default_service(service)
        self.store.put("services", service)

    def make_job(self, jobset, rjob, index, global_index, subdomain, dns):
        name, namespace = jobset["metadata"]["name"], jobset["metadata"]["namespace"]
        job_name = f"{name}-{rjob['name']}-{index}"
        marks = {PREFIX + "jobset-name": name, PREFIX + "replicatedjob-name": rjob["name"],
                 PREFIX + "replicatedjob-replicas": str(rjob.get("replicas", 1)),
                 PREFIX + "job-index": str(index), PREFIX + "job-global-index": str(global_index),
                 PREFIX + "job-key": hashlib.sha1(f"{namespace}/{job_name}".encode()).hexdigest()}
        template = copy.deepcopy(rjob.get("template") or {})
        job_meta = template.get("metadata") or {}
        spec = template.get("spec") or {}
        spec.setdefault("completionMode", "Indexed")
        if spec["completionMode"] == "Indexed":
            spec.setdefault("completions", spec.get("parallelism", 1))
        spec["suspend"] = bool(jobset["spec"].get("suspend"))
        pod_template = spec.setdefault("template", {})
        pod_meta = pod_template.setdefault("metadata", {})
        pod_meta["labels"] = dict(pod_meta.get("labels") or {}, **marks)
        pod_meta["annotations"] = dict(pod_meta.get("annotations") or {}, **marks)
        if dns:
            pod_template.setdefault("spec", {}).setdefault("subdomain", subdomain)
        job = {"apiVersion": "batch/v1", "kind": "Job",
               "metadata": {"name": job_name, "labels": dict(job_meta.get("labels") or {}, **marks),
                            "annotations": dict(job_meta.get("annotations") or {}, **marks),
                            "ownerReferences": [controller_reference(jobset)]},
               "spec": spec}
        default_job(job, namespace)
        return self.store.put("jobs", job)

    def reconcile(self, jobset, index, stamp):
        meta, spec = jobset["metadata"], jobset["spec"]
        status = jobset.setdefault("status", {})
        status.setdefault("restarts", 0)
        if condition_true(jobset, "Completed") or condition_true(jobset, "Failed"):
            return
        network = spec.get("network") or {}
        dns = network.get("enableDNSHostnames", True)
        subdomain = network.get("subdomain") or meta["name"]
        if dns:
            self.ensure_service(jobset, subdomain)
        suspended = bool(spec.get("suspend"))
        jobs = {j["metadata"]["name"]: j for j in index.children(jobset, "jobs")}
        statuses, all_done, any_failed, global_index = [], True, None, 0
        for rjob in spec.get("replicatedJobs") or []:
            counts = {"name": rjob["name"], "ready": 0, "succeeded": 0, "failed": 0, "active": 0, "suspended": 0}
            for i in range(rjob.get("replicas", 1)):
                job = jobs.get(f"{meta['name']}-{rjob['name']}-{i}")
                if job is None:
                    job = self.make_job(jobset, rjob, i, global_index, subdomain, dns)
                elif bool(job["spec"].get("suspend")) != suspended:
                    job["spec"]["suspend"] = suspended
                    if not suspended:  # Kueue may have changed the pod templates while it waited
                        self.sync_template(job, rjob)
                    self.store.put("jobs", job)
                global_index += 1
                if job_is(job, "Complete"):
                    counts["succeeded"] += 1
                elif job_is(job, "Failed"):
                    counts["failed"] += 1
                    any_failed = any_failed or job["metadata"]["name"]
                elif job["spec"].get("suspend"):
                    counts["suspended"] += 1
                else:
                    counts["active"] += 1
                    if job_ready(job):
                        counts["ready"] += 1
                if not job_is(job, "Complete"):
                    all_done = False
            statuses.append(counts)
        status["replicatedJobsStatus"] = statuses
        if suspended:
            set_operator_condition(status, operator_condition("Suspended", "True", "SuspendedJobs",
                                                              "jobset is suspended", stamp))
        elif condition_true(jobset, "Suspended"):
            set_operator_condition(status, operator_condition("Suspended", "False", "ResumeJobs",
                                                              "jobset is resumed", stamp))
        if any_failed and not condition_true(jobset, "Failed"):
            record(self.events, jobset, "Warning", "FailedJobs", "jobset failed due to one or more job failures",
                   "jobset-controller")
        elif all_done and statuses and not condition_true(jobset, "Completed"):
            record(self.events, jobset, "Normal", "AllJobsCompleted", "jobset completed successfully",
                   "jobset-controller")
        if any_failed:
            set_operator_condition(status, operator_condition("Failed", "True", "FailedJobs",
                                                              "jobset failed due to one or more job failures", stamp))
            status["terminalState"] = "Failed"
        elif all_done and statuses:
            set_operator_condition(status, operator_condition("Completed", "True", "AllJobsCompleted",
                                                              "jobset completed successfully", stamp))
            status["terminalState"] = "Completed"
        for c in status.get("conditions") or []:
            c.pop("lastUpdateTime", None)  # JobSet writes metav1.Condition (no lastUpdateTime)

    @staticmethod
    def sync_template(job, rjob):
        """Node selectors and tolerations an admission put on the JobSet reach a suspended Job."""
        wanted = ((rjob.get("template") or {}).get("spec") or {}).get("template", {}).get("spec") or {}
        pod_spec = job["spec"]["template"]["spec"]
        for field in ("nodeSelector", "tolerations"):
            if field in wanted:
                pod_spec[field] = copy.deepcopy(wanted[field])
