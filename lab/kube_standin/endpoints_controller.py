"""Endpoints (core/v1) and EndpointSlices (discovery.k8s.io/v1) of the kube stand-in's Services,
kept as kube-controller-manager's endpoints and endpointslice controllers keep them: for every
Service with a selector, the IPs of the pods it selects (ready ones as addresses, the others as
notReadyAddresses / conditions.ready false), each Service port's targetPort resolved on the pod
(a number, or a named containerPort), nodeName and targetRef. A client resolves a Service to a
pod IP and port through them (port-forward to a Service). Pod IPs are loopback here, and the
servers some containers run (pod_http.py) answer on them.
Runs on the controller thread with the store lock held.
"""

import time

from admission import random_suffix
from store import new_uid, now_rfc3339, parse_rfc3339
from tables import human_duration

SERVICE_NAME_LABEL = "kubernetes.io/service-name"
MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by"
MANAGED_BY = "endpointslice-controller.k8s.io"
ZONE_LABEL = "topology.kubernetes.io/zone"


def is_ready(pod):
    return any(c.get("type") == "Ready" and c.get("status") == "True"
               for c in (pod.get("status") or {}).get("conditions") or [])


def target_port(service_port, pod):
    """The pod's port for a Service port: targetPort as a number, or the containerPort of that name."""
    target = service_port.get("targetPort", service_port.get("port"))
    if isinstance(target, int):
        return target
    if isinstance(target, str) and target.isdigit():
        return int(target)
    for container in pod["spec"].get("containers") or []:
        for port in container.get("ports") or []:
            if port.get("name") == target and port.get("protocol", "TCP") == service_port.get("protocol", "TCP"):
                return port.get("containerPort")
    return None


def selects(service, pod):
    selector = (service.get("spec") or {}).get("selector") or {}
    labels = pod["metadata"].get("labels") or {}
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


class EndpointsController:
    """Owned by the controller loop; tick() with the store lock held."""

    def __init__(self, store):
        self.store = store
        self.synced_revision = 0  # the store revision of the last sync

    def changed_since_sync(self):
        """Whether a pod, Service, Endpoints or EndpointSlice changed since the last sync (from
        the store's event history; a history that no longer reaches back counts as changed)."""
        if self.store.oldest_event_revision() > self.synced_revision + 1:
            return True
        return any(e[1] in ("pods", "services", "endpoints", "endpointslices")
                   for e in self.store.events_since(self.synced_revision))

    def tick(self, now):
        if not self.changed_since_sync():
            return
        try:
            self.sync(now)
        except (AttributeError, TypeError, ValueError) as error:
            # A Service or pod it cannot read must not stop the controllers after it in the tick.
            print(f"kube stand-in: the endpoints controller skipped a sync: {error!r}", flush=True)
        self.synced_revision = self.store.revision

    def sync(self, now):
        services = {}
        for service in self.store.items("services"):
            selector = (service.get("spec") or {}).get("selector")
            if isinstance(selector, dict) and selector and all(isinstance(v, str) for v in selector.values()):
                services[(service["metadata"]["namespace"], service["metadata"]["name"])] = service
        for endpoints in self.store.items("endpoints"):
            key = (endpoints["metadata"]["namespace"], endpoints["metadata"]["name"])
            if key not in services:
                self.store.remove("endpoints", *key)
        slices = {}
        for endpoint_slice in self.store.items("endpointslices"):
            meta = endpoint_slice["metadata"]
            if (meta.get("labels") or {}).get(MANAGED_BY_LABEL) != MANAGED_BY:
                continue
            key = (meta["namespace"], (meta.get("labels") or {}).get(SERVICE_NAME_LABEL, ""))
            if key not in services:
                self.store.remove("endpointslices", meta["namespace"], meta["name"])
            else:
                slices[key] = endpoint_slice
        # Pods by (namespace, label, value): a Service's candidates are the pods carrying one of
        # its selector's pairs (50,000 pods and hundreds of Services: no Service scans them all).
        by_label = {}
        for namespace in {k[0] for k in services}:
            for pod in self.store.items("pods", namespace):
                if (pod.get("status") or {}).get("podIP") and pod["status"].get("phase") not in ("Succeeded", "Failed") \
                        and not pod["metadata"].get("deletionTimestamp"):
                    for label in (pod["metadata"].get("labels") or {}).items():
                        by_label.setdefault((namespace,) + label, []).append(pod)
        for key, service in sorted(services.items()):
            first_pair = next(iter(sorted(service["spec"]["selector"].items())))
            candidates = by_label.get((key[0],) + first_pair, [])
            pods = sorted((p for p in candidates if selects(service, p)), key=lambda p: p["status"]["podIP"])
            self.sync_endpoints(service, pods, now)
            self.sync_slice(service, pods, slices.get(key), now)

    def backends(self, service, pods):
        """[(pod, ready, [(name, port, protocol)])] for the pods that have every Service port."""
        result = []
        for pod in pods:
            ports = []
            for service_port in (service.get("spec") or {}).get("ports") or []:
                number = target_port(service_port, pod)
                if number is None:
                    break
                ports.append((service_port.get("name", ""), number, service_port.get("protocol", "TCP")))
            else:
                result.append((pod, is_ready(pod), ports))
        return result

    def node_zone(self, node_name):
        node = self.store.get("nodes", "", node_name or "")
        return ((node or {}).get("metadata", {}).get("labels") or {}).get(ZONE_LABEL)

    def sync_endpoints(self, service, pods, now):
        meta = service["metadata"]
        subsets = {}
        for pod, ready, ports in self.backends(service, pods):
            subset = subsets.setdefault(tuple(ports), {"addresses": [], "notReadyAddresses": []})
            address = {"ip": pod["status"]["podIP"], "nodeName": pod["spec"].get("nodeName"),
                       "targetRef": {"kind": "Pod", "namespace": pod["metadata"]["namespace"],
                                     "name": pod["metadata"]["name"], "uid": pod["metadata"]["uid"]}}
            subset["addresses" if ready else "notReadyAddresses"].append(address)
        rendered = []
        for ports, subset in subsets.items():
            entry = {k: v for k, v in subset.items() if v}
            entry["ports"] = [dict({"name": n} if n else {}, port=p, protocol=proto) for n, p, proto in ports]
            rendered.append(entry)
        labels = dict(meta.get("labels") or {})
        if (service.get("spec") or {}).get("clusterIP") == "None":
            labels["service.kubernetes.io/headless"] = ""
        existing = self.store.get("endpoints", meta["namespace"], meta["name"])
        if existing is not None and existing.get("subsets", []) == rendered \
                and (existing["metadata"].get("labels") or {}) == labels:
            return
        endpoints = existing or {"kind": "Endpoints", "apiVersion": "v1", "metadata": {
            "name": meta["name"], "namespace": meta["namespace"], "uid": new_uid(),
            "creationTimestamp": now_rfc3339(now)}}
        endpoints["metadata"]["labels"] = labels
        endpoints["metadata"]["annotations"] = {"endpoints.kubernetes.io/last-change-trigger-time": now_rfc3339(now)}
        if rendered:
            endpoints["subsets"] = rendered
        else:
            endpoints.pop("subsets", None)
        self.store.put("endpoints", endpoints)

    def sync_slice(self, service, pods, existing, now):
        meta = service["metadata"]
        backends = self.backends(service, pods)
        ports = backends[0][2] if backends else []
        endpoints = []
        for pod, ready, _ in backends:
            endpoint = {"addresses": [pod["status"]["podIP"]],
                        "conditions": {"ready": ready, "serving": ready, "terminating": False},
                        "nodeName": pod["spec"].get("nodeName"),
                        "targetRef": {"kind": "Pod", "namespace": pod["metadata"]["namespace"],
                                      "name": pod["metadata"]["name"], "uid": pod["metadata"]["uid"]}}
            zone = self.node_zone(pod["spec"].get("nodeName"))
            if zone:
                endpoint["zone"] = zone
            endpoints.append(endpoint)
        rendered_ports = [{"name": n, "port": p, "protocol": proto} for n, p, proto in ports]
        labels = dict(meta.get("labels") or {}, **{SERVICE_NAME_LABEL: meta["name"], MANAGED_BY_LABEL: MANAGED_BY})
        if existing is not None and existing.get("endpoints") == endpoints and existing.get("ports") == rendered_ports:
            return
        endpoint_slice = existing or {
            "kind": "EndpointSlice", "apiVersion": "discovery.k8s.io/v1", "addressType": "IPv4",
            "metadata": {"name": f"{meta['name']}-{random_suffix()}", "generateName": f"{meta['name']}-",
                         "namespace": meta["namespace"], "uid": new_uid(), "generation": 1,
                         "creationTimestamp": now_rfc3339(now),
                         "ownerReferences": [{"apiVersion": "v1", "kind": "Service", "name": meta["name"],
                                              "uid": meta["uid"], "controller": True, "blockOwnerDeletion": True}]}}
        if existing is not None:
            endpoint_slice["metadata"]["generation"] = endpoint_slice["metadata"].get("generation", 1) + 1
        endpoint_slice["metadata"]["labels"] = labels
        endpoint_slice["metadata"]["annotations"] = {
            "endpoints.kubernetes.io/last-change-trigger-time": now_rfc3339(now)}
        endpoint_slice["endpoints"] = endpoints
        endpoint_slice["ports"] = rendered_ports
        self.store.put("endpointslices", endpoint_slice)


# Table output (kubectl get endpoints / endpointslices), the real server's columns.
def column(name, type_, description, priority=0, format_=""):
    return {"name": name, "type": type_, "format": format_, "description": description, "priority": priority}


NAME = column("Name", "string", "Name must be unique within a namespace.", format_="name")
AGE = column("Age", "string", "CreationTimestamp is a timestamp representing the server time when this "
             "object was created.")
COLUMNS = {
    "endpoints": [NAME, column("Endpoints", "string", "Endpoints of the Service"), AGE],
    "endpointslices": [NAME, column("AddressType", "string", "Type of address carried by this EndpointSlice."),
                       column("Ports", "string", "Ports of the EndpointSlice"),
                       column("Endpoints", "string", "Endpoints of the EndpointSlice"), AGE],
}


def age(obj, now):
    created = parse_rfc3339(obj["metadata"].get("creationTimestamp"))
    return "<unknown>" if created is None else human_duration(now - created)


def listed(values, limit=3):
    if not values:
        return "<none>"
    shown = ",".join(values[:limit])
    return shown + (f" + {len(values) - limit} more..." if len(values) > limit else "")


def endpoints_cells(endpoints, now):
    addresses = [f"{a['ip']}:{p['port']}" for s in endpoints.get("subsets") or []
                 for a in s.get("addresses") or [] for p in s.get("ports") or []]
    return [endpoints["metadata"]["name"], listed(addresses), age(endpoints, now)]


def endpointslice_cells(endpoint_slice, now):
    ports = [str(p.get("port")) for p in endpoint_slice.get("ports") or []]
    addresses = [a for e in endpoint_slice.get("endpoints") or [] for a in e.get("addresses") or []]
    return [endpoint_slice["metadata"]["name"], endpoint_slice.get("addressType", ""),
            ",".join(ports) or "<unset>", listed(addresses), age(endpoint_slice, now)]


CELLS = {"endpoints": lambda o, now: endpoints_cells(o, time.time() if now is None else now),
         "endpointslices": lambda o, now: endpointslice_cells(o, time.time() if now is None else now)}
