"""Owner references and cascading deletion, as kube-controller-manager's garbage collector
does them (deletes are immediate in the stand-in, so each policy finishes at once):
  Background  the owner goes, then every object whose owners are all gone goes too, level by level;
  Foreground  the dependents (transitively) go first, then the owner;
  Orphan      the dependents lose their reference to the owner and stay.
Runs with the store lock held (API handler or controller thread).
"""

import copy

from job_controller import delete_job
from store import RESOURCES, now_rfc3339

POD_KIND = "Pod"


def controller_reference(owner):
    """The ownerReference a controller writes on what it makes (controller: true)."""
    meta = owner["metadata"]
    return {"apiVersion": owner["apiVersion"], "kind": owner["kind"], "name": meta["name"],
            "uid": meta["uid"], "controller": True, "blockOwnerDeletion": True}


def owner_uids(obj):
    return [r.get("uid") for r in obj["metadata"].get("ownerReferences") or []]


def dependents(store, owner):
    """(resource, object) pairs with an ownerReference to owner. Pods own no pods, so deleting a
    pod scans only the other kinds (an LWS leader pod owns its group's worker StatefulSet)."""
    uid = owner["metadata"]["uid"]
    namespace = owner["metadata"].get("namespace")
    found = []
    for resource, (_, _, _, namespaced) in RESOURCES.items():
        if not namespaced or (owner.get("kind") == POD_KIND and resource == "pods"):
            continue
        for obj in store.items(resource, namespace):
            if uid in owner_uids(obj):
                found.append((resource, obj))
    return found


def remove_one(store, resource, obj, policy):
    meta = obj["metadata"]
    if store.get(resource, meta.get("namespace"), meta["name"]) is not obj:
        return None
    if resource == "jobs":
        return delete_job(store, obj, policy)
    meta["deletionTimestamp"] = now_rfc3339()
    return store.remove(resource, meta.get("namespace"), meta["name"])


def delete_with_dependents(store, resource, obj, policy):
    """DELETE of an owner with a propagationPolicy; returns the deleted object."""
    if policy == "Orphan":
        uid = obj["metadata"]["uid"]
        for dep_resource, dep in dependents(store, obj):
            dep = copy.deepcopy(dep)
            dep["metadata"]["ownerReferences"] = [r for r in dep["metadata"]["ownerReferences"]
                                                  if r.get("uid") != uid]
            if not dep["metadata"]["ownerReferences"]:
                dep["metadata"].pop("ownerReferences")
            store.put(dep_resource, dep)
        return remove_one(store, resource, obj, policy)
    if policy == "Foreground":
        for dep_resource, dep in dependents(store, obj):
            delete_with_dependents(store, dep_resource, dep, "Foreground")
        return remove_one(store, resource, obj, policy)
    removed = remove_one(store, resource, obj, "Background")
    collect(store, obj)
    return removed


def collect(store, owner):
    """Background: every dependent whose owners are all gone goes, and its own dependents."""
    pending = [owner]
    while pending:
        gone = pending.pop()
        for resource, dep in dependents(store, gone):
            alive = [u for u in owner_uids(dep) if u != gone["metadata"]["uid"] and uid_exists(store, u)]
            if alive:
                continue
            if remove_one(store, resource, dep, "Background") is not None:
                pending.append(dep)


def uid_exists(store, uid):
    return any(o["metadata"].get("uid") == uid for objects in store.objects.values() for o in objects.values())
