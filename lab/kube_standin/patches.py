"""PATCH bodies the real API server accepts: JSON merge patch (RFC 7386), strategic merge
patch (Kubernetes' own, lists merged by key) and JSON patch (RFC 6902). Kube stand-in.

`kubectl cordon` sends a strategic merge patch `{"spec":{"unschedulable":true}}` (and null to
uncordon); `kubectl annotate`/`label` send merge patches; `kubectl patch --type=json` a JSON patch.
"""

import copy

from api_errors import bad_request

# List fields whose strategic-merge strategy is "merge" and the key they merge on, as declared
# by patchMergeKey in the Kubernetes API types for the objects the stand-in serves.
MERGE_KEYS = {
    "conditions": "type",
    "addresses": "type",
    "containers": "name",
    "initContainers": "name",
    "ephemeralContainers": "name",
    "env": "name",
    "ports": "containerPort",
    "volumes": "name",
    "volumeMounts": "mountPath",
    "volumeDevices": "devicePath",
    "imagePullSecrets": "name",
    "hostAliases": "ip",
    "ownerReferences": "uid",
    "topologySpreadConstraints": "topologyKey",
    "resourceClaims": "name",
}


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def strategic_merge_patch(target, patch):
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if patch.get("$patch") == "replace":
        return {k: copy.deepcopy(v) for k, v in patch.items() if k != "$patch"}
    if patch.get("$patch") == "delete":
        return None
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if key.startswith("$setElementOrder/") or key in ("$retainKeys", "$patch"):
            continue
        if key.startswith("$deleteFromPrimitiveList/"):
            field = key.split("/", 1)[1]
            result[field] = [v for v in result.get(field, []) if v not in value]
            continue
        if value is None:
            result.pop(key, None)
        elif isinstance(value, list) and key in MERGE_KEYS and isinstance(result.get(key), list):
            result[key] = merge_list(result[key], value, MERGE_KEYS[key])
        elif isinstance(value, dict):
            merged = strategic_merge_patch(result.get(key), value)
            if merged is None:
                result.pop(key, None)
            else:
                result[key] = merged
        else:
            result[key] = copy.deepcopy(value)
    return result


def merge_list(current, patch_items, merge_key):
    result = copy.deepcopy(current)
    for item in patch_items:
        if not isinstance(item, dict) or merge_key not in item:
            raise bad_request(f"map: {item} does not contain declared merge key: {merge_key}")
        index = next((i for i, e in enumerate(result)
                      if isinstance(e, dict) and e.get(merge_key) == item[merge_key]), None)
        if item.get("$patch") == "delete":
            if index is not None:
                result.pop(index)
            continue
        if index is None:
            result.append({k: copy.deepcopy(v) for k, v in item.items() if k != "$patch"})
        else:
            result[index] = strategic_merge_patch(result[index], item)
    return result


def json_patch(target, operations):
    if not isinstance(operations, list):
        raise bad_request("json: cannot unmarshal object into Go value of type jsonpatch.Patch")
    doc = copy.deepcopy(target)
    for op in operations:
        kind, path = op.get("op"), op.get("path", "")
        if kind in ("add", "replace", "test"):
            if "value" not in op:
                raise bad_request(f"the server rejected our request due to an error in our "
                                  f"request: missing value in {kind} operation")
        if kind == "add":
            doc = set_pointer(doc, path, op["value"], insert=True)
        elif kind == "replace":
            get_pointer(doc, path)
            doc = set_pointer(doc, path, op["value"], insert=False)
        elif kind == "remove":
            doc = remove_pointer(doc, path)
        elif kind == "test":
            if get_pointer(doc, path) != op["value"]:
                raise bad_request(f"the server rejected our request due to an error in our "
                                  f"request: testing value {path} failed")
        elif kind in ("move", "copy"):
            value = copy.deepcopy(get_pointer(doc, op.get("from", "")))
            if kind == "move":
                doc = remove_pointer(doc, op.get("from", ""))
            doc = set_pointer(doc, path, value, insert=True)
        else:
            raise bad_request(f"Unexpected kind: {kind}")
    return doc


def split_pointer(path):
    if path == "":
        return []
    if not path.startswith("/"):
        raise bad_request(f'JSON pointer must be empty or start with a "/": {path}')
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def walk(doc, tokens, path):
    node = doc
    for token in tokens:
        try:
            node = node[int(token)] if isinstance(node, list) else node[token]
        except (KeyError, IndexError, ValueError, TypeError):
            raise bad_request(f"the server rejected our request due to an error in our request: "
                              f"doc is missing path: \"{path}\"") from None
    return node


def get_pointer(doc, path):
    return walk(doc, split_pointer(path), path)


def set_pointer(doc, path, value, insert):
    tokens = split_pointer(path)
    if not tokens:
        return copy.deepcopy(value)
    parent, last = walk(doc, tokens[:-1], path), tokens[-1]
    if isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        if insert:
            parent.insert(index, copy.deepcopy(value))
        else:
            parent[index] = copy.deepcopy(value)
    elif isinstance(parent, dict):
        parent[last] = copy.deepcopy(value)
    else:
        raise bad_request(f'doc is missing path: "{path}"')
    return doc


def remove_pointer(doc, path):
    tokens = split_pointer(path)
    if not tokens:
        raise bad_request("cannot remove the whole document")
    get_pointer(doc, path)
    parent = walk(doc, tokens[:-1], path)
    if isinstance(parent, list):
        parent.pop(int(tokens[-1]))
    else:
        parent.pop(tokens[-1])
    return doc


def apply_patch(content_type, target, patch):
    base = (content_type or "").split(";")[0].strip()
    if base == "application/merge-patch+json":
        return merge_patch(target, patch)
    if base == "application/strategic-merge-patch+json":
        return strategic_merge_patch(target, patch)
    if base == "application/json-patch+json":
        return json_patch(target, patch)
    return None
