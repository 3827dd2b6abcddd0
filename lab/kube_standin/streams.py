"""Streaming answers of the kube stand-in: watches (chunked JSON events, ADDED/MODIFIED/DELETED,
as Table rows when kubectl asks) and pod logs, including `follow`. Each step takes the store
lock only briefly, never across a write to the client.
"""

import json
import time

import tables
from api_errors import ApiError, bad_request, not_found
from object_selectors import Selector
from responses import Response, first
from store import RESOURCES, api_version


def lookup_pod(store, namespace, name):
    pod = store.get("pods", namespace, name)
    if pod is None:
        raise not_found("pods", "", name)
    return pod


def watch(store, resource, namespace, query, table):
    selector = Selector(resource, first(query, "labelSelector"), first(query, "fieldSelector"))
    timeout = min(float(first(query, "timeoutSeconds", "1800") or 1800), 1800)
    since_text = first(query, "resourceVersion", "")
    initial_events = first(query, "sendInitialEvents") == "true"
    include = first(query, "includeObject", "Metadata")

    def in_scope(obj):
        return namespace is None or obj["metadata"].get("namespace") == namespace

    def encode(event_type, obj, first_table=[True]):
        if table and event_type != "BOOKMARK":
            wrapped = tables.table(resource, [obj], {"resourceVersion": obj["metadata"]["resourceVersion"]},
                                   include, with_columns=first_table[0])
            first_table[0] = False
            obj = wrapped
        return (json.dumps({"type": event_type, "object": obj}) + "\n").encode()

    with store.lock:
        matching, chunks = set(), []
        if since_text in ("", "0") or initial_events:
            for obj in store.items(resource, namespace):
                if selector.matches(obj):
                    matching.add((obj["metadata"].get("namespace", ""), obj["metadata"]["name"]))
                    chunks.append(encode("ADDED", obj))
            since = store.revision
            if initial_events:
                chunks.append(encode("BOOKMARK", {
                    "kind": RESOURCES[resource][2], "apiVersion": api_version(resource),
                    "metadata": {"resourceVersion": str(since),
                                 "annotations": {"k8s.io/initial-events-end": "true"}}}))
        else:
            try:
                since = int(since_text)
            except ValueError:
                raise bad_request(f"invalid resource version: {since_text}") from None
            if since < store.oldest_event_revision() - 1 and since < store.revision:
                expired = ApiError(410, "Expired", f"too old resource version: {since} ({store.revision})")
                chunks.append((json.dumps({"type": "ERROR", "object": expired.status}) + "\n").encode())
                return Response(200, stream=iter(chunks))
            # What matched at `since`, as the real watch cache knows it: the events after it
            # are replayed below, so an object created since then must come as ADDED and one
            # deleted since then as DELETED (a client that listed at `since` holds it).
            first_event = {}
            for _, kind, event_type, obj in store.events_since(since):
                if kind == resource and in_scope(obj):
                    first_event.setdefault((obj["metadata"].get("namespace", ""), obj["metadata"]["name"]),
                                           (event_type, obj))
            for obj in store.items(resource, namespace):
                key = (obj["metadata"].get("namespace", ""), obj["metadata"]["name"])
                if key not in first_event and selector.matches(obj):
                    matching.add(key)
            for key, (event_type, obj) in first_event.items():
                if event_type != "ADDED" and selector.matches(obj):
                    matching.add(key)

    def stream():
        nonlocal since
        yield from chunks
        deadline = time.time() + timeout
        while time.time() < deadline:
            out = []
            with store.changed:
                if store.revision <= since:
                    store.changed.wait(min(1.0, max(0.0, deadline - time.time())))
                for revision, kind, event_type, obj in store.events_since(since):
                    since = revision
                    if kind != resource or not in_scope(obj):
                        continue
                    key = (obj["metadata"].get("namespace", ""), obj["metadata"]["name"])
                    now_matches = event_type != "DELETED" and selector.matches(obj)
                    if key in matching and not now_matches:
                        matching.discard(key)
                        out.append(encode("DELETED", obj))
                    elif now_matches:
                        out.append(encode("MODIFIED" if key in matching else "ADDED", obj))
                        matching.add(key)
            yield from out

    return Response(200, stream=stream())

def pod_log(store, kubelets, namespace, name, query):
    with store.lock:
        pod = lookup_pod(store, namespace, name)
        containers = [c["name"] for c in pod["spec"].get("containers", [])]
        container = first(query, "container")
        if not container:
            if len(containers) != 1:
                raise bad_request(f"a container name must be specified for pod {name}, "
                                  f"choose one of: [{' '.join(containers)}]")
            container = containers[0]
        if container not in containers:
            raise bad_request(f"container {container} is not valid for pod {name}")
        previous = first(query, "previous") == "true"
        statuses = {cs["name"]: cs for cs in pod.get("status", {}).get("containerStatuses") or []}
        state = statuses.get(container, {}).get("state", {})
        # In back-off the container that ended is both the newest and lastState's: the kubelet
        # serves it for a plain read and for `previous` alike, until the next one starts.
        ended_and_waiting = "waiting" in state and \
            "terminated" in (statuses.get(container, {}).get("lastState") or {})
        log = kubelets.container_log(namespace, name, container, previous and not ended_and_waiting)
        if previous and log is None:
            raise bad_request(f'previous terminated container "{container}" in pod "{name}" not found')
        if log is None:
            if not pod["spec"].get("nodeName"):
                raise bad_request(f"pod {name} does not have a host assigned")
            if "waiting" in state or not state:
                reason = state.get("waiting", {}).get("reason", "ContainerCreating")
                raise bad_request(f'container "{container}" in pod "{name}" is waiting to start: {reason}')
        uid = pod["metadata"]["uid"]
    tail = first(query, "tailLines")
    since_seconds = first(query, "sinceSeconds")
    options = dict(timestamps=first(query, "timestamps") == "true",
                   since=time.time() - float(since_seconds) if since_seconds else None,
                   tail=int(tail) if tail is not None else None,
                   limit_bytes=int(first(query, "limitBytes")) if first(query, "limitBytes") else None)
    if log is None:
        return Response(200, "", "text/plain")
    if first(query, "follow") != "true" or previous:
        text, _ = log.render(**options)
        return Response(200, text, "text/plain")

    def running():
        with store.lock:
            current = store.get("pods", namespace, name)
            if current is None or current["metadata"]["uid"] != uid:
                return False
            return (uid, container) in kubelets.runs or \
                (uid, container) in kubelets.restart_at

    def stream():
        text, position = log.render(**options)
        if text:
            yield text.encode()
        while True:
            alive = running()
            text, position = log.render(position, timestamps=options["timestamps"])
            if text:
                yield text.encode()
            if not alive:
                return
            time.sleep(0.2)

    return Response(200, content_type="text/plain", stream=stream())
