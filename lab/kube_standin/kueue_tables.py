"""Table columns and cells of Kueue's custom resources, from their CRDs'
additionalPrinterColumns (kubectl get clusterqueues / localqueues / workloads / resourceflavors)."""

import time

from store import parse_rfc3339
from tables import human_duration


def column(name, type_, description, priority=0, format_=""):
    return {"name": name, "type": type_, "format": format_, "description": description, "priority": priority}


NAME = column("Name", "string", "Name must be unique within a namespace. Is required when creating resources, "
              "although some resources may allow a client to request the generation of an appropriate name "
              "automatically. Name is primarily intended for creation idempotence and configuration definition. "
              "Cannot be updated. More info: "
              "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", format_="name")
AGE = column("Age", "date", "CreationTimestamp is a timestamp representing the server time when this object was "
             "created. It is not guaranteed to be set in happens-before order across separate operations. Clients "
             "may not set this value. It is represented in RFC3339 form and is in UTC.")

COLUMNS = {
    "resourceflavors": [NAME, AGE],
    "clusterqueues": [
        NAME, column("Cohort", "string", "Cohort that this ClusterQueue belongs to"),
        column("Strategy", "string", "The queueing strategy used to prioritize workloads", 1),
        column("Pending Workloads", "integer", "Number of pending workloads"),
        column("Admitted Workloads", "integer", "Number of admitted workloads that haven't finished yet", 1),
        AGE],
    "localqueues": [
        NAME, column("ClusterQueue", "string", "Backing ClusterQueue"),
        column("Pending Workloads", "integer", "Number of pending workloads"),
        column("Admitted Workloads", "integer", "Number of admitted workloads that haven't finished yet"),
        AGE],
    "workloads": [
        NAME, column("Queue", "string", "Name of the queue this workload was submitted to"),
        column("Reserved in", "string", "Name of the ClusterQueue where the workload is reserving quota"),
        column("Admitted", "string", "Admission status"),
        column("Finished", "string", "Workload finished"),
        column("Age", "date", "Time this workload was created")],
    "workloadpriorityclasses": [
        NAME, column("Value", "integer", "Value of workloadPriorityClass's Priority"), AGE],
}


def human_age(timestamp, now):
    created = parse_rfc3339(timestamp)
    return "<unknown>" if created is None else human_duration(now - created)


def condition_status(obj, type_):
    for c in (obj.get("status") or {}).get("conditions") or []:
        if c.get("type") == type_:
            return c.get("status")
    return None


def cells(resource, obj, now):
    spec, status = obj.get("spec") or {}, obj.get("status") or {}
    age = human_age(obj["metadata"].get("creationTimestamp"), now)
    name = obj["metadata"]["name"]
    if resource == "clusterqueues":
        return [name, spec.get("cohort"), spec.get("queueingStrategy"), status.get("pendingWorkloads"),
                status.get("admittedWorkloads"), age]
    if resource == "localqueues":
        return [name, spec.get("clusterQueue"), status.get("pendingWorkloads"), status.get("admittedWorkloads"), age]
    if resource == "workloads":
        return [name, spec.get("queueName"), (status.get("admission") or {}).get("clusterQueue"),
                condition_status(obj, "Admitted"), condition_status(obj, "Finished"), age]
    if resource == "workloadpriorityclasses":
        return [name, obj.get("value"), age]
    return [name, age]


CELLS = {resource: (lambda r: lambda obj, now: cells(r, obj, time.time() if now is None else now))(resource)
         for resource in COLUMNS}
