"""RayCluster (ray.io/v1) as KubeRay's operator makes it: a head pod NAME-head-xxxxx and, per
worker group G, replicas worker pods NAME-G-worker-xxxxx, labelled ray.io/{cluster,node-type,group,
identifier,is-ray-node} and app.kubernetes.io/{name: kuberay, created-by: kuberay-operator}; a
container without a command gets KubeRay's generated `ulimit -n 65536; ray start ... --block`
(head) or `ray start --address=NAME-head-svc...:6379 --block` (workers); the Service
NAME-head-svc with the head's ports. spec.suspend deletes the pods. Status: state (ready once the
head and every worker run and are ready; suspended), desired/min/max/ready/availableWorkerReplicas,
desiredCPU/Memory/GPU, endpoints, head (podIP, podName, serviceIP, serviceName), conditions
HeadPodReady and RayClusterProvisioned. Runs on the controller thread with the store lock held.
"""

import copy

import services
from admission import default_metadata
from garbage_collector import controller_reference
from quantities import parse_quantity
from store import now_rfc3339
from workload_objects import (TERMINAL, is_ready, make_pod, phase, record,
                              set_operator_condition, status_before, store_if_changed)

DEFAULT_PORTS = {"gcs-server": 6379, "dashboard": 8265, "client": 10001, "metrics": 8080}


def ray_labels(cluster, node_type, group):
    return {"ray.io/cluster": cluster, "ray.io/node-type": node_type, "ray.io/group": group,
            "ray.io/identifier": f"{cluster}-{node_type}", "ray.io/is-ray-node": "yes",
            "app.kubernetes.io/name": "kuberay", "app.kubernetes.io/created-by": "kuberay-operator"}


def start_params(params):
    return " ".join(f"--{k}={v}" if v not in ("", None) else f"--{k}" for k, v in sorted((params or {}).items()))


def container_total(template, resource):
    total = 0.0
    for c in ((template or {}).get("spec") or {}).get("containers") or []:
        limits = (c.get("resources") or {}).get("limits") or (c.get("resources") or {}).get("requests") or {}
        if resource in limits:
            try:
                total += float(parse_quantity(limits[resource]))
            except ValueError:
                pass
    return total


def quantity_text(value, memory=False):
    if memory and value and value % (1024 ** 3) == 0:
        return f"{int(value // 1024 ** 3)}Gi"
    return str(int(value)) if float(value).is_integer() else f"{int(value * 1000)}m"


class RayClusterController:
    def __init__(self, store):
        self.store = store
        self.events = None

    def tick(self, index, now):
        stamp = now_rfc3339(now)
        for cluster in self.store.items("rayclusters"):
            before = status_before(cluster)
            self.reconcile(cluster, index, stamp)
            store_if_changed(self.store, "rayclusters", cluster, before)

    def head_service(self, cluster, head_template):
        name, namespace = cluster["metadata"]["name"], cluster["metadata"]["namespace"]
        service_name = f"{name}-head-svc"
        existing = self.store.get("services", namespace, service_name)
        if existing is not None:
            return existing
        ports = []
        for c in (head_template.get("spec") or {}).get("containers") or []:
            for p in c.get("ports") or []:
                if p.get("name") and p.get("containerPort"):
                    ports.append({"name": p["name"], "port": p["containerPort"], "targetPort": p["containerPort"]})
        named = {p["name"] for p in ports}
        ports += [{"name": n, "port": v, "targetPort": v} for n, v in DEFAULT_PORTS.items() if n not in named]
        service = {"apiVersion": "v1", "kind": "Service",
                   "metadata": {"name": service_name, "namespace": namespace,
                                "labels": {"ray.io/cluster": name, "ray.io/node-type": "head",
                                           "app.kubernetes.io/name": "kuberay",
                                           "app.kubernetes.io/created-by": "kuberay-operator"},
                                "ownerReferences": [controller_reference(cluster)]},
                   "spec": {"selector": {"ray.io/cluster": name, "ray.io/node-type": "head"}, "ports": ports}}
        default_metadata(service, namespace)
        services.default_service(service)
        record(self.events, cluster, "Normal", "CreatedService", f"Created service {namespace}/{service_name}",
               "raycluster-controller")
        return self.store.put("services", service)

    def make_ray_pod(self, cluster, group_spec, node_type, group, service):
        name, namespace = cluster["metadata"]["name"], cluster["metadata"]["namespace"]
        template = copy.deepcopy(group_spec.get("template") or {})
        containers = (template.setdefault("spec", {})).get("containers") or []
        params = start_params(group_spec.get("rayStartParams"))
        if node_type == "head":
            command = f"ulimit -n 65536; ray start --head {params} --block".replace("  ", " ")
        else:
            command = (f"ulimit -n 65536; ray start --address={service}.{namespace}.svc.cluster.local:6379 "
                       f"{params} --block").replace("  ", " ")
        if containers and not containers[0].get("command"):
            containers[0]["command"] = ["/bin/bash", "-lc", "--"]
            containers[0]["args"] = [command]
        env = [{"name": "RAY_CLUSTER_NAME", "value": name}, {"name": "RAY_USAGE_STATS_KUBERAY_IN_USE", "value": "1"},
               {"name": "KUBERAY_GEN_RAY_START_CMD", "value": command.split("; ", 1)[1]}]
        if node_type == "head":
            env += [{"name": "RAY_PORT", "value": "6379"}, {"name": "RAY_ADDRESS", "value": "127.0.0.1:6379"}]
        else:
            env += [{"name": "FQ_RAY_IP", "value": f"{service}.{namespace}.svc.cluster.local"},
                    {"name": "RAY_IP", "value": service}]
        prefix = f"{name}-head-" if node_type == "head" else f"{name}-{group}-worker-"
        pod = make_pod(self.store, cluster, template, generate_name=prefix,
                       labels=ray_labels(name, node_type, group), env=env)
        record(self.events, cluster, "Normal", "CreatedHeadPod" if node_type == "head" else "CreatedWorkerPod",
               f"Created {node_type} Pod {namespace}/{pod['metadata']['name']}", "raycluster-controller")
        return pod

    def reconcile(self, cluster, index, stamp):
        spec, status = cluster["spec"], cluster.setdefault("status", {})
        namespace = cluster["metadata"]["namespace"]
        pods = [p for p in index.children(cluster, "pods") if not p["metadata"].get("deletionTimestamp")]
        head_spec = spec["headGroupSpec"]
        groups = spec.get("workerGroupSpecs") or []
        if spec.get("suspend"):
            for pod in pods:
                self.store.remove("pods", namespace, pod["metadata"]["name"])
            status.update({"state": "suspended", "readyWorkerReplicas": 0, "availableWorkerReplicas": 0})
            return
        service = self.head_service(cluster, head_spec.get("template") or {})
        service_name = service["metadata"]["name"]
        by_group = {}
        for pod in pods:
            labels = pod["metadata"].get("labels") or {}
            if phase(pod) in TERMINAL:  # KubeRay deletes a Ray pod that ended and makes a new one
                self.store.remove("pods", namespace, pod["metadata"]["name"])
                continue
            by_group.setdefault((labels.get("ray.io/node-type"), labels.get("ray.io/group")), []).append(pod)
        heads = by_group.get(("head", "headgroup"), [])
        if not heads:
            heads = [self.make_ray_pod(cluster, head_spec, "head", "headgroup", service_name)]
        desired = ready = 0
        cpu = container_total(head_spec.get("template"), "cpu")
        memory = container_total(head_spec.get("template"), "memory")
        gpu = container_total(head_spec.get("template"), "nvidia.com/gpu")
        min_total = max_total = 0
        for group in groups:
            if group.get("suspend"):
                continue
            wanted = group.get("replicas", group.get("minReplicas", 0)) or 0
            wanted = max(group.get("minReplicas", 0) or 0, min(wanted, group.get("maxReplicas", wanted) or wanted))
            wanted *= group.get("numOfHosts", 1)
            members = by_group.get(("worker", group["groupName"]), [])
            for _ in range(wanted - len(members)):
                members.append(self.make_ray_pod(cluster, group, "worker", group["groupName"], service_name))
            members.sort(key=lambda p: p["metadata"].get("creationTimestamp", ""))
            for extra in members[wanted:]:
                self.store.remove("pods", namespace, extra["metadata"]["name"])
            members = members[:wanted]
            desired += wanted
            ready += sum(1 for p in members if is_ready(p))
            min_total += (group.get("minReplicas", 0) or 0) * group.get("numOfHosts", 1)
            max_total += (group.get("maxReplicas", wanted) or 0) * group.get("numOfHosts", 1)
            cpu += wanted * container_total(group.get("template"), "cpu")
            memory += wanted * container_total(group.get("template"), "memory")
            gpu += wanted * container_total(group.get("template"), "nvidia.com/gpu")
        head = heads[0]
        head_ready = is_ready(head)
        all_ready = head_ready and ready == desired
        status.update({"desiredWorkerReplicas": desired, "minWorkerReplicas": min_total,
                       "maxWorkerReplicas": max_total, "readyWorkerReplicas": ready,
                       "availableWorkerReplicas": ready, "desiredCPU": quantity_text(cpu),
                       "desiredMemory": quantity_text(memory, True), "desiredGPU": quantity_text(gpu),
                       "desiredTPU": "0",
                       "endpoints": {k: str(v) for k, v in DEFAULT_PORTS.items()},
                       "head": {"podIP": head.get("status", {}).get("podIP", ""),
                                "podName": head["metadata"]["name"],
                                "serviceIP": service["spec"].get("clusterIP", ""),
                                "serviceName": service_name},
                       "observedGeneration": cluster["metadata"].get("generation", 1)})
        if all_ready:
            if status.get("state") != "ready":
                status["stateTransitionTimes"] = dict(status.get("stateTransitionTimes") or {}, ready=stamp)
            status["state"] = "ready"
        elif status.get("state") == "suspended":
            status.pop("state")
        set_operator_condition(status, {"type": "HeadPodReady", "status": "True" if head_ready else "False",
                                        "reason": "HeadPodRunningAndReady" if head_ready else "HeadPodNotFound"
                                        if head is None else "ContainersNotReady",
                                        "message": "" if head_ready else "the head pod is not ready",
                                        "lastTransitionTime": stamp})
        if all_ready or any(c.get("type") == "RayClusterProvisioned" and c.get("status") == "True"
                            for c in status.get("conditions") or []):
            set_operator_condition(status, {"type": "RayClusterProvisioned", "status": "True",
                                            "reason": "AllPodRunningAndReadyFirstTime",
                                            "message": "All Ray Pods are ready for the first time",
                                            "lastTransitionTime": stamp})
        else:
            set_operator_condition(status, {"type": "RayClusterProvisioned", "status": "False",
                                            "reason": "RayClusterPodsProvisioning",
                                            "message": "RayCluster Pods are being provisioned for first time",
                                            "lastTransitionTime": stamp})
