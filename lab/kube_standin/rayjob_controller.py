"""RayJob (ray.io/v1) as KubeRay's operator runs it in K8sJobMode: a RayCluster NAME-xxxxx from
spec.rayClusterSpec (owned by the RayJob), once it is ready a submitter batch/v1 Job NAME that runs
`ray job submit --address http://CLUSTER-head-svc.NS.svc.cluster.local:8265 --submission-id ID --
ENTRYPOINT` in the head's image; jobStatus follows the submitter (PENDING, RUNNING, SUCCEEDED,
FAILED: the stand-in has no Ray dashboard to ask), jobDeploymentStatus Initializing, Running,
Complete, Failed, Suspended. spec.suspend: no cluster and no submitter (Kueue admits a RayJob by
unsuspending it). shutdownAfterJobFinishes deletes the cluster when the job ends.
Runs on the controller thread with the store lock held.
"""

import copy
import shlex

from admission import default_job, random_suffix
from garbage_collector import controller_reference, delete_with_dependents
from store import now_rfc3339
from workload_objects import condition_true, make_child, record, status_before, store_if_changed


class RayJobController:
    def __init__(self, store):
        self.store = store
        self.events = None

    def tick(self, index, now):
        stamp = now_rfc3339(now)
        for rayjob in self.store.items("rayjobs"):
            before = status_before(rayjob)
            self.reconcile(rayjob, index, stamp)
            store_if_changed(self.store, "rayjobs", rayjob, before)

    def submitter(self, rayjob, cluster, job_id):
        name, namespace = rayjob["metadata"]["name"], rayjob["metadata"]["namespace"]
        head = (((rayjob["spec"].get("rayClusterSpec") or {}).get("headGroupSpec") or {})
                .get("template") or {}).get("spec", {}).get("containers") or [{}]
        address = f"http://{cluster}-head-svc.{namespace}.svc.cluster.local:8265"
        entrypoint = rayjob["spec"].get("entrypoint", "")
        try:
            words = shlex.split(entrypoint)
        except ValueError:
            words = [entrypoint]
        command = ["ray", "job", "submit", "--address", address, "--submission-id", job_id, "--"] + words
        template = copy.deepcopy((rayjob["spec"].get("submitterPodTemplate") or {}))
        template.setdefault("metadata", {})
        pod_spec = template.setdefault("spec", {})
        pod_spec.setdefault("restartPolicy", "Never")
        if not pod_spec.get("containers"):
            pod_spec["containers"] = [{"name": "ray-job-submitter", "image": head[0].get("image", "rayproject/ray"),
                                       "resources": {"limits": {"cpu": "1", "memory": "1Gi"},
                                                     "requests": {"cpu": "500m", "memory": "200Mi"}}}]
        if not pod_spec["containers"][0].get("command"):
            pod_spec["containers"][0]["command"] = command
        pod_spec["containers"][0].setdefault("env", []).extend([
            {"name": "RAY_DASHBOARD_ADDRESS", "value": address.split("//", 1)[1]},
            {"name": "RAY_JOB_SUBMISSION_ID", "value": job_id}])
        job = {"apiVersion": "batch/v1", "kind": "Job",
               "metadata": {"name": name, "labels": {"app.kubernetes.io/created-by": "kuberay-operator",
                                                     "ray.io/originated-from-crd": "RayJob",
                                                     "ray.io/originated-from-cr-name": name},
                            "ownerReferences": [controller_reference(rayjob)]},
               "spec": {"backoffLimit": rayjob["spec"].get("submitterConfig", {}).get("backoffLimit", 2),
                        "template": template}}
        default_job(job, namespace)
        record(self.events, rayjob, "Normal", "CreatedRayJobSubmitter", f"Created Kubernetes Job {namespace}/{name}",
               "rayjob-controller")
        return self.store.put("jobs", job)

    def reconcile(self, rayjob, index, stamp):
        spec, status = rayjob["spec"], rayjob.setdefault("status", {})
        namespace = rayjob["metadata"]["namespace"]
        deployment = status.get("jobDeploymentStatus", "")
        if deployment in ("Complete", "Failed"):
            return
        clusters = index.children(rayjob, "rayclusters")
        submitters = index.children(rayjob, "jobs")
        status["observedGeneration"] = rayjob["metadata"].get("generation", 1)
        if spec.get("suspend"):
            for cluster in clusters:
                delete_with_dependents(self.store, "rayclusters", cluster, "Background")
            for job in submitters:
                delete_with_dependents(self.store, "jobs", job, "Background")
            for field in ("rayClusterName", "dashboardURL", "rayClusterStatus", "startTime", "jobId"):
                status.pop(field, None)
            status.update({"jobDeploymentStatus": "Suspended", "jobStatus": ""})
            return
        if not clusters:
            if spec.get("rayClusterSpec") is None:
                return
            name = f"{rayjob['metadata']['name']}-{random_suffix()}"
            cluster = make_child(self.store, rayjob, "rayclusters", name, copy.deepcopy(spec["rayClusterSpec"]),
                                 labels={"ray.io/originated-from-crd": "RayJob",
                                         "ray.io/originated-from-cr-name": rayjob["metadata"]["name"]})
            self.store.put("rayclusters", cluster)
            clusters = [cluster]
            record(self.events, rayjob, "Normal", "CreatedRayCluster", f"Created RayCluster {namespace}/{name}",
                   "rayjob-controller")
            status.update({"jobDeploymentStatus": "Initializing", "jobStatus": "", "startTime": stamp,
                           "jobId": f"{rayjob['metadata']['name']}-{random_suffix()}"})
        cluster = clusters[0]
        cluster_name = cluster["metadata"]["name"]
        status["rayClusterName"] = cluster_name
        status["dashboardURL"] = f"{cluster_name}-head-svc.{namespace}.svc.cluster.local:8265"
        status["rayClusterStatus"] = copy.deepcopy(cluster.get("status", {}))
        status.setdefault("jobId", f"{rayjob['metadata']['name']}-{random_suffix()}")
        if cluster.get("status", {}).get("state") != "ready" and not submitters:
            status["jobDeploymentStatus"] = "Initializing"
            return
        if not submitters:
            submitters = [self.submitter(rayjob, cluster_name, status["jobId"])]
            status["jobStatus"] = "PENDING"
        job = submitters[0]
        status["jobDeploymentStatus"] = "Running"
        if job.get("status", {}).get("ready"):
            status["jobStatus"] = "RUNNING"
        if condition_true(job, "Complete") or condition_true(job, "Failed"):
            succeeded = condition_true(job, "Complete")
            status.update({"jobStatus": "SUCCEEDED" if succeeded else "FAILED",
                           "jobDeploymentStatus": "Complete" if succeeded else "Failed", "endTime": stamp})
            if not succeeded:
                status["reason"], status["message"] = "AppFailed", "the submitter Job failed"
            if spec.get("shutdownAfterJobFinishes"):
                delete_with_dependents(self.store, "rayclusters", cluster, "Background")
