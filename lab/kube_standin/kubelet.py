"""The kube stand-in's simulated kubelets: they accept bound pods, "start" their containers
(container_runner.py), report container and pod status the way a real kubelet does, and
restart containers according to restartPolicy. One object stands for every node's kubelet;
it lives on the controller thread and is called with the store lock held.
"""

import copy
import hashlib
import os
import re
import socket

from container_runner import (VLLM_IMAGE, ContainerLog, ContainerRun, PodSandbox, carries_fabric_probe,
                              cpu_slow_cgroup, plan, real_steps, remove_cgroup)
from services import pod_hosts
from quantities import container_requests
from scheduler import GPU_INDICES_ANNOTATION, TERMINAL, admit_on_node, gpu_indices, usage_by_node
from store import now_rfc3339, parse_rfc3339

RESTART_BACKOFF_SECONDS = (1, 2, 4, 8, 10)
CPU_SLOW_ANNOTATION = "strata.lab/cpu-slow-percent"
DEPENDENT_VARIABLE = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def condition(type_, status, now, reason=None, message=None):
    c = {"type": type_, "status": status, "lastProbeTime": None, "lastTransitionTime": now}
    if reason:
        c["reason"] = reason
    if message:
        c["message"] = message
    return c


def set_condition(status, new):
    """Replaces the condition of the same type, keeping lastTransitionTime if status is unchanged."""
    conditions = status.setdefault("conditions", [])
    for i, old in enumerate(conditions):
        if old["type"] == new["type"]:
            if old["status"] == new["status"]:
                new["lastTransitionTime"] = old.get("lastTransitionTime", new["lastTransitionTime"])
            conditions[i] = new
            return
    conditions.append(new)


def serving_ports(pod):
    """The ports a pod's servers will bind (pod_http.py): its declared containerPorts, and vLLM's
    and a Ray dashboard's defaults for their images."""
    ports = set()
    for container in pod["spec"].get("containers") or []:
        for port in container.get("ports") or []:
            if isinstance(port.get("containerPort"), int):
                ports.add(port["containerPort"])
        image = container.get("image") or ""
        if VLLM_IMAGE in image:
            ports.add(8000)
        if "rayproject/ray" in image:
            ports.add(8265)
    return sorted(ports)


def port_free(address, port):
    """Whether nothing listens on address:port (a bind that is given up at once)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((address, port))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def fake_digest(*parts):
    return hashlib.sha256("/".join(parts).encode()).hexdigest()


class Kubelets:
    def __init__(self, store, burn_agent, log_dir, work_dir, start_delay, api_port):
        self.store = store
        self.burn_agent = burn_agent
        self.log_dir = log_dir
        self.work_dir = work_dir
        self.start_delay = start_delay
        self.api_port = api_port
        self.runs = {}         # (pod uid, container) -> ContainerRun
        self.logs = {}         # (namespace, pod, container) -> [previous ContainerLog, current]
        self.accepted_at = {}  # pod uid -> time the kubelet accepted it
        self.restart_at = {}   # (pod uid, container) -> time of the next restart
        self.next_ip = {}
        self.slow_groups = set()  # cpu cgroups made for slow nodes, removed once empty
        self.events = None        # the EventRecorder, set by the controller loop
        self.pulled = set()       # (node, image) pulled once: later starts find it present
        self.pod_refs = {}        # pod uid -> what its events name once the pod is gone

    def record(self, pod, type_, reason, message, container=None, now=None):
        """An Event as the kubelet of the pod's node records it (client-go's recorder)."""
        if self.events is None:
            return
        field_path = f"spec.containers{{{container}}}" if container else None
        self.events.record(pod, type_, reason, message, "kubelet", host=pod["spec"].get("nodeName"),
                           field_path=field_path, now=now)

    # Logs
    def container_log(self, namespace, pod, container, previous=False):
        pair = self.logs.get((namespace, pod, container))
        if not pair:
            return None
        return pair[0] if previous else pair[1]

    def new_log(self, namespace, pod, container):
        path = None
        if self.log_dir:
            os.makedirs(self.log_dir, exist_ok=True)
            path = os.path.join(self.log_dir, f"{namespace}_{pod}_{container}.log")
        key = (namespace, pod, container)
        previous = self.logs.get(key, [None, None])[1]
        log = ContainerLog(path)
        self.logs[key] = [previous, log]
        return log

    # The loop
    def tick(self, now):
        pods = self.store.items("pods")
        present = {p["metadata"]["uid"] for p in pods}
        for key in [k for k in self.runs if k[0] not in present]:
            run = self.runs.pop(key)
            run.kill()
            if key[0] in self.pod_refs:
                self.record(self.pod_refs[key[0]], "Normal", "Killing", f"Stopping container {key[1]}", key[1])
        in_use = {r.sandbox.cgroup for r in self.runs.values() if r.sandbox}
        for group in list(self.slow_groups - in_use):
            try:
                with open(os.path.join(group, "cgroup.procs")) as f:
                    empty = not f.read().strip()
            except OSError:
                empty = True
            if empty:
                remove_cgroup(group)
                self.slow_groups.discard(group)
        for uid in [u for u in self.accepted_at if u not in present]:
            self.accepted_at.pop(uid)
        for uid in [u for u in self.pod_refs if u not in present]:
            self.pod_refs.pop(uid)
        live_names = {(p["metadata"]["namespace"], p["metadata"]["name"]) for p in pods}
        for key in [k for k in self.logs if k[:2] not in live_names]:
            self.logs.pop(key)
        usage = None
        for pod in pods:
            phase = pod.get("status", {}).get("phase")
            if not pod["spec"].get("nodeName") or phase in TERMINAL:
                continue
            if not pod["status"].get("startTime"):
                usage = usage or usage_by_node(self.store)
                self.admit(pod, usage, now)
            elif phase == "Pending":
                self.maybe_start(pod, now)
            elif phase == "Running":
                self.advance(pod, now)

    def accept(self, pod, now, indices):
        """The pod is bound and fits: the kubelet takes it and starts creating containers."""
        stamp = now_rfc3339(now)
        meta, status = pod["metadata"], pod["status"]
        if indices:
            meta.setdefault("annotations", {})[GPU_INDICES_ANNOTATION] = ",".join(map(str, indices))
        node = self.store.get("nodes", "", pod["spec"]["nodeName"])
        host_ip = next((a["address"] for a in node["status"].get("addresses", [])
                        if a["type"] == "InternalIP"), "") if node else ""
        status.update(hostIP=host_ip, hostIPs=[{"ip": host_ip}], startTime=stamp)
        set_condition(status, condition("PodReadyToStartContainers", "False", stamp))
        set_condition(status, condition("Initialized", "True", stamp))
        set_condition(status, condition("Ready", "False", stamp, "ContainersNotReady",
                                        self.not_ready_message(pod)))
        set_condition(status, condition("ContainersReady", "False", stamp, "ContainersNotReady",
                                        self.not_ready_message(pod)))
        set_condition(status, condition("PodScheduled", "True", stamp))
        status["containerStatuses"] = [self.waiting_status(c, "ContainerCreating")
                                       for c in pod["spec"]["containers"]]
        self.accepted_at[meta["uid"]] = now
        self.store.put("pods", pod)

    def not_ready_message(self, pod):
        names = " ".join(c["name"] for c in pod["spec"]["containers"])
        return f"containers with unready status: [{names}]"

    def waiting_status(self, container, reason, message=None, restarts=0, last_state=None):
        waiting = {"reason": reason}
        if message:
            waiting["message"] = message
        return {"name": container["name"], "image": container.get("image", ""), "imageID": "",
                "ready": False, "started": False, "restartCount": restarts,
                "lastState": last_state or {}, "state": {"waiting": waiting}}

    def admit(self, pod, usage, now):
        """A pod created with spec.nodeName skipped the scheduler: the kubelet checks resources."""
        indices, rejection = admit_on_node(usage, pod)
        if rejection is None:
            self.accept(pod, now, indices)
            return
        reason, message = rejection
        pod["status"].update(phase="Failed", reason=reason, message=message,
                             startTime=now_rfc3339(now))
        self.store.put("pods", pod)

    def maybe_start(self, pod, now):
        uid = pod["metadata"]["uid"]
        accepted = self.accepted_at.get(uid)
        if accepted is None:
            accepted = parse_rfc3339(pod["status"]["startTime"]) or now
            self.accepted_at[uid] = accepted
        if now < accepted + self.start_delay:
            return
        stamp = now_rfc3339(now)
        status = pod["status"]
        status["podIP"] = self.allocate_ip(pod)
        status["podIPs"] = [{"ip": status["podIP"]}]
        status["phase"] = "Running"
        self.pod_refs[pod["metadata"]["uid"]] = {
            "kind": "Pod", "apiVersion": "v1", "spec": {"nodeName": pod["spec"].get("nodeName")},
            "metadata": {k: pod["metadata"][k] for k in ("name", "namespace", "uid")}}
        status["containerStatuses"] = [self.start_container(pod, c, now, 0, {})
                                       for c in pod["spec"]["containers"]]
        set_condition(status, condition("PodReadyToStartContainers", "True", stamp))
        set_condition(status, condition("Ready", "True", stamp))
        set_condition(status, condition("ContainersReady", "True", stamp))
        self.store.put("pods", pod)

    def allocate_ip(self, pod):
        # Loopback on purpose: the servers some containers run (pod_http.py) bind their pod IP,
        # and this machine (or an SSH tunnel to it) reaches every 127.244.x.y.
        node = pod["spec"]["nodeName"]
        index = sorted(n["metadata"]["name"] for n in self.store.items("nodes")).index(node) \
            if self.store.get("nodes", "", node) else 0
        in_use = {p["status"].get("podIP") for p in self.store.items("pods")
                  if p["spec"].get("nodeName") == node and p["status"].get("phase") not in TERMINAL}
        ports = serving_ports(pod)
        for _ in range(250):
            n = self.next_ip.get(node, 0) % 250 + 1
            self.next_ip[node] = n
            address = f"127.244.{index + 1}.{n}"
            # Another stand-in on this machine (the lab's, a test's) may serve there already.
            if address not in in_use and all(port_free(address, port) for port in ports):
                return address
        return address  # 250 live pods on one node: the oldest address is shared, as data

    def start_container(self, pod, container, now, restarts, last_state):
        meta = pod["metadata"]
        env = self.container_env(pod, container)
        log = self.new_log(meta["namespace"], meta["name"], container["name"])
        workdir = os.path.join(self.work_dir, f"{meta['namespace']}_{meta['name']}_{container['name']}")
        sandbox = None
        if carries_fabric_probe(container.get("command"), container.get("args"), env):
            steps = real_steps(container.get("command"), container.get("args"))
            sandbox = PodSandbox(env["HOSTNAME"], pod_hosts(self.store, pod), self.node_cgroup(pod))
        else:
            steps = plan(container.get("command"), container.get("args"), container.get("image"))
        self.runs[(meta["uid"], container["name"])] = ContainerRun(
            steps, env, log, self.burn_agent, workdir, sandbox, image=container.get("image"),
            pod_ip=pod["status"].get("podIP"))
        image = container.get("image", "")
        self.record_start(pod, container, now)
        return {"name": container["name"], "image": image,
                "imageID": f"{image.split(':')[0]}@sha256:{fake_digest(image)}",
                "containerID": "containerd://" + fake_digest(meta["uid"], container["name"], str(restarts)),
                "ready": True, "started": True, "restartCount": restarts, "lastState": last_state,
                "state": {"running": {"startedAt": now_rfc3339(now)}}}

    def record_start(self, pod, container, now):
        """The kubelet's events for a container start: the image (pulled once per node unless
        imagePullPolicy is Always), then Created and Started."""
        name, image = container["name"], container.get("image", "")
        node = pod["spec"].get("nodeName")
        if container.get("imagePullPolicy") == "Always" or (node, image) not in self.pulled:
            self.pulled.add((node, image))
            self.record(pod, "Normal", "Pulling", f'Pulling image "{image}"', name, now)
            self.record(pod, "Normal", "Pulled", f'Successfully pulled image "{image}" in 1.2s (1.2s including '
                        f'waiting). Image size: {int(fake_digest(image)[:6], 16) * 100} bytes.', name, now)
        else:
            self.record(pod, "Normal", "Pulled", f'Container image "{image}" already present on machine', name, now)
        self.record(pod, "Normal", "Created", f"Created container {name}", name, now)
        self.record(pod, "Normal", "Started", f"Started container {name}", name, now)

    def node_cgroup(self, pod):
        """The lab's slow node: a node annotated strata.lab/cpu-slow-percent=N runs the processes
        of its containers in a cpu cgroup of N % of one CPU (lab/lib/faults.sh's cpu-slow for
        Kubernetes); None when not annotated or no cgroup is writable."""
        node = self.store.get("nodes", "", pod["spec"].get("nodeName", ""))
        text = ((node or {}).get("metadata", {}).get("annotations") or {}).get(CPU_SLOW_ANNOTATION, "")
        if not text.isdigit() or not 1 <= int(text) <= 100:
            return None
        group = cpu_slow_cgroup(f"strata-kube-standin-{self.api_port}-{node['metadata']['name']}", int(text))
        if group:
            self.slow_groups.add(group)
        return group

    def container_env(self, pod, container):
        meta, spec = pod["metadata"], pod["spec"]
        env = {"HOSTNAME": spec.get("hostname") or meta["name"],
               "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
               "KUBERNETES_SERVICE_HOST": "127.0.0.1",
               "KUBERNETES_SERVICE_PORT": str(self.api_port)}
        indices = gpu_indices(pod)
        if indices:
            # The NVIDIA device plugin sets this (to UUIDs); the stand-in uses host indices.
            env["NVIDIA_VISIBLE_DEVICES"] = ",".join(map(str, indices))
        for var in container.get("env") or []:
            name = var.get("name")
            if "value" in var:
                env[name] = DEPENDENT_VARIABLE.sub(
                    lambda m: env.get(m.group(1), m.group(0)), str(var["value"]))
            elif var.get("valueFrom"):
                env[name] = self.resolve_value_from(pod, container, var["valueFrom"])
        return env

    def resolve_value_from(self, pod, container, source):
        field = (source.get("fieldRef") or {}).get("fieldPath")
        if field:
            meta = pod["metadata"]
            simple = {"metadata.name": meta["name"], "metadata.namespace": meta["namespace"],
                      "metadata.uid": meta["uid"], "spec.nodeName": pod["spec"].get("nodeName", ""),
                      "spec.serviceAccountName": pod["spec"].get("serviceAccountName", ""),
                      "status.hostIP": pod["status"].get("hostIP", ""),
                      "status.podIP": pod["status"].get("podIP", "")}
            if field in simple:
                return simple[field]
            m = re.match(r"metadata\.(labels|annotations)\['(.+)'\]$", field)
            if m:
                return (meta.get(m.group(1)) or {}).get(m.group(2), "")
            return ""
        resource = (source.get("resourceFieldRef") or {}).get("resource")
        if resource:
            kind, _, name = resource.partition(".")
            value = container_requests(container).get(name) if kind == "requests" else \
                ((container.get("resources") or {}).get("limits") or {}).get(name)
            return str(value if value is not None else "")
        return ""

    def advance(self, pod, now):
        meta, status = pod["metadata"], pod["status"]
        changed = False
        policy = pod["spec"].get("restartPolicy", "Always")
        for i, container in enumerate(pod["spec"]["containers"]):
            key = (meta["uid"], container["name"])
            cs = status["containerStatuses"][i]
            if key in self.restart_at:
                if now >= self.restart_at[key]:
                    del self.restart_at[key]
                    status["containerStatuses"][i] = self.start_container(
                        pod, container, now, cs["restartCount"], cs["lastState"])
                    changed = True
                continue
            run = self.runs.get(key)
            if run is None:
                continue
            code = run.advance(now)
            if code is None:
                continue
            del self.runs[key]
            started = cs["state"].get("running", {}).get("startedAt", now_rfc3339(now))
            terminated = {"exitCode": code, "reason": "Completed" if code == 0 else "Error",
                          "startedAt": started, "finishedAt": now_rfc3339(now),
                          "containerID": cs.get("containerID", "")}
            changed = True
            if policy == "Always" or (policy == "OnFailure" and code != 0):
                restarts = cs["restartCount"] + 1
                delay = RESTART_BACKOFF_SECONDS[min(restarts - 1, len(RESTART_BACKOFF_SECONDS) - 1)]
                self.restart_at[key] = now + delay
                self.record(pod, "Warning", "BackOff", f"Back-off restarting failed container {container['name']} "
                            f"in pod {meta['name']}_{meta['namespace']}({meta['uid']})", container["name"], now)
                status["containerStatuses"][i] = self.waiting_status(
                    container, "CrashLoopBackOff",
                    f"back-off {delay}s restarting failed container={container['name']} "
                    f"pod={meta['name']}_{meta['namespace']}({meta['uid']})",
                    restarts, {"terminated": terminated})
                status["containerStatuses"][i]["restartCount"] = restarts
            else:
                cs.update(ready=False, started=False, state={"terminated": terminated})
        if not changed:
            return
        stamp = now_rfc3339(now)
        statuses = status["containerStatuses"]
        if all("terminated" in cs["state"] for cs in statuses):
            ok = all(cs["state"]["terminated"]["exitCode"] == 0 for cs in statuses)
            status["phase"] = "Succeeded" if ok else "Failed"
            reason = "PodCompleted" if ok else "PodFailed"
            for type_ in ("Ready", "ContainersReady"):
                set_condition(status, condition(type_, "False", stamp, reason))
            set_condition(status, condition("PodReadyToStartContainers", "False", stamp))
        else:
            ready = all(cs.get("ready") for cs in statuses)
            for type_ in ("Ready", "ContainersReady"):
                set_condition(status, condition(
                    type_, "True" if ready else "False", stamp,
                    None if ready else "ContainersNotReady",
                    None if ready else self.not_ready_message(pod)))
        self.store.put("pods", pod)

    def recover_after_restart(self, now):
        """Loaded state: containers that were running died with the old stand-in process."""
        stamp = now_rfc3339(now)
        for pod in self.store.items("pods"):
            status = pod.get("status", {})
            if status.get("phase") not in ("Running", "Pending") or not status.get("startTime"):
                continue
            for cs in status.get("containerStatuses") or []:
                started = (cs.get("state") or {}).get("running", {}).get("startedAt", stamp)
                cs.update(ready=False, started=False, state={"terminated": {
                    "exitCode": 137, "reason": "Error", "startedAt": started, "finishedAt": stamp,
                    "message": "the kube stand-in restarted while this container ran"}})
            status["phase"] = "Failed"
            status["message"] = "the kube stand-in restarted while this pod ran"
            self.store.put("pods", copy.deepcopy(pod))
