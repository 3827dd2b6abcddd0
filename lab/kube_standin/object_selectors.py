"""Label and field selectors, applied server-side as the real API server does (kube stand-in)."""

import re

import endpoints_resources
import kueue_resources
import workload_resources
from api_errors import bad_request

# Field selectors each resource supports, as the real registry strategies declare them.
FIELDS = {
    "nodes": {
        "metadata.name": lambda o: o["metadata"]["name"],
        "spec.unschedulable": lambda o: "true" if o["spec"].get("unschedulable") else "false",
    },
    "namespaces": {
        "metadata.name": lambda o: o["metadata"]["name"],
        "status.phase": lambda o: o.get("status", {}).get("phase", ""),
    },
    "pods": {
        "metadata.name": lambda o: o["metadata"]["name"],
        "metadata.namespace": lambda o: o["metadata"].get("namespace", ""),
        "spec.nodeName": lambda o: o["spec"].get("nodeName", ""),
        "spec.restartPolicy": lambda o: o["spec"].get("restartPolicy", ""),
        "spec.schedulerName": lambda o: o["spec"].get("schedulerName", ""),
        "spec.serviceAccountName": lambda o: o["spec"].get("serviceAccountName", ""),
        "spec.hostNetwork": lambda o: "true" if o["spec"].get("hostNetwork") else "false",
        "status.phase": lambda o: o.get("status", {}).get("phase", ""),
        "status.podIP": lambda o: o.get("status", {}).get("podIP", ""),
        "status.nominatedNodeName": lambda o: o.get("status", {}).get("nominatedNodeName", ""),
    },
    "events": {
        "metadata.name": lambda o: o["metadata"]["name"],
        "metadata.namespace": lambda o: o["metadata"].get("namespace", ""),
        "involvedObject.kind": lambda o: o.get("involvedObject", {}).get("kind", ""),
        "involvedObject.name": lambda o: o.get("involvedObject", {}).get("name", ""),
        "involvedObject.namespace": lambda o: o.get("involvedObject", {}).get("namespace", ""),
        "involvedObject.uid": lambda o: o.get("involvedObject", {}).get("uid", ""),
        "involvedObject.apiVersion": lambda o: o.get("involvedObject", {}).get("apiVersion", ""),
        "involvedObject.resourceVersion": lambda o: o.get("involvedObject", {}).get("resourceVersion", ""),
        "involvedObject.fieldPath": lambda o: o.get("involvedObject", {}).get("fieldPath", ""),
        "reason": lambda o: o.get("reason", ""),
        "reportingComponent": lambda o: o.get("reportingComponent", ""),
        "source": lambda o: (o.get("source") or {}).get("component", ""),
        "type": lambda o: o.get("type", ""),
    },
    "jobs": {
        "metadata.name": lambda o: o["metadata"]["name"],
        "metadata.namespace": lambda o: o["metadata"].get("namespace", ""),
        "status.successful": lambda o: str(o.get("status", {}).get("succeeded", 0)),
    },
    "services": {
        "metadata.name": lambda o: o["metadata"]["name"],
        "metadata.namespace": lambda o: o["metadata"].get("namespace", ""),
        "spec.clusterIP": lambda o: o.get("spec", {}).get("clusterIP", ""),
        "spec.type": lambda o: o.get("spec", {}).get("type", ""),
    },
}


# Custom resources support only metadata.name and metadata.namespace (and labels), and so do
# apps/v1's kinds here (`kubectl rollout status` watches its Deployment by metadata.name).
for _resource in list(kueue_resources.RESOURCES) + list(endpoints_resources.RESOURCES) + \
        list(workload_resources.BUILT_IN) + list(workload_resources.CUSTOM):
    FIELDS[_resource] = {"metadata.name": lambda o: o["metadata"]["name"],
                         "metadata.namespace": lambda o: o["metadata"].get("namespace", "")}


class Selector:
    """A parsed label selector plus field selector; `matches(obj)` applies both."""

    def __init__(self, resource, label_text, field_text):
        self.label_text = label_text or ""
        self.field_text = field_text or ""
        self.labels = parse_label_selector(self.label_text)
        self.fields = parse_field_selector(resource, self.field_text)

    def empty(self):
        return not self.labels and not self.fields

    def matches(self, obj):
        labels = obj["metadata"].get("labels") or {}
        return (all(r(labels) for r in self.labels)
                and all(getter(obj) == value if op == "=" else getter(obj) != value
                        for getter, op, value in self.fields))


def split_top_level(text):
    """Splits on commas outside parentheses (`a in (x,y),b=c`)."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


LABEL_KEY = re.compile(r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                       r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
SET_EXPR = re.compile(r"^(\S+)\s+(in|notin)\s+\((.*)\)$")


def parse_label_selector(text):
    requirements = []
    for part in split_top_level(text):
        m = SET_EXPR.match(part)
        if m:
            key, op, values = m.group(1), m.group(2), {v.strip() for v in m.group(3).split(",")}
            check_key(key, text)
            if op == "in":
                requirements.append(lambda l, k=key, v=values: l.get(k) in v)
            else:
                requirements.append(lambda l, k=key, v=values: l.get(k) not in v)
            continue
        for op in ("!=", "==", "="):
            if op in part:
                key, value = (s.strip() for s in part.split(op, 1))
                check_key(key, text)
                if op == "!=":
                    requirements.append(lambda l, k=key, v=value: l.get(k) != v)
                else:
                    requirements.append(lambda l, k=key, v=value: l.get(k) == v)
                break
        else:
            if part.startswith("!"):
                key = part[1:].strip()
                check_key(key, text)
                requirements.append(lambda l, k=key: k not in l)
            else:
                check_key(part, text)
                requirements.append(lambda l, k=part: k in l)
    return requirements


def check_key(key, text):
    if not LABEL_KEY.match(key):
        raise bad_request(f"unable to parse requirement: <nil>: Invalid value: \"{key}\": "
                          "name part must consist of alphanumeric characters, '-', '_' or '.', "
                          "and must start and end with an alphanumeric character")


def parse_field_selector(resource, text):
    supported = FIELDS.get(resource, {})
    result = []
    for part in split_top_level(text):
        for op in ("!=", "==", "="):
            if op in part:
                field, value = (s.strip() for s in part.split(op, 1))
                break
        else:
            raise bad_request(f"invalid selector: '{text}'; can't understand '{part}'")
        if field not in supported:
            # kubectl prefixes "Unable to find ... that match label selector ..." itself.
            raise bad_request(f"field label not supported: {field}")
        result.append((supported[field], "!=" if op == "!=" else "=", value))
    return result
