"""The kube stand-in's object store: nodes, namespaces, pods, jobs, services and their watch events.

One lock guards everything; HTTP handler threads and the controller thread both take it.
Every write bumps a cluster-wide resourceVersion and records a watch event, the way etcd's
revision does for the real API server. Optionally persisted as JSON in the state directory.
"""

import bisect
import collections
import copy
import json
import os
import random
import threading
import time
import uuid

import endpoints_resources
import kueue_resources
import workload_resources

# resource name -> (group, version, kind, namespaced)
RESOURCES = {
    "nodes": ("", "v1", "Node", False),
    "namespaces": ("", "v1", "Namespace", False),
    "pods": ("", "v1", "Pod", True),
    "events": ("", "v1", "Event", True),
    "jobs": ("batch", "v1", "Job", True),
    "services": ("", "v1", "Service", True),
}
RESOURCES.update(workload_resources.BUILT_IN)
RESOURCES.update(workload_resources.CUSTOM)
RESOURCES.update(kueue_resources.RESOURCES)
RESOURCES.update(endpoints_resources.RESOURCES)


def api_version(resource):
    group, version, _, _ = RESOURCES[resource]
    return f"{group}/{version}" if group else version


def now_rfc3339(t=None):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() if t is None else t))


def parse_rfc3339(text):
    if not text:
        return None
    import calendar
    base = text[:19]
    return calendar.timegm(time.strptime(base, "%Y-%m-%dT%H:%M:%S"))


# Names and uids come from one generator so that `--seed` makes a run reproducible (fixtures).
RANDOM = random.Random()


def new_uid():
    return str(uuid.UUID(int=RANDOM.getrandbits(128), version=4))


class Store:
    """Owned by the server; shared by handler threads and the controller loop (see lock)."""

    EVENT_HISTORY = 20000

    def __init__(self, state_dir=None):
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.state_dir = state_dir
        self.revision = 1
        self.objects = {name: {} for name in RESOURCES}
        self.events = collections.deque(maxlen=self.EVENT_HISTORY)
        self.dirty = False
        self.sorted = {}  # resource -> sorted keys, dropped when a key comes or goes

    # Reads: callers hold self.lock and copy before handing objects out of it.
    def get(self, resource, namespace, name):
        return self.objects[resource].get((namespace or "", name))

    def keys(self, resource, namespace=None):
        """Sorted (namespace, name) keys, of one namespace when given."""
        keys = self.sorted.get(resource)
        if keys is None:
            keys = self.sorted[resource] = sorted(self.objects[resource])
        if namespace:
            return keys[bisect.bisect_left(keys, (namespace, "")):bisect.bisect_left(keys, (namespace + "\0", ""))]
        return keys

    def items(self, resource, namespace=None):
        objects = self.objects[resource]
        return [objects[k] for k in self.keys(resource, namespace)]

    def oldest_event_revision(self):
        return self.events[0][0] if self.events else self.revision + 1

    # Writes
    def put(self, resource, obj, record_event=True):
        """Stores obj (a new or changed object), stamps resourceVersion, records the event."""
        with self.lock:
            meta = obj["metadata"]
            key = (meta.get("namespace", ""), meta["name"])
            event_type = "MODIFIED" if key in self.objects[resource] else "ADDED"
            if event_type == "ADDED":
                self.sorted.pop(resource, None)
            self.revision += 1
            meta["resourceVersion"] = str(self.revision)
            self.objects[resource][key] = obj
            if record_event:
                self.events.append((self.revision, resource, event_type, copy.deepcopy(obj)))
            self.dirty = True
            self.changed.notify_all()
            return obj

    def remove(self, resource, namespace, name):
        with self.lock:
            obj = self.objects[resource].pop((namespace or "", name), None)
            if obj is None:
                return None
            self.sorted.pop(resource, None)
            self.revision += 1
            obj["metadata"]["resourceVersion"] = str(self.revision)
            self.events.append((self.revision, resource, "DELETED", copy.deepcopy(obj)))
            self.dirty = True
            self.changed.notify_all()
            return obj

    def events_since(self, revision):
        return [e for e in self.events if e[0] > revision]

    # Persistence
    def state_path(self):
        return os.path.join(self.state_dir, "state.json") if self.state_dir else None

    def save(self):
        path = self.state_path()
        if not path:
            return
        with self.lock:
            data = {
                "comment": "State of the Strata kube stand-in (not a Kubernetes API server).",
                "revision": self.revision,
                "objects": {r: list(objs.values()) for r, objs in self.objects.items()},
            }
            text = json.dumps(data, indent=1, sort_keys=True)
            self.dirty = False
        write_atomically(path, text)

    def load(self):
        path = self.state_path()
        if not path or not os.path.exists(path):
            return False
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        with self.lock:
            self.revision = int(data["revision"])
            for resource, objs in data["objects"].items():
                if resource in self.objects:
                    for obj in objs:
                        meta = obj["metadata"]
                        self.objects[resource][(meta.get("namespace", ""), meta["name"])] = obj
            self.sorted.clear()
        return True


def write_atomically(path, text):
    tmp = f"{path}.tmp.{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
