"""Version, API discovery and a minimal OpenAPI v3 document for the kube stand-in.

kubectl's /usr/bin/kubectl (the gcloud dispatcher) reads /version and runs the kubectl whose
minor version matches gitVersion. Discovery is served both ways: aggregated
(apidiscovery.k8s.io v2 and v2beta1, when the Accept header asks for it) and legacy
(/api/v1, /apis/batch/v1 APIResourceLists). The OpenAPI v3 documents describe only the
operations and parameters kubectl checks before `create`/`apply`: they declare that PATCH
and POST accept `fieldValidation`, so kubectl validates on the server (fieldValidation=Strict)
instead of downloading schemas. They carry no type schemas: `kubectl explain` is not served.
"""

import hashlib
import json

import endpoints_resources
import kueue_resources
import workload_resources
from store import RESOURCES

VERBS = {
    "nodes": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
    "namespaces": ["create", "delete", "get", "list", "patch", "update", "watch"],
    "pods": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
    "events": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
    "jobs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
    "services": ["create", "delete", "get", "list", "patch", "update", "watch"],
}
SHORT_NAMES = {"nodes": ["no"], "namespaces": ["ns"], "pods": ["po"], "events": ["ev"], "jobs": [],
               "services": ["svc"]}
SINGULAR = {"nodes": "node", "namespaces": "namespace", "pods": "pod", "events": "event", "jobs": "job",
            "services": "service"}
CATEGORIES = {"pods": ["all"], "jobs": ["all"], "services": ["all"]}
SUBRESOURCES = {"nodes": {"status": ["get", "patch", "update"]},
                "namespaces": {"status": ["get", "patch", "update"]},
                "pods": {"status": ["get", "patch", "update"], "log": ["get"]},
                "jobs": {"status": ["get", "patch", "update"]},
                "services": {"status": ["get", "patch", "update"]}}
for _name, (_singular, _short, _categories, _subresources) in workload_resources.DETAILS.items():
    VERBS[_name] = workload_resources.ALL_VERBS
    SINGULAR[_name] = _singular
    SHORT_NAMES[_name] = _short
    if _categories:
        CATEGORIES[_name] = _categories
    SUBRESOURCES[_name] = _subresources
for _name, (_singular, _short, _categories, _subresources) in kueue_resources.DETAILS.items():
    VERBS[_name] = workload_resources.ALL_VERBS
    SINGULAR[_name] = _singular
    SHORT_NAMES[_name] = _short
    if _subresources:
        SUBRESOURCES[_name] = _subresources
for _name, (_singular, _short) in endpoints_resources.DETAILS.items():
    VERBS[_name] = workload_resources.ALL_VERBS
    SINGULAR[_name] = _singular
    SHORT_NAMES[_name] = _short


def version_priority(version):
    """kube-aggregator's order of versions: GA before beta before alpha, higher numbers first."""
    import re
    match = re.fullmatch(r"v(\d+)(?:(alpha|beta)(\d+))?", version)
    if not match:
        return (3, 0, 0, version)
    major, level, minor = int(match.group(1)), match.group(2), int(match.group(3) or 0)
    return ({None: 0, "beta": 1, "alpha": 2}[level], -major, -minor, version)


def version_info(git_version):
    major_minor = git_version.lstrip("v").split("-")[0].split(".")
    return {"major": major_minor[0], "minor": major_minor[1], "gitVersion": git_version,
            "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
            "buildDate": "2025-01-01T00:00:00Z", "goVersion": "go1.22.0", "compiler": "gc",
            "platform": "linux/amd64"}


def group_versions(resources=RESOURCES):
    """(group, version) -> resource names, the versions of a group in preference order."""
    result = {}
    ordered = sorted(resources.items(), key=lambda item: (item[1][0], version_priority(item[1][1])))
    for name, (group, version, _, _) in ordered:
        result.setdefault((group, version), []).append(name)
    return result


def group_info(group, resources=RESOURCES):
    """The APIGroup of /apis/GROUP, None when no version of it is served."""
    versions = [{"groupVersion": f"{g}/{v}", "version": v} for g, v in group_versions(resources) if g == group]
    if not group or not versions:
        return None
    return {"kind": "APIGroup", "apiVersion": "v1", "name": group, "versions": versions,
            "preferredVersion": versions[0]}


def legacy_resource_list(group, version, served=RESOURCES):
    names = group_versions(served).get((group, version))
    if names is None:
        return None
    resources = []
    for name in names:
        _, _, kind, namespaced = RESOURCES[name]
        entry = {"name": name, "singularName": SINGULAR[name], "namespaced": namespaced,
                 "kind": kind, "verbs": VERBS[name],
                 "storageVersionHash": hashlib.sha256(name.encode()).hexdigest()[:12]}
        if SHORT_NAMES[name]:
            entry["shortNames"] = SHORT_NAMES[name]
        if name in CATEGORIES:
            entry["categories"] = CATEGORIES[name]
        resources.append(entry)
        for sub, verbs in SUBRESOURCES.get(name, {}).items():
            resources.append({"name": f"{name}/{sub}", "singularName": "", "namespaced": namespaced,
                              "kind": "Pod" if sub == "log" else kind, "verbs": verbs})
    return {"kind": "APIResourceList", "apiVersion": "v1",
            "groupVersion": f"{group}/{version}" if group else version, "resources": resources}


def legacy_core_versions(server_address):
    return {"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]}


def legacy_group_list(resources=RESOURCES):
    groups = []
    for group in dict.fromkeys(g for g, _ in group_versions(resources)):
        if group:
            info = group_info(group, resources)
            groups.append({k: v for k, v in info.items() if k not in ("kind", "apiVersion")})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def aggregated(core, discovery_version, served=RESOURCES):
    """APIGroupDiscoveryList for /api (core=True) or /apis."""
    items = []
    by_group = {}
    for (group, version), names in group_versions(served).items():
        if bool(group) == core:
            continue
        resources = []
        for name in names:
            _, _, kind, namespaced = RESOURCES[name]
            entry = {"resource": name, "responseKind": {"group": group, "version": version, "kind": kind},
                     "scope": "Namespaced" if namespaced else "Cluster",
                     "singularResource": SINGULAR[name], "verbs": VERBS[name]}
            if SHORT_NAMES[name]:
                entry["shortNames"] = SHORT_NAMES[name]
            if name in CATEGORIES:
                entry["categories"] = CATEGORIES[name]
            subs = [{"subresource": sub, "verbs": verbs,
                     "responseKind": {"group": group, "version": version,
                                      "kind": "Pod" if sub == "log" else kind}}
                    for sub, verbs in SUBRESOURCES.get(name, {}).items()]
            if subs:
                entry["subresources"] = subs
            resources.append(entry)
        if group not in by_group:
            by_group[group] = {"metadata": {"name": group, "creationTimestamp": None}, "versions": []}
            items.append(by_group[group])
        by_group[group]["versions"].append({"version": version, "resources": resources, "freshness": "Current"})
    return {"kind": "APIGroupDiscoveryList", "apiVersion": f"apidiscovery.k8s.io/{discovery_version}",
            "metadata": {}, "items": items}


def wanted_discovery_version(accept):
    """v2 or v2beta1 if the client accepts aggregated discovery, else None (legacy)."""
    for part in (accept or "").split(","):
        params = dict(p.strip().split("=", 1) for p in part.split(";")[1:] if "=" in p)
        if params.get("g") == "apidiscovery.k8s.io" and params.get("as") == "APIGroupDiscoveryList":
            return params.get("v")
    return None


def openapi_root(served=RESOURCES):
    paths = {}
    for group, version in group_versions(served):
        key = f"apis/{group}/{version}" if group else f"api/{version}"
        document = json.dumps(openapi_group(group, version, served), sort_keys=True).encode()
        paths[key] = {"serverRelativeURL": f"/openapi/v3/{key}?hash={hashlib.sha512(document).hexdigest()[:32].upper()}"}
    return {"paths": paths}


def openapi_group(group, version, served=RESOURCES):
    names = group_versions(served).get((group, version))
    if names is None:
        return None
    prefix = f"/apis/{group}/{version}" if group else f"/api/{version}"
    validation = {"name": "fieldValidation", "in": "query", "schema": {"type": "string", "uniqueItems": True},
                  "description": "fieldValidation instructs the server on how to handle objects in the "
                                 "request containing unknown or duplicate fields (Ignore, Warn, Strict)."}
    dry_run = {"name": "dryRun", "in": "query", "schema": {"type": "string", "uniqueItems": True}}
    paths = {}
    for name in names:
        _, _, kind, namespaced = RESOURCES[name]
        gvk = {"group": group, "version": version, "kind": kind}
        base = f"{prefix}/namespaces/{{namespace}}/{name}" if namespaced else f"{prefix}/{name}"
        op = lambda action: {"operationId": f"{action}{kind}", "parameters": [validation, dry_run],
                             "responses": {"200": {"description": "OK"}},
                             "x-kubernetes-action": action, "x-kubernetes-group-version-kind": gvk}
        paths[base] = {"post": op("post")}
        paths[f"{base}/{{name}}"] = {"patch": op("patch"), "put": op("put")}
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes (Strata kube stand-in)", "version": "unversioned"},
            "paths": paths, "components": {"schemas": {}}}


def _proto_field(number, payload):
    """One length-delimited protobuf field (wire type 2): tag, varint length, bytes."""
    def varint(n):
        out = bytearray()
        while True:
            byte, n = n & 0x7F, n >> 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def openapi_v2_protobuf(kube_version):
    """/openapi/v2 as the real server serves it to kubectl (protobuf, gnostic's
    openapi_v2.Document): only `swagger` and `info`, no definitions. kubectl before 1.29 (and
    Debian 12's 1.20) fetches it for client-side validation before create/apply; with no
    definition of a kind it skips validating it, as it does for a CRD it has no schema of."""
    info = _proto_field(1, b"Kubernetes (Strata kube stand-in)") + _proto_field(2, kube_version.encode())
    return _proto_field(1, b"2.0") + _proto_field(2, info)

