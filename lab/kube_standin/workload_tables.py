"""Table columns and cells of the workload kinds: apps/v1 as the API server prints them, the
custom resources from their CRDs' additionalPrinterColumns (then Age), as `kubectl get` shows them."""

from tables import AGE, NAME, age, column

CONTAINERS = column("Containers", "string", "Names of each container in the template.", 1)
IMAGES = column("Images", "string", "Images referenced by each container in the template.", 1)
SELECTOR = column("Selector", "string", "Label selector for pods.", 1)
DATE_AGE = column("Age", "date", AGE["description"])

COLUMNS = {
    "deployments": [NAME, column("Ready", "string", "Number of the pod with ready state"),
                    column("Up-to-date", "string", "Total number of non-terminated pods targeted by this "
                           "deployment that have the desired template spec."),
                    column("Available", "string", "Total number of available pods (ready for at least "
                           "minReadySeconds) targeted by this deployment."), AGE, CONTAINERS, IMAGES, SELECTOR],
    "replicasets": [NAME, column("Desired", "integer", "Replicas is the number of desired replicas."),
                    column("Current", "integer", "Replicas is the most recently observed number of replicas."),
                    column("Ready", "integer", "The number of ready replicas for this replica set."),
                    AGE, CONTAINERS, IMAGES, SELECTOR],
    "statefulsets": [NAME, column("Ready", "string", "Number of the pod with ready state"), AGE,
                     CONTAINERS, IMAGES],
    "pytorchjobs": [NAME, column("State", "string", ""), DATE_AGE],
    "mpijobs": [NAME, DATE_AGE],
    "trainjobs": [NAME, column("State", "string", ""), DATE_AGE],
    "jobsets": [NAME, column("TerminalState", "string", "Final state of JobSet"),
                column("Restarts", "string", "Number of restarts"),
                column("Completed", "string", "JobSet completed"),
                column("Suspended", "string", "JobSet suspended"), DATE_AGE],
    "rayjobs": [NAME, column("job status", "string", ""), column("deployment status", "string", ""),
                column("ray cluster name", "string", ""), column("start time", "string", ""),
                column("end time", "string", ""), DATE_AGE],
    "rayclusters": [NAME, column("desired workers", "integer", ""), column("available workers", "integer", ""),
                    column("cpus", "string", ""), column("memory", "string", ""), column("gpus", "string", ""),
                    column("status", "string", ""), DATE_AGE, column("head pod IP", "string", "", 1),
                    column("head service IP", "string", "", 1)],
    "leaderworkersets": [NAME, DATE_AGE],
    "hyperpodpytorchjobs": [NAME, column("State", "string", ""), DATE_AGE],
}


def template_columns(template):
    containers = ((template or {}).get("spec") or {}).get("containers") or []
    return [",".join(c.get("name", "") for c in containers), ",".join(c.get("image", "") for c in containers)]


def selector_text(spec):
    return ",".join(f"{k}={v}" for k, v in sorted(((spec.get("selector") or {}).get("matchLabels") or {}).items())) \
        or "<none>"


def last_condition(obj):
    conditions = [c for c in obj.get("status", {}).get("conditions") or [] if c.get("status") == "True"]
    return conditions[-1]["type"] if conditions else ""


def condition_status(obj, type_):
    return next((c.get("status", "") for c in obj.get("status", {}).get("conditions") or [] if c.get("type") == type_), "")


def created(obj, now):
    return age(obj["metadata"].get("creationTimestamp"), now)


def deployment_cells(obj, now):
    spec, status = obj["spec"], obj.get("status", {})
    return [obj["metadata"]["name"], f"{status.get('readyReplicas', 0)}/{spec.get('replicas', 1)}",
            status.get("updatedReplicas", 0), status.get("availableReplicas", 0), created(obj, now),
            *template_columns(spec.get("template")), selector_text(spec)]


def replicaset_cells(obj, now):
    spec, status = obj["spec"], obj.get("status", {})
    return [obj["metadata"]["name"], spec.get("replicas", 1), status.get("replicas", 0),
            status.get("readyReplicas", 0), created(obj, now), *template_columns(spec.get("template")),
            selector_text(spec)]


def statefulset_cells(obj, now):
    spec, status = obj["spec"], obj.get("status", {})
    return [obj["metadata"]["name"], f"{status.get('readyReplicas', 0)}/{spec.get('replicas', 1)}",
            created(obj, now), *template_columns(spec.get("template"))]


def state_cells(obj, now):
    return [obj["metadata"]["name"], last_condition(obj), created(obj, now)]


def jobset_cells(obj, now):
    status = obj.get("status", {})
    return [obj["metadata"]["name"], status.get("terminalState", ""), str(status.get("restarts", 0)),
            condition_status(obj, "Completed"), str(bool(obj["spec"].get("suspend"))).lower(), created(obj, now)]


def rayjob_cells(obj, now):
    status = obj.get("status", {})
    return [obj["metadata"]["name"], status.get("jobStatus", ""), status.get("jobDeploymentStatus", ""),
            status.get("rayClusterName", ""), status.get("startTime", ""), status.get("endTime", ""),
            created(obj, now)]


def raycluster_cells(obj, now):
    status = obj.get("status", {})
    return [obj["metadata"]["name"], status.get("desiredWorkerReplicas", 0), status.get("availableWorkerReplicas", 0),
            status.get("desiredCPU", "0"), status.get("desiredMemory", "0"), status.get("desiredGPU", "0"),
            status.get("state", ""), created(obj, now), (status.get("head") or {}).get("podIP", ""),
            (status.get("head") or {}).get("serviceIP", "")]


def name_age_cells(obj, now):
    return [obj["metadata"]["name"], created(obj, now)]


CELLS = {"deployments": deployment_cells, "replicasets": replicaset_cells, "statefulsets": statefulset_cells,
         "pytorchjobs": state_cells, "mpijobs": name_age_cells, "trainjobs": state_cells,
         "jobsets": jobset_cells, "rayjobs": rayjob_cells, "rayclusters": raycluster_cells,
         "leaderworkersets": name_age_cells, "hyperpodpytorchjobs": state_cells}
