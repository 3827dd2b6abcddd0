"""The stand-in's audit log: one JSON line per request, shaped as kube-apiserver's audit events
(audit.k8s.io/v1 Event at level Metadata, `--audit-log-path`), so a test can count what a client
asked for: how many lists of which resource, how many watches, how many log reads."""

import json
import threading
import time

AUDIT_VERBS = {"POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}


def object_ref(path):
    """(resource, namespace, name, subresource) of an API path, as the API server's request info
    resolves it; resource is empty for non-resource paths (/version, /healthz, discovery)."""
    parts = [p for p in path.split("/") if p]
    if parts[:2] == ["api", "v1"]:
        rest = parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis":
        rest = parts[3:]
    else:
        return "", "", "", ""
    namespace = ""
    if len(rest) >= 3 and rest[0] == "namespaces":
        namespace, rest = rest[1], rest[2:]
    if not rest:
        return "", "", "", ""
    resource = rest[0]
    name = rest[1] if len(rest) > 1 else ""
    subresource = rest[2] if len(rest) > 2 else ""
    return resource, namespace, name, subresource


def verb_of(method, path, query):
    """The Kubernetes verb: watch (?watch=true), list (GET of a collection), get, create, ..."""
    if method != "GET":
        return AUDIT_VERBS.get(method, method.lower())
    if query.get("watch", [""])[0] in ("true", "1"):
        return "watch"
    resource, _, name, _ = object_ref(path)
    return "list" if resource and not name else "get"


class AuditLog:
    def __init__(self, path):
        self._lock = threading.Lock()
        self._file = open(path, "a", encoding="utf-8") if path else None

    def record(self, method, request_uri, path, query, code):
        if self._file is None:
            return
        resource, namespace, name, subresource = object_ref(path)
        event = {"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "Metadata",
                 "stage": "ResponseStarted" if verb_of(method, path, query) == "watch" else "ResponseComplete",
                 "verb": verb_of(method, path, query), "requestURI": request_uri,
                 "objectRef": {"resource": resource, "namespace": namespace, "name": name,
                               "subresource": subresource},
                 "responseStatus": {"code": code},
                 "stageTimestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        line = json.dumps(event, separators=(",", ":")) + "\n"
        with self._lock:
            self._file.write(line)
            self._file.flush()
