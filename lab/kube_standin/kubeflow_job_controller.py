"""Kubeflow training jobs: PyTorchJob (kubeflow.org/v1, training-operator) and MPIJob
(kubeflow.org/v2beta1, mpi-operator v0.4+), reconciled as their operators do.

PyTorchJob: a pod per replica, NAME-master-0 and NAME-worker-I, labelled
training.kubeflow.org/{job-name,operator-name,replica-type,replica-index[,job-role]}, each
container given the operator's env (PYTHONUNBUFFERED, MASTER_ADDR/PORT and PET_ twins, WORLD_SIZE =
replicas x nprocPerNode, RANK, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_NNODES), a headless Service
NAME-master-0 for MASTER_ADDR; status.replicaStatuses per type and conditions Created, Running,
Succeeded (the master succeeded) or Failed (a replica failed for good), Suspended.
MPIJob: worker pods NAME-worker-I (hostname, subdomain NAME: the headless Service NAME) and the
launcher as a batch/v1 Job NAME-launcher whose end decides the MPIJob's.
runPolicy.suspend: no pods (launcher Job suspended); runPolicy.cleanPodPolicy on finish.
Runs on the controller thread with the store lock held.
"""

import copy

import services
from admission import default_job
from garbage_collector import controller_reference
from store import now_rfc3339
from workload_objects import (TERMINAL, condition_true, make_pod, operator_condition, phase,
                              record, set_operator_condition, status_before, store_if_changed)

PYTORCH_PORT_NAME, PYTORCH_DEFAULT_PORT = "pytorchjob-port", 23456


def replica_selector(job_name, operator, role):
    return (f"training.kubeflow.org/job-name={job_name},training.kubeflow.org/operator-name={operator},"
            f"training.kubeflow.org/replica-type={role.lower()}")


def restartable(pod, restart_policy):
    """A failed pod the operator replaces: restartPolicy OnFailure/Always, or ExitCode with a
    retryable exit code (128+signal: killed, as by a restart of the stand-in, exit 137)."""
    if restart_policy in ("OnFailure", "Always"):
        return True
    if restart_policy != "ExitCode":
        return False
    codes = [((cs.get("state") or {}).get("terminated") or {}).get("exitCode", 0)
             for cs in pod.get("status", {}).get("containerStatuses") or []]
    return any(code >= 128 for code in codes)


def master_port(job):
    master = job["spec"]["pytorchReplicaSpecs"].get("Master") or {}
    for container in ((master.get("template") or {}).get("spec") or {}).get("containers") or []:
        for port in container.get("ports") or []:
            if port.get("name") == PYTORCH_PORT_NAME:
                return port.get("containerPort", PYTORCH_DEFAULT_PORT)
    return PYTORCH_DEFAULT_PORT


COMPONENTS = {"PyTorchJob": "pytorchjob-controller", "MPIJob": "mpi-job-controller"}


class KubeflowJobController:
    def __init__(self, store):
        self.store = store
        self.events = None

    def event(self, job, type_, reason, message):
        record(self.events, job, type_, reason, message, COMPONENTS[job["kind"]])

    def tick(self, index, now):
        stamp = now_rfc3339(now)
        for resource in ("pytorchjobs", "mpijobs"):
            for job in self.store.items(resource):
                before = status_before(job)
                self.reconcile(resource, job, index, stamp)
                store_if_changed(self.store, resource, job, before)

    # Shared
    def reconcile(self, resource, job, index, stamp):
        kind, name, ns = job["kind"], job["metadata"]["name"], job["metadata"]["namespace"]
        spec, status = job["spec"], job.setdefault("status", {})
        run_policy = spec.get("runPolicy") or {}
        pods = index.children(job, "pods")
        set_operator_condition(status, operator_condition("Created", "True", f"{kind}Created",
                                                          f"{kind} {name} is created.", stamp))
        finished = condition_true(job, "Succeeded") or condition_true(job, "Failed")
        if finished:
            self.clean_pods(job, pods, run_policy.get("cleanPodPolicy", "None"))
            return
        if run_policy.get("suspend"):
            for pod in pods:
                self.store.remove("pods", ns, pod["metadata"]["name"])
            for launcher in index.children(job, "jobs"):
                if not launcher["spec"].get("suspend"):
                    launcher["spec"]["suspend"] = True
                    self.store.put("jobs", launcher)
            if condition_true(job, "Running"):
                set_operator_condition(status, operator_condition("Running", "False", f"{kind}Suspended",
                                                                  f"{kind} {name} is suspended.", stamp))
            set_operator_condition(status, operator_condition("Suspended", "True", f"{kind}Suspended",
                                                              f"{kind} {name} is suspended.", stamp))
            status.pop("startTime", None)
            status["replicaStatuses"] = {role: {} for role in self.roles(resource, job)}
            return
        if condition_true(job, "Suspended"):
            set_operator_condition(status, operator_condition("Suspended", "False", f"{kind}Resumed",
                                                              f"{kind} {name} is resumed.", stamp))
        status.setdefault("startTime", stamp)
        if resource == "pytorchjobs":
            self.reconcile_pytorch(job, pods, index, stamp)
        else:
            self.reconcile_mpi(job, pods, index, stamp)

    @staticmethod
    def roles(resource, job):
        return job["spec"]["pytorchReplicaSpecs" if resource == "pytorchjobs" else "mpiReplicaSpecs"]

    def clean_pods(self, job, pods, policy):
        for pod in pods:
            if policy == "All" or (policy == "Running" and phase(pod) not in TERMINAL):
                self.store.remove("pods", job["metadata"]["namespace"], pod["metadata"]["name"])

    def ensure_service(self, job, index, name, selector, ports):
        if any(s["metadata"]["name"] == name for s in index.children(job, "services")) \
                or self.store.get("services", job["metadata"]["namespace"], name) is not None:
            return
        service = {"apiVersion": "v1", "kind": "Service",
                   "metadata": {"name": name, "namespace": job["metadata"]["namespace"],
                                "labels": dict(selector), "ownerReferences": [controller_reference(job)]},
                   "spec": {"clusterIP": "None", "selector": dict(selector), "ports": ports}}
        from admission import default_metadata
        default_metadata(service, job["metadata"]["namespace"])
        services.default_service(service)
        self.store.put("services", service)
        self.event(job, "Normal", "SuccessfulCreateService", f"Created service: {name}")

    def finish(self, job, succeeded, reason_suffix, message, stamp):
        kind, status = job["kind"], job["status"]
        if condition_true(job, "Running"):
            set_operator_condition(status, operator_condition("Running", "False", f"{kind}{reason_suffix}",
                                                              message, stamp))
        set_operator_condition(status, operator_condition("Succeeded" if succeeded else "Failed", "True",
                                                          f"{kind}{reason_suffix}", message, stamp))
        self.event(job, "Normal" if succeeded else "Warning", f"{kind}{reason_suffix}", message)
        status["completionTime"] = stamp

    # PyTorchJob
    def reconcile_pytorch(self, job, pods, index, stamp):
        name, ns = job["metadata"]["name"], job["metadata"]["namespace"]
        spec, status = job["spec"], job["status"]
        roles = spec["pytorchReplicaSpecs"]
        total = sum(r.get("replicas", 1) for r in roles.values())
        nproc = str(spec.get("nprocPerNode") or "auto")
        world = total * (int(nproc) if nproc.isdigit() else 1)
        port = master_port(job)
        by_name = {p["metadata"]["name"]: p for p in pods}
        if "Master" in roles:
            self.ensure_service(job, index, f"{name}-master-0",
                                {"training.kubeflow.org/job-name": name,
                                 "training.kubeflow.org/operator-name": "pytorchjob-controller",
                                 "training.kubeflow.org/replica-type": "master",
                                 "training.kubeflow.org/replica-index": "0"},
                                [{"name": PYTORCH_PORT_NAME, "port": port, "targetPort": port}])
        replica_statuses, failed_roles, running_any = {}, [], False
        for role in ("Master", "Worker"):
            if role not in roles:
                continue
            replica = roles[role]
            restart_policy = replica.get("restartPolicy", "Never")
            counts = {"active": 0, "succeeded": 0, "failed": 0}
            for i in range(replica.get("replicas", 1)):
                pod_name = f"{name}-{role.lower()}-{i}"
                pod = by_name.get(pod_name)
                if pod is not None and phase(pod) == "Failed" and restartable(pod, restart_policy):
                    # The operator deletes such a pod and makes it again (the kubelet restarts a
                    # container in place; a whole pod fails so when its node or runtime went away).
                    self.store.remove("pods", ns, pod_name)
                    self.event(job, "Normal", "SuccessfulDeletePod", f"Deleted pod: {pod_name}")
                    pod = None
                if pod is None:
                    rank = i + (1 if role == "Worker" and "Master" in roles else 0)
                    labels = {"training.kubeflow.org/job-name": name,
                              "training.kubeflow.org/operator-name": "pytorchjob-controller",
                              "training.kubeflow.org/replica-type": role.lower(),
                              "training.kubeflow.org/replica-index": str(i)}
                    if role == "Master":
                        labels["training.kubeflow.org/job-role"] = "master"
                    env = [{"name": "PYTHONUNBUFFERED", "value": "0"}]
                    if "Master" in roles:
                        env += [{"name": "MASTER_PORT", "value": str(port)},
                                {"name": "PET_MASTER_PORT", "value": str(port)},
                                {"name": "MASTER_ADDR", "value": f"{name}-master-0"},
                                {"name": "PET_MASTER_ADDR", "value": f"{name}-master-0"},
                                {"name": "WORLD_SIZE", "value": str(world)},
                                {"name": "RANK", "value": str(rank)},
                                {"name": "PET_NPROC_PER_NODE", "value": nproc},
                                {"name": "PET_NODE_RANK", "value": str(rank)}]
                    env.append({"name": "PET_NNODES", "value": str(total)})
                    pod = make_pod(self.store, job, replica.get("template"), name=pod_name, labels=labels,
                                   env=env, restart_policy="Never" if restart_policy == "ExitCode" else restart_policy)
                    self.event(job, "Normal", "SuccessfulCreatePod", f"Created pod: {pod_name}")
                pod_phase = phase(pod)
                if pod_phase == "Succeeded":
                    counts["succeeded"] += 1
                elif pod_phase == "Failed":
                    counts["failed"] += 1
                else:
                    counts["active"] += 1
                    running_any = running_any or pod_phase == "Running"
            entry = {k: v for k, v in counts.items() if v}
            entry["selector"] = replica_selector(name, "pytorchjob-controller", role)
            replica_statuses[role] = entry
            if counts["failed"] and restart_policy in ("Never", "ExitCode"):
                failed_roles.append((role, counts["failed"]))
        status["replicaStatuses"] = replica_statuses
        done_role = "Master" if "Master" in roles else "Worker"
        done = replica_statuses[done_role].get("succeeded", 0) >= roles[done_role].get("replicas", 1)
        if failed_roles:
            role, count = failed_roles[0]
            self.finish(job, False, "Failed",
                        f"PyTorchJob {ns}/{name} has failed because {count} {role} replica(s) failed.", stamp)
        elif done:
            self.finish(job, True, "Succeeded", f"PyTorchJob {ns}/{name} successfully completed.", stamp)
        elif running_any:
            set_operator_condition(status, operator_condition("Running", "True", "PyTorchJobRunning",
                                                              f"PyTorchJob {ns}/{name} is running.", stamp))

    # MPIJob (v2beta1)
    def reconcile_mpi(self, job, pods, index, stamp):
        name, ns = job["metadata"]["name"], job["metadata"]["namespace"]
        spec, status = job["spec"], job["status"]
        roles = spec["mpiReplicaSpecs"]
        base = {"training.kubeflow.org/job-name": name, "training.kubeflow.org/operator-name": "mpi-operator"}
        self.ensure_service(job, index, name, dict(base, **{"training.kubeflow.org/job-role": "worker"}), [])
        worker = roles.get("Worker") or {}
        by_name = {p["metadata"]["name"]: p for p in pods}
        active = 0
        for i in range(worker.get("replicas", 0)):
            pod_name = f"{name}-worker-{i}"
            pod = by_name.get(pod_name)
            if pod is None or phase(pod) in TERMINAL:
                if pod is not None:
                    self.store.remove("pods", ns, pod_name)
                pod = make_pod(self.store, job, worker.get("template"), name=pod_name,
                               labels=dict(base, **{"training.kubeflow.org/job-role": "worker",
                                                    "training.kubeflow.org/replica-index": str(i)}),
                               env=[{"name": "K_MPI_JOB_ROLE", "value": "worker"}],
                               hostname=pod_name, subdomain=name)
                self.event(job, "Normal", "SuccessfulCreatePod", f"Created pod: {pod_name}")
            active += 1
        launchers = index.children(job, "jobs")
        launcher = launchers[0] if launchers else None
        if launcher is None and "Launcher" in roles:
            template = copy.deepcopy(roles["Launcher"].get("template") or {})
            template.setdefault("metadata", {}).setdefault("labels", {}).update(
                dict(base, **{"training.kubeflow.org/job-role": "launcher"}))
            template.setdefault("spec", {}).setdefault("restartPolicy", roles["Launcher"].get("restartPolicy", "OnFailure"))
            for container in template["spec"].get("containers") or []:
                container.setdefault("env", []).extend([
                    {"name": "K_MPI_JOB_ROLE", "value": "launcher"},
                    {"name": "OMPI_MCA_orte_keep_fqdn_hostnames", "value": "true"},
                    {"name": "OMPI_MCA_orte_default_hostfile", "value": "/etc/mpi/hostfile"},
                    {"name": "OMPI_MCA_plm_rsh_args", "value": "-o ConnectionAttempts=10"}])
            launcher = {"apiVersion": "batch/v1", "kind": "Job",
                        "metadata": {"name": f"{name}-launcher", "labels": dict(base),
                                     "ownerReferences": [controller_reference(job)]},
                        "spec": {"template": template, "backoffLimit": (spec.get("runPolicy") or {}).get("backoffLimit", 6)}}
            default_job(launcher, ns)
            self.store.put("jobs", launcher)
        elif launcher is not None and launcher["spec"].get("suspend"):
            launcher["spec"]["suspend"] = False
            self.store.put("jobs", launcher)
        replica_statuses = {"Worker": {"active": active} if active else {}}
        if launcher is not None:
            ls = launcher.get("status", {})
            replica_statuses["Launcher"] = {k: ls[k] for k in ("active", "succeeded", "failed") if ls.get(k)}
        status["replicaStatuses"] = replica_statuses
        if launcher is not None and condition_true(launcher, "Complete"):
            self.finish(job, True, "Succeeded", f"MPIJob {ns}/{name} successfully completed.", stamp)
            self.clean_pods(job, index.children(job, "pods"), (spec.get("runPolicy") or {}).get("cleanPodPolicy", "None"))
        elif launcher is not None and condition_true(launcher, "Failed"):
            self.finish(job, False, "Failed", f"MPIJob {ns}/{name} has failed because the launcher failed.", stamp)
        elif launcher is not None and launcher.get("status", {}).get("active"):
            set_operator_condition(status, operator_condition("Running", "True", "MPIJobRunning",
                                                              f"MPIJob {ns}/{name} is running.", stamp))
