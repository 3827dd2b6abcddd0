"""Kubernetes resource quantities ("191450m", "2070762616Ki", "8") for the kube stand-in."""

import re

from api_errors import bad_request

BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
DECIMAL = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
           "P": 1e15, "E": 1e18}
QUANTITY = re.compile(r"^([+-]?[0-9.]+)([eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$")

GPU = "nvidia.com/gpu"


def parse_quantity(text):
    """Returns the value as a float; raises ValueError when the text is not a quantity."""
    if isinstance(text, (int, float)):
        return float(text)
    m = QUANTITY.match(str(text).strip())
    if not m:
        raise ValueError(f"quantities must match the regular expression "
                         f"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
    number, suffix = float(m.group(1)), m.group(2) or ""
    if suffix in BINARY:
        return number * BINARY[suffix]
    if suffix in DECIMAL:
        return number * DECIMAL[suffix]
    return number * 10 ** int(suffix[1:])


def container_requests(container):
    """Effective requests: requests, else limits (the API defaults requests to limits)."""
    resources = container.get("resources") or {}
    limits = resources.get("limits") or {}
    requests = dict(limits)
    requests.update(resources.get("requests") or {})
    result = {}
    for name, value in requests.items():
        try:
            result[name] = parse_quantity(value)
        except ValueError as e:
            raise bad_request(str(e)) from None
    return result


def pod_requests(pod):
    """Sum over the pod's containers (init containers run first, so take their max)."""
    total = {}
    for container in pod["spec"].get("containers", []):
        for name, value in container_requests(container).items():
            total[name] = total.get(name, 0) + value
    for container in pod["spec"].get("initContainers", []) or []:
        for name, value in container_requests(container).items():
            total[name] = max(total.get(name, 0), value)
    return total


def pod_gpus(pod):
    return int(pod_requests(pod).get(GPU, 0))
