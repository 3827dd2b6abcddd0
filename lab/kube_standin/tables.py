"""Server-side printing: `Table` responses (meta.k8s.io/v1) with the real server's columns.

kubectl asks for `application/json;as=Table;v=v1;g=meta.k8s.io` for its default and `-o wide`
output and prints the cells as sent; priority-1 columns show only with `-o wide`.
"""

import time

from store import parse_rfc3339

NAME_DOC = ("Name must be unique within a namespace. Is required when creating resources, "
            "although some resources may allow a client to request the generation of an "
            "appropriate name automatically. Name is primarily intended for creation "
            "idempotence and configuration definition. Cannot be updated. More info: "
            "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names")
AGE_DOC = ("CreationTimestamp is a timestamp representing the server time when this object was "
           "created. It is not guaranteed to be set in happens-before order across separate "
           "operations. Clients may not set this value. It is represented in RFC3339 form and "
           "is in UTC.")


def column(name, type_, description, priority=0, format_=""):
    return {"name": name, "type": type_, "format": format_, "description": description,
            "priority": priority}


NAME = column("Name", "string", NAME_DOC, format_="name")
AGE = column("Age", "string", AGE_DOC)

COLUMNS = {
    "nodes": [
        NAME, column("Status", "string", "The status of the node"),
        column("Roles", "string", "The roles of the node"), AGE,
        column("Version", "string", "Kubelet Version reported by the node."),
        column("Internal-IP", "string", "List of addresses reachable to the node.", 1),
        column("External-IP", "string", "List of addresses reachable to the node.", 1),
        column("OS-Image", "string", "OS Image reported by the node from /etc/os-release "
               "(e.g. Debian GNU/Linux 7 (wheezy)).", 1),
        column("Kernel-Version", "string", "Kernel Version reported by the node from "
               "'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
        column("Container-Runtime", "string", "ContainerRuntime Version reported by the node "
               "through runtime remote API (e.g. containerd://1.4.2).", 1),
    ],
    "pods": [
        NAME,
        column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
        column("Status", "string", "The aggregate status of the containers in this pod."),
        column("Restarts", "string", "The number of times the containers in this pod have been "
               "restarted and when the last container in this pod has restarted."),
        AGE,
        column("IP", "string", "podIP address allocated to the pod. Routable at least within "
               "the cluster. Empty if not yet allocated.", 1),
        column("Node", "string", "NodeName indicates in which node this pod is scheduled.", 1),
        column("Nominated Node", "string", "nominatedNodeName is set when this pod preempts "
               "one or more pods on the node.", 1),
        column("Readiness Gates", "string", "If specified, all readiness gates will be "
               "evaluated for pod readiness.", 1),
    ],
    "jobs": [
        NAME, column("Status", "string", "Status of the job."),
        column("Completions", "string", "The completion status of the job."),
        column("Duration", "string", "Time required to complete the job."), AGE,
        column("Containers", "string", "Names of each container in the template.", 1),
        column("Images", "string", "Images referenced by each container in the template.", 1),
        column("Selector", "string", "A label query over pods that should match the pod count.", 1),
    ],
    "namespaces": [NAME, column("Status", "string", "The status of the namespace"), AGE],
    "services": [
        NAME, column("Type", "string", "The type of the service."),
        column("Cluster-IP", "string", "The cluster IP of the service."),
        column("External-IP", "string", "The external IP of the service."),
        column("Port(s)", "string", "The port(s) of the service."), AGE,
        column("Selector", "string", "The label selector of the service.", 1),
    ],
    "events": [
        column("Last Seen", "string", "The last time this event occurred."),
        column("Type", "string", "Type of this event (Normal, Warning)."),
        column("Reason", "string", "Why the action was taken."),
        column("Object", "string", "The object this Event is about."),
        column("Message", "string", "A human-readable description of the status of this operation."),
    ],
}


def human_duration(seconds):
    """k8s.io/apimachinery/pkg/util/duration.HumanDuration."""
    if seconds < -1:
        return "<invalid>"
    if seconds < 0:
        return "0s"
    s = int(seconds)
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        return f"{minutes}m" if s % 60 == 0 else f"{minutes}m{s % 60}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = minutes // 60
    if hours < 8:
        return f"{hours}h" if minutes % 60 == 0 else f"{hours}h{minutes % 60}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 192:
        return f"{hours // 24}d" if hours % 24 == 0 else f"{hours // 24}d{hours % 24}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        years, days = hours // 24 // 365, (hours // 24) % 365
        return f"{years}y" if days == 0 else f"{years}y{days}d"
    return f"{hours // 24 // 365}y"


def age(timestamp, now):
    start = parse_rfc3339(timestamp)
    return "<unknown>" if start is None else human_duration(now - start)


def node_cells(node, now):
    conditions = {c["type"]: c["status"] for c in node.get("status", {}).get("conditions", [])}
    status = ["Unknown" if "Ready" not in conditions else
              "Ready" if conditions["Ready"] == "True" else "NotReady"]
    if node["spec"].get("unschedulable"):
        status.append("SchedulingDisabled")
    labels = node["metadata"].get("labels") or {}
    roles = sorted({k[len("node-role.kubernetes.io/"):] for k in labels
                    if k.startswith("node-role.kubernetes.io/")} |
                   ({labels["kubernetes.io/role"]} if labels.get("kubernetes.io/role") else set()))
    addresses = node.get("status", {}).get("addresses", [])

    def address(kind):
        return next((a["address"] for a in addresses if a["type"] == kind), "<none>")

    info = node.get("status", {}).get("nodeInfo", {})
    return [node["metadata"]["name"], ",".join(status), ",".join(roles) or "<none>",
            age(node["metadata"].get("creationTimestamp"), now), info.get("kubeletVersion", ""),
            address("InternalIP"), address("ExternalIP"), info.get("osImage", "<unknown>"),
            info.get("kernelVersion", "<unknown>"), info.get("containerRuntimeVersion", "<unknown>")]


def pod_cells(pod, now):
    status = pod.get("status", {})
    reason = status.get("reason") or status.get("phase") or "Pending"
    statuses = status.get("containerStatuses") or []
    containers = pod["spec"].get("containers") or []
    restarts, ready, running, last_restart = 0, 0, False, None
    for cs in reversed(statuses):
        restarts += cs.get("restartCount", 0)
        finished = (cs.get("lastState") or {}).get("terminated", {}).get("finishedAt")
        if finished:
            t = parse_rfc3339(finished)
            last_restart = t if last_restart is None else max(last_restart, t)
        state = cs.get("state") or {}
        if state.get("waiting", {}).get("reason"):
            reason = state["waiting"]["reason"]
        elif "terminated" in state:
            terminated = state["terminated"]
            reason = terminated.get("reason") or (
                f"Signal:{terminated['signal']}" if terminated.get("signal")
                else f"ExitCode:{terminated.get('exitCode', 0)}")
        elif "running" in state and cs.get("ready"):
            running = True
        if cs.get("ready") and "running" in state:
            ready += 1
    if reason == "Completed" and running:
        reason = "Running"
    if pod["metadata"].get("deletionTimestamp"):
        reason = "Terminating"
    restart_text = str(restarts)
    if last_restart is not None and restarts:
        restart_text = f"{restarts} ({human_duration(now - last_restart)} ago)"
    gates = pod["spec"].get("readinessGates") or []
    return [pod["metadata"]["name"], f"{ready}/{len(containers)}", reason, restart_text,
            age(pod["metadata"].get("creationTimestamp"), now), status.get("podIP") or "<none>",
            pod["spec"].get("nodeName") or "<none>", status.get("nominatedNodeName") or "<none>",
            f"0/{len(gates)}" if gates else "<none>"]


def job_cells(job, now):
    spec, status = job["spec"], job.get("status", {})
    conditions = {c["type"]: c["status"] for c in status.get("conditions", [])}
    if conditions.get("Complete") == "True":
        state = "Complete"
    elif conditions.get("Failed") == "True":
        state = "Failed"
    elif job["metadata"].get("deletionTimestamp"):
        state = "Terminating"
    elif conditions.get("FailureTarget") == "True":
        state = "FailureTarget"
    elif conditions.get("Suspended") == "True":
        state = "Suspended"
    elif conditions.get("SuccessCriteriaMet") == "True":
        state = "SuccessCriteriaMet"
    else:
        state = "Running"
    succeeded = status.get("succeeded", 0)
    if spec.get("completions") is not None:
        completions = f"{succeeded}/{spec['completions']}"
    elif spec.get("parallelism", 0) > 1:
        completions = f"{succeeded}/1 of {spec['parallelism']}"
    else:
        completions = f"{succeeded}/1"
    start = parse_rfc3339(status.get("startTime"))
    end = parse_rfc3339(status.get("completionTime"))
    duration = "" if start is None else human_duration((end or now) - start)
    containers = spec["template"]["spec"].get("containers") or []
    selector = ",".join(f"{k}={v}" for k, v in
                        sorted((spec.get("selector") or {}).get("matchLabels", {}).items()))
    return [job["metadata"]["name"], state, completions, duration,
            age(job["metadata"].get("creationTimestamp"), now),
            ",".join(c.get("name", "") for c in containers),
            ",".join(c.get("image", "") for c in containers), selector or "<none>"]


def service_cells(service, now):
    spec = service.get("spec", {})
    ports = ",".join(f"{p.get('port')}/{p.get('protocol', 'TCP')}" for p in spec.get("ports") or [])
    selector = ",".join(f"{k}={v}" for k, v in sorted((spec.get("selector") or {}).items()))
    return [service["metadata"]["name"], spec.get("type", "ClusterIP"), spec.get("clusterIP", ""),
            "<none>", ports or "<none>", age(service["metadata"].get("creationTimestamp"), now),
            selector or "<none>"]


def namespace_cells(namespace, now):
    return [namespace["metadata"]["name"], namespace.get("status", {}).get("phase", ""),
            age(namespace["metadata"].get("creationTimestamp"), now)]


def event_cells(event, now):
    """printEvent: lastTimestamp, else (events.k8s.io recorders) the series' last observation or eventTime."""
    involved = event.get("involvedObject", {})
    last = (event.get("series") or {}).get("lastObservedTime") or event.get("lastTimestamp") \
        or event.get("eventTime")
    return [age(last, now), event.get("type", ""), event.get("reason", ""),
            f"{involved.get('kind', '').lower()}/{involved.get('name', '')}", event.get("message", "")]


CELLS = {"nodes": node_cells, "pods": pod_cells, "jobs": job_cells,
         "namespaces": namespace_cells, "events": event_cells, "services": service_cells}


def add_printers(columns, cells):
    """Columns and cells of more kinds (the workload kinds, the CRDs' printer columns)."""
    COLUMNS.update(columns)
    CELLS.update(cells)


def row_object(obj, include):
    if include == "None":
        return None
    if include == "Object":
        return obj
    return {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
            "metadata": obj["metadata"]}


def table(resource, objects, list_meta, include="Metadata", with_columns=True):
    now = time.time()
    rows = []
    for obj in objects:
        row = {"cells": CELLS[resource](obj, now)}
        embedded = row_object(obj, include)
        if embedded is not None:
            row["object"] = embedded
        rows.append(row)
    result = {"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": list_meta}
    if with_columns:
        result["columnDefinitions"] = COLUMNS[resource]
    result["rows"] = rows
    return result
