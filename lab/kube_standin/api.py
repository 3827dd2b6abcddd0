"""Request handling of the kube stand-in: routes REST paths the way the real API server lays
them out (/api/v1/..., /apis/batch/v1/..., namespaced and cluster-scoped) and implements get,
list (with selectors and paging), watch, create, replace, patch, delete and pod logs.
All reads and writes of the store happen under its lock; streams take it per step.
"""

import base64
import bisect
import copy
import json

import admission
import discovery
import endpoints_controller
import kueue_resources
import kueue_tables
import kueue_visibility
import kueue_webhook
import lab_cluster
import services
import streams
import tables
import workload_admission
import workload_resources
import workload_tables
from garbage_collector import delete_with_dependents
from api_errors import (FieldError, already_exists, bad_request, conflict, invalid,
                        method_not_allowed, not_found, path_not_found, unsupported_media_type)
from job_controller import delete_job
from object_selectors import Selector
from patches import apply_patch
from responses import Response, first, json_response, list_kind
from store import RESOURCES, api_version, now_rfc3339

TABLE_MARK = "as=Table"
tables.add_printers(workload_tables.COLUMNS, workload_tables.CELLS)
tables.add_printers(kueue_tables.COLUMNS, kueue_tables.CELLS)
tables.add_printers(endpoints_controller.COLUMNS, endpoints_controller.CELLS)


class Api:
    def __init__(self, store, loop, options):
        self.store = store
        self.loop = loop
        self.options = options
        # What this server answers for: the built-in resources and the CRDs --crds installs.
        self.served = workload_resources.served_resources(RESOURCES, getattr(options, "crds", "all"))

    # Routing
    def handle(self, method, path, query, headers, body):
        accept = headers.get("Accept", "")
        if path == "/version":
            return json_response(200, discovery.version_info(self.options.kube_version))
        if path in ("/healthz", "/livez", "/readyz"):
            return Response(200, "ok", "text/plain; charset=utf-8")
        if path in ("/api", "/apis"):
            wanted = discovery.wanted_discovery_version(accept) if self.options.discovery == "aggregated" else None
            if wanted in ("v2", "v2beta1"):
                body = discovery.aggregated(path == "/api", wanted, self.served)
                if path == "/apis" and kueue_resources.WORKLOADS in self.served:
                    body["items"].append(kueue_visibility.visibility_aggregated_discovery())
                return json_response(200, body, content_type=f"application/json;g=apidiscovery.k8s.io;v={wanted};"
                                                              "as=APIGroupDiscoveryList")
            if path == "/api":
                return json_response(200, discovery.legacy_core_versions(self.options.listen))
            body = discovery.legacy_group_list(self.served)
            if kueue_resources.WORKLOADS in self.served:
                body["groups"].append(kueue_visibility.visibility_group())
            return json_response(200, body)
        if path == "/openapi/v2":
            return Response(200, discovery.openapi_v2_protobuf(self.options.kube_version),
                            "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
        if path == "/openapi/v3":
            return json_response(200, discovery.openapi_root(self.served))
        if path.startswith("/openapi/v3/"):
            rest = path[len("/openapi/v3/"):].split("/")
            doc = None
            if rest[0] == "api" and len(rest) == 2:
                doc = discovery.openapi_group("", rest[1], self.served)
            elif rest[0] == "apis" and len(rest) == 3:
                doc = discovery.openapi_group(rest[1], rest[2], self.served)
            if doc is None:
                raise path_not_found()
            return json_response(200, doc)
        if path == "/strata-lab/v1/gpu-allocations":
            return json_response(200, self.loop.allocations())
        parts = [p for p in path.split("/") if p]
        if len(parts) >= 2 and parts[:2] == ["apis", kueue_resources.VISIBILITY_GROUP] \
                and kueue_resources.WORKLOADS in self.served:
            # Kueue's visibility API server (aggregated behind the API server in a real cluster).
            return kueue_visibility.handle_request(self.loop.kueue, method, parts[2:], query)
        if len(parts) >= 2 and parts[0] == "api":
            group, version, rest = "", parts[1], parts[2:]
        elif len(parts) >= 3 and parts[0] == "apis":
            group, version, rest = parts[1], parts[2], parts[3:]
        elif len(parts) == 2 and parts[0] == "apis" and discovery.group_info(parts[1], self.served):
            return json_response(200, discovery.group_info(parts[1], self.served))
        else:
            return Response(404, "404 page not found\n", "text/plain; charset=utf-8")
        if not rest:
            resources = discovery.legacy_resource_list(group, version, self.served)
            if resources is None:
                raise path_not_found()
            return json_response(200, resources)
        served = {n for n, r in self.served.items() if (r[0], r[1]) == (group, version)}
        namespace = None
        if rest[0] == "namespaces" and len(rest) >= 3 and rest[2] in served and RESOURCES[rest[2]][3]:
            namespace, rest = rest[1], rest[2:]
        resource = rest[0]
        if resource not in served or len(rest) > 3:
            raise path_not_found()
        name = rest[1] if len(rest) > 1 else None
        sub = rest[2] if len(rest) > 2 else None
        if namespace is not None and not RESOURCES[resource][3]:
            raise path_not_found()
        if sub not in (None, "status", "log", "scale") or (sub == "log" and resource != "pods") \
                or (sub == "scale" and "scale" not in discovery.SUBRESOURCES.get(resource, {})):
            raise path_not_found()
        return self.dispatch(method, resource, namespace, name, sub, query, headers, body)

    def dispatch(self, method, resource, namespace, name, sub, query, headers, body):
        table = TABLE_MARK in headers.get("Accept", "")
        if name is None:
            if method == "GET":
                if first(query, "watch") in ("true", "1"):
                    return self.watch(resource, namespace, query, table)
                return self.list(resource, namespace, query, table)
            if method == "POST":
                return self.create(resource, namespace, query, body)
            if method == "DELETE":
                return self.delete_collection(resource, namespace, query)
            raise method_not_allowed()
        if sub == "log":
            if method != "GET":
                raise method_not_allowed()
            return self.pod_log(namespace, name, query)
        if sub == "scale":
            return self.scale(method, resource, namespace, name, query, headers, body)
        if method == "GET":
            return self.get(resource, namespace, name, table, query)
        if method == "PATCH":
            return self.patch(resource, namespace, name, sub, query, headers, body)
        if method == "PUT":
            return self.replace(resource, namespace, name, sub, query, body)
        if method == "DELETE":
            return self.delete(resource, namespace, name, query, body)
        raise method_not_allowed()

    # Helpers
    def lookup(self, resource, namespace, name):
        obj = self.store.get(resource, namespace, name)
        if obj is None:
            raise not_found(resource, RESOURCES[resource][0], name)
        return obj

    def require_namespace(self, namespace):
        if namespace and self.store.get("namespaces", "", namespace) is None:
            raise not_found("namespaces", "", namespace)

    @staticmethod
    def decode(body):
        try:
            obj = json.loads(body or b"{}")
        except ValueError as e:
            raise bad_request(f"couldn't get version/kind; json parse error: {e}") from None
        return obj

    # Reads
    def get(self, resource, namespace, name, table, query):
        with self.store.lock:
            obj = self.lookup(resource, namespace, name)
            if table:
                return json_response(200, tables.table(resource, [obj], {"resourceVersion": obj["metadata"]["resourceVersion"]},
                                                       first(query, "includeObject", "Metadata")))
            return json_response(200, obj)

    def list(self, resource, namespace, query, table):
        selector = Selector(resource, first(query, "labelSelector"), first(query, "fieldSelector"))
        limit = int(first(query, "limit", "0") or 0)
        token = first(query, "continue")
        with self.store.lock:
            keys = self.store.keys(resource, namespace)
            objects = self.store.objects[resource]
            revision = str(self.store.revision)
            start = 0
            if token:
                try:
                    state = json.loads(base64.b64decode(token))
                    revision, after = state["rv"], tuple(state["start"])
                except (ValueError, KeyError, TypeError):
                    raise bad_request("continue key is not valid: incorrect encoded start "
                                      "resourceVersion (version meta.k8s.io/v1)") from None
                start = bisect.bisect_right(keys, after)
            # Walk from the continue point, stopping once the page is full: a page costs its
            # own size, not the whole list (50,000 pods come in 100 pages of 500).
            page, i = [], start
            while i < len(keys) and (limit <= 0 or len(page) < limit):
                obj = objects[keys[i]]
                if selector.matches(obj):
                    page.append(obj)
                i += 1
            meta = {"resourceVersion": revision}
            more = limit > 0 and any(selector.matches(objects[k]) for k in keys[i:])
            if more:
                last = page[-1]["metadata"]
                meta["continue"] = base64.b64encode(json.dumps(
                    {"rv": revision, "start": [last.get("namespace", ""), last["name"]]}).encode()).decode()
                if selector.empty():  # the real server counts only when no selector is given
                    meta["remainingItemCount"] = len(keys) - i
            # Built-in lists drop each item's kind and apiVersion; a custom resource's list (the
            # CRD's unstructured objects) keeps them.
            custom = workload_resources.is_custom(RESOURCES[resource][0])
            if table:
                body = tables.table(resource, page, meta, first(query, "includeObject", "Metadata"))
            else:
                body = {"kind": list_kind(resource), "apiVersion": api_version(resource), "metadata": meta,
                        "items": [o if custom else {k: v for k, v in o.items() if k not in ("kind", "apiVersion")}
                                  for o in page]}
            return Response(200, json.dumps(body).encode())

    def watch(self, resource, namespace, query, table):
        return streams.watch(self.store, resource, namespace, query, table)

    def pod_log(self, namespace, name, query):
        return streams.pod_log(self.store, self.loop.kubelets, namespace, name, query)

    # Writes
    def create(self, resource, namespace, query, body):
        obj = self.decode(body)
        group, version, kind, namespaced = RESOURCES[resource]
        if not isinstance(obj, dict):
            raise bad_request("Object 'Kind' is missing in request body")
        if obj.get("kind") and obj["kind"] != kind:
            raise bad_request(f"the server could not find the requested resource (post {resource})")
        if obj.get("apiVersion") and obj["apiVersion"] != api_version(resource):
            raise bad_request(f"the API version in the data ({obj['apiVersion']}) does not match the "
                              f"expected API version ({api_version(resource)})")
        obj["kind"], obj["apiVersion"] = kind, api_version(resource)
        meta = obj.setdefault("metadata", {})
        if namespaced:
            if meta.get("namespace") and meta["namespace"] != namespace:
                raise bad_request("the namespace of the provided object does not match the "
                                  "namespace sent on the request")
        warnings = []
        with self.store.lock:
            if namespaced:
                self.require_namespace(namespace)
            if kind in admission.SCHEMAS:
                warnings = admission.check_fields(kind, obj, first(query, "fieldValidation", "Warn"))
            if resource == "jobs":
                admission.default_job(obj, namespace)
                admission.validate_job(obj)
            elif resource == "pods":
                admission.default_pod(obj, namespace)
                admission.validate_pod(obj)
            elif resource == "services":
                admission.default_metadata(obj, namespace)
                services.default_service(obj)
                services.validate_service(obj)
            elif resource == "namespaces":
                name = meta.get("name", "")
                if not admission.DNS_LABEL.match(name):
                    raise invalid("Namespace", "", name, [FieldError(
                        "metadata.name", "Invalid" if name else "Required", admission.LABEL_MESSAGE,
                        name or None)])
                labels = meta.get("labels") or {}
                obj = lab_cluster.make_namespace(name, now_rfc3339())
                obj["metadata"]["labels"].update(labels)
            elif resource in workload_admission.DEFAULTERS:
                admission.default_metadata(obj, namespace)
                workload_admission.admit(resource, obj)
            else:
                admission.default_metadata(obj, namespace if namespaced else None)
                if not namespaced:
                    obj["metadata"].pop("namespace", None)
            if kueue_resources.WORKLOADS in self.served:  # Kueue's webhooks, where Kueue is installed
                kueue_webhook.admit_on_create(resource, obj)
            name = obj["metadata"]["name"]
            if self.store.get(resource, namespace, name) is not None:
                raise already_exists(resource, group, name)
            if first(query, "dryRun") != "All":
                self.store.put(resource, obj)
            return json_response(201, obj, warnings)

    def patch(self, resource, namespace, name, sub, query, headers, body):
        content_type = headers.get("Content-Type", "")
        if content_type.startswith("application/apply-patch"):
            raise unsupported_media_type(content_type)
        patch = self.decode(body)
        with self.store.lock:
            old = self.lookup(resource, namespace, name)
            new = apply_patch(content_type, old, patch)
            if new is None:
                raise unsupported_media_type(content_type)
            wanted_rv = (patch.get("metadata") or {}).get("resourceVersion") if isinstance(patch, dict) else None
            if wanted_rv and wanted_rv != old["metadata"]["resourceVersion"]:
                raise conflict(resource, RESOURCES[resource][0], name)
            return self.store_update(resource, old, new, sub, query)

    def replace(self, resource, namespace, name, sub, query, body):
        new = self.decode(body)
        with self.store.lock:
            old = self.lookup(resource, namespace, name)
            wanted_rv = (new.get("metadata") or {}).get("resourceVersion")
            if wanted_rv and wanted_rv != old["metadata"]["resourceVersion"]:
                raise conflict(resource, RESOURCES[resource][0], name)
            return self.store_update(resource, old, new, sub, query)

    def store_update(self, resource, old, new, sub, query):
        if not isinstance(new, dict):
            raise bad_request("the body of the request was not a JSON object")
        group, _, kind, _ = RESOURCES[resource]
        name = old["metadata"]["name"]
        new["kind"], new["apiVersion"] = old["kind"], old["apiVersion"]
        meta = new.setdefault("metadata", {})
        for field in ("name", "namespace", "uid", "creationTimestamp", "generation", "ownerReferences"):
            if field in old["metadata"] and field not in ("ownerReferences", "generation"):
                meta[field] = old["metadata"][field]
        if sub == "status":
            result = copy.deepcopy(old)
            result["status"] = new.get("status", {})
        else:
            result = new
            result["status"] = copy.deepcopy(old.get("status", {}))
            self.check_immutable(resource, kind, group, name, old, result)
            if resource in kueue_webhook.KINDS and kueue_resources.WORKLOADS in self.served:
                kueue_webhook.validate(resource, result)  # the CRD's schema, on updates too
            if resource in workload_admission.DEFAULTERS:
                workload_admission.validate_update(resource, result)
            if old.get("spec") != result.get("spec") and "generation" in old["metadata"]:
                meta["generation"] = old["metadata"]["generation"] + 1
        if first(query, "dryRun") == "All":
            return json_response(200, result)
        self.store.put(resource, result)
        return json_response(200, result)

    def scale(self, method, resource, namespace, name, query, headers, body):
        """The scale subresource (autoscaling/v1 Scale), as `kubectl scale` reads and patches it."""
        if method not in ("GET", "PATCH", "PUT"):
            raise method_not_allowed()
        with self.store.lock:
            obj = self.lookup(resource, namespace, name)
            current = workload_admission.scale_of(resource, obj)
            if method != "GET":
                wanted = self.decode(body)
                if method == "PATCH":
                    wanted = apply_patch(headers.get("Content-Type", ""), current, wanted)
                    if wanted is None:
                        raise unsupported_media_type(headers.get("Content-Type", ""))
                replicas = (wanted.get("spec") or {}).get("replicas") if isinstance(wanted, dict) else None
                if not isinstance(replicas, int) or isinstance(replicas, bool) or replicas < 0:
                    raise invalid("Scale", "autoscaling", name, [FieldError(
                        "spec.replicas", "Invalid", "must be greater than or equal to 0", replicas)])
                if first(query, "dryRun") != "All":
                    updated = copy.deepcopy(obj)
                    workload_admission.set_replicas(resource, updated, replicas)
                    updated["metadata"]["generation"] = updated["metadata"].get("generation", 1) + 1
                    obj = self.store.put(resource, updated)
                current = workload_admission.scale_of(resource, obj)
                if first(query, "dryRun") == "All":
                    current["spec"]["replicas"] = replicas
            return json_response(200, current)

    def check_immutable(self, resource, kind, group, name, old, new):
        errors = []
        if resource == "jobs":
            for field in ("template", "selector", "completionMode"):
                if old["spec"].get(field) != new.get("spec", {}).get(field):
                    errors.append(FieldError(f"spec.{field}", "Invalid", "field is immutable"))
        elif resource == "pods":
            allowed = ("activeDeadlineSeconds", "tolerations", "containers")
            old_spec, new_spec = old["spec"], new.get("spec", {})
            strip = lambda s: {k: v for k, v in s.items() if k not in allowed}
            images_only = [{k: v for k, v in c.items() if k != "image"} for c in old_spec.get("containers", [])] == \
                [{k: v for k, v in c.items() if k != "image"} for c in new_spec.get("containers", [])]
            if strip(old_spec) != strip(new_spec) or not images_only:
                errors.append(FieldError("spec", "Forbidden",
                                         "pod updates may not change fields other than `spec.containers[*].image`,"
                                         "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
                                         "`spec.tolerations` (only additions to existing tolerations),"
                                         "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it "
                                         "was previously negative)"))
        if errors:
            raise invalid(kind, group, name, errors)

    def delete(self, resource, namespace, name, query, body):
        options = self.decode(body) if body else {}
        policy = options.get("propagationPolicy") or first(query, "propagationPolicy")
        if options.get("orphanDependents") is True:
            policy = "Orphan"
        with self.store.lock:
            obj = self.lookup(resource, namespace, name)
            preconditions = options.get("preconditions") or {}
            if preconditions.get("uid") and preconditions["uid"] != obj["metadata"]["uid"]:
                raise conflict(resource, RESOURCES[resource][0], name)
            if preconditions.get("resourceVersion") and \
                    preconditions["resourceVersion"] != obj["metadata"]["resourceVersion"]:
                raise conflict(resource, RESOURCES[resource][0], name)
            if first(query, "dryRun") == "All" or "All" in (options.get("dryRun") or []):
                return json_response(200, obj)
            return json_response(200, self.remove(resource, obj, policy))

    def remove(self, resource, obj, policy):
        namespace, name = obj["metadata"].get("namespace", ""), obj["metadata"]["name"]
        if resource == "jobs":
            # batch/v1 Jobs default to orphaning their pods when the client names no policy.
            return delete_job(self.store, obj, policy or "Orphan")
        if resource in workload_resources.BUILT_IN or resource in workload_resources.CUSTOM or resource == "pods":
            # Deployments, StatefulSets, the training/serving CRDs, pods (an LWS leader pod owns its
            # group's workers): background propagation by default, as the garbage collector does.
            return delete_with_dependents(self.store, resource, obj, policy or "Background")
        if resource == "namespaces":
            for kind in [r for r, spec in RESOURCES.items() if spec[3]]:
                for item in self.store.items(kind, name):
                    self.store.remove(kind, name, item["metadata"]["name"])
        elif resource == "nodes":
            for pod in self.store.items("pods"):
                if pod["spec"].get("nodeName") == name:
                    self.store.remove("pods", pod["metadata"]["namespace"], pod["metadata"]["name"])
        obj["metadata"]["deletionTimestamp"] = now_rfc3339()
        return self.store.remove(resource, namespace, name)

    def delete_collection(self, resource, namespace, query):
        selector = Selector(resource, first(query, "labelSelector"), first(query, "fieldSelector"))
        policy = first(query, "propagationPolicy")
        with self.store.lock:
            removed = [self.remove(resource, o, policy) for o in self.store.items(resource, namespace)
                       if selector.matches(o)]
            return json_response(200, {"kind": list_kind(resource), "apiVersion": api_version(resource),
                                       "metadata": {"resourceVersion": str(self.store.revision)},
                                       "items": removed})
