"""core/v1 Events of the kube stand-in, recorded the way the real components record them.

Two recorders exist in Kubernetes and both are imitated, since clients see both shapes:
- client-go's `record.EventRecorder` (kubelet, job controller, Kueue): `source.component`
  (and `source.host` for the kubelet), `firstTimestamp`/`lastTimestamp`, `count`; a repeat of
  the same (object, reason, message, source) within the aggregation window bumps `count` and
  `lastTimestamp` of the one Event instead of making another.
- the events.k8s.io/v1 recorder (kube-scheduler since 1.19): `eventTime` (microseconds),
  `reportingComponent`/`reportingInstance`, `action`, an empty `source`, and
  `firstTimestamp`/`lastTimestamp` null; repeats go to `series` (count, lastObservedTime).
Events expire `ttl` seconds after their last occurrence (kube-apiserver's --event-ttl, 1 h).
Called with the store lock held (controller thread or handler threads).
"""

import time

from store import new_uid, now_rfc3339, parse_rfc3339

DEFAULT_TTL_SECONDS = 3600
EXPIRY_CHECK_SECONDS = 5.0


def micro_time(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%06dZ" % int((t % 1) * 1e6)


def object_reference(obj, field_path=None):
    meta = obj["metadata"]
    ref = {"kind": obj.get("kind", ""), "apiVersion": obj.get("apiVersion", ""), "name": meta["name"],
           "uid": meta.get("uid", ""), "resourceVersion": meta.get("resourceVersion", "")}
    if meta.get("namespace"):
        ref["namespace"] = meta["namespace"]
    if field_path:
        ref["fieldPath"] = field_path
    return ref


class EventRecorder:
    """Owned by the server; writes Events into the store (callers hold its lock)."""

    def __init__(self, store, ttl_seconds=DEFAULT_TTL_SECONDS):
        self.store = store
        self.ttl = ttl_seconds
        self.last_nanos = 0
        self.recent = {}  # aggregation key -> (namespace, event name)
        self.next_expiry_check = 0.0

    def unique_name(self, object_name, now):
        # The real recorders name an Event "<object name>.<UnixNano in hex>".
        nanos = max(int(now * 1e9), self.last_nanos + 1)
        self.last_nanos = nanos
        return f"{object_name}.{nanos:x}"

    def namespace_of(self, obj):
        # Events about cluster-scoped objects (nodes, ClusterQueues) live in `default`.
        return obj["metadata"].get("namespace") or "default"

    def record(self, obj, type_, reason, message, component, host=None, field_path=None, now=None):
        """An Event as client-go's record.EventRecorder writes it (with aggregation)."""
        now = time.time() if now is None else now
        stamp = now_rfc3339(now)
        namespace = self.namespace_of(obj)
        ref = object_reference(obj, field_path)
        key = (ref.get("uid"), ref.get("fieldPath"), type_, reason, message, component, host)
        existing = self.recent.get(key)
        if existing is not None:
            event = self.store.get("events", *existing)
            if event is not None:
                event["count"] = event.get("count", 1) + 1
                event["lastTimestamp"] = stamp
                event["involvedObject"] = ref
                return self.store.put("events", event)
        source = {"component": component}
        if host:
            source["host"] = host
        event = {"kind": "Event", "apiVersion": "v1",
                 "metadata": {"name": self.unique_name(obj["metadata"]["name"], now), "namespace": namespace,
                              "uid": new_uid(), "creationTimestamp": stamp},
                 "involvedObject": ref, "reason": reason, "message": message, "source": source,
                 "firstTimestamp": stamp, "lastTimestamp": stamp, "count": 1, "type": type_,
                 "eventTime": None, "reportingComponent": component, "reportingInstance": host or ""}
        self.recent[key] = (namespace, event["metadata"]["name"])
        return self.store.put("events", event)

    def record_new_api(self, obj, type_, reason, action, message, component, instance, now=None):
        """An Event as the events.k8s.io/v1 recorder writes it, seen through core/v1."""
        now = time.time() if now is None else now
        namespace = self.namespace_of(obj)
        ref = object_reference(obj)
        key = ("new", ref.get("uid"), type_, reason, action, message, component)
        existing = self.recent.get(key)
        if existing is not None:
            event = self.store.get("events", *existing)
            if event is not None:
                series = event.setdefault("series", {"count": 1})
                series["count"] += 1
                series["lastObservedTime"] = micro_time(now)
                return self.store.put("events", event)
        event = {"kind": "Event", "apiVersion": "v1",
                 "metadata": {"name": self.unique_name(obj["metadata"]["name"], now), "namespace": namespace,
                              "uid": new_uid(), "creationTimestamp": now_rfc3339(now)},
                 "involvedObject": ref, "reason": reason, "message": message, "source": {},
                 "firstTimestamp": None, "lastTimestamp": None, "type": type_,
                 "eventTime": micro_time(now), "action": action,
                 "reportingComponent": component, "reportingInstance": instance}
        self.recent[key] = (namespace, event["metadata"]["name"])
        return self.store.put("events", event)

    def expire(self, now):
        """Deletes Events whose last occurrence is older than the TTL (etcd's lease on them)."""
        if now < self.next_expiry_check:
            return
        self.next_expiry_check = now + min(EXPIRY_CHECK_SECONDS, max(0.2, self.ttl / 4))
        cutoff = now - self.ttl
        for event in self.store.items("events"):
            if last_seen(event) < cutoff:
                meta = event["metadata"]
                self.store.remove("events", meta["namespace"], meta["name"])
        live = {(e["metadata"]["namespace"], e["metadata"]["name"]) for e in self.store.items("events")}
        self.recent = {k: v for k, v in self.recent.items() if v in live}


def last_seen(event):
    """Seconds since the epoch of an Event's last occurrence, in either shape."""
    text = (event.get("series") or {}).get("lastObservedTime") or event.get("lastTimestamp") \
        or event.get("eventTime") or event["metadata"].get("creationTimestamp")
    return parse_rfc3339(text) or 0
