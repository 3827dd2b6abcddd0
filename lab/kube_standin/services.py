"""Services in the kube stand-in: admission (defaults and validation as the API server's Service
strategy) and the cluster DNS a pod sees (what CoreDNS answers for headless Services).

Only what a headless Service needs is simulated: a Service with `clusterIP: None` and a
selector publishes, for every pod of its namespace that it selects and that sets
`spec.hostname` and `spec.subdomain` = the Service's name, the names
`HOSTNAME.SUBDOMAIN.NAMESPACE.svc.cluster.local` (and, through the pod's search domains,
`HOSTNAME.SUBDOMAIN`). In the lab every node is this machine, so every such name is 127.0.0.1
(the pod IPs the stand-in shows are data only). A ClusterIP Service gets an address from
10.96.0.0/12 that nothing routes: no kube-proxy.
"""

import re

from api_errors import FieldError, invalid
from store import RANDOM

DNS_1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
LABEL_1035_MESSAGE = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
                      "start with an alphabetic character, and end with an alphanumeric character "
                      "(e.g. 'my-name',  or 'abc-123', regex used for validation is "
                      "'[a-z]([-a-z0-9]*[a-z0-9])?')")
CLUSTER_DOMAIN = "cluster.local"
LAB_ADDRESS = "127.0.0.1"


def default_service(service):
    spec = service.setdefault("spec", {})
    spec.setdefault("type", "ClusterIP")
    spec.setdefault("sessionAffinity", "None")
    spec.setdefault("internalTrafficPolicy", "Cluster")
    spec.setdefault("ipFamilyPolicy", "SingleStack")
    spec.setdefault("ipFamilies", ["IPv4"])
    if not spec.get("clusterIP"):
        spec["clusterIP"] = "10.%d.%d.%d" % (96 + RANDOM.randrange(16), RANDOM.randrange(256),
                                             RANDOM.randrange(1, 255))
    spec["clusterIPs"] = [spec["clusterIP"]]
    for port in spec.get("ports") or []:
        port.setdefault("protocol", "TCP")
        if "port" in port:
            port.setdefault("targetPort", port["port"])
    service["status"] = {"loadBalancer": {}}


def validate_service(service):
    meta, spec = service["metadata"], service.get("spec") or {}
    errors = []
    name = meta.get("name", "")
    if not name:
        errors.append(FieldError("metadata.name", "Required", "name or generateName is required"))
    elif len(name) > 63 or not DNS_1035_LABEL.match(name):
        errors.append(FieldError("metadata.name", "Invalid", LABEL_1035_MESSAGE, name))
    if spec.get("type") not in ("ClusterIP", "NodePort", "LoadBalancer", "ExternalName"):
        errors.append(FieldError("spec.type", "NotSupported", value=spec.get("type"),
                                 supported=["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]))
    ports = spec.get("ports") or []
    if not ports and spec.get("clusterIP") != "None" and spec.get("type") != "ExternalName":
        errors.append(FieldError("spec.ports", "Required"))
    for i, port in enumerate(ports):
        number = port.get("port")
        if not isinstance(number, int) or not 1 <= number <= 65535:
            errors.append(FieldError(f"spec.ports[{i}].port", "Invalid",
                                     "must be between 1 and 65535, inclusive", number))
    if errors:
        raise invalid("Service", "", name, errors)


def selects(service, pod):
    selector = (service.get("spec") or {}).get("selector") or {}
    labels = pod["metadata"].get("labels") or {}
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def pod_hosts(store, pod):
    """The /etc/hosts lines a pod's process resolves with: its own hostname (as the kubelet
    writes it) and the cluster DNS names of the headless Services of its namespace."""
    namespace = pod["metadata"]["namespace"]
    spec = pod["spec"]
    own = spec.get("hostname") or pod["metadata"]["name"]
    lines = []
    if spec.get("subdomain"):
        lines.append(f"{LAB_ADDRESS}\t{own}.{spec['subdomain']}.{namespace}.svc.{CLUSTER_DOMAIN}\t{own}")
    else:
        lines.append(f"{LAB_ADDRESS}\t{own}")
    headless = [s for s in store.items("services", namespace)
                if (s.get("spec") or {}).get("clusterIP") == "None"]
    for service in headless:
        name = service["metadata"]["name"]
        for other in store.items("pods", namespace):
            other_spec = other["spec"]
            if other_spec.get("subdomain") != name or not other_spec.get("hostname") \
                    or not selects(service, other):
                continue
            host = other_spec["hostname"]
            lines.append(f"{LAB_ADDRESS}\t{host}.{name}.{namespace}.svc.{CLUSTER_DOMAIN}\t{host}.{name}")
    return lines
