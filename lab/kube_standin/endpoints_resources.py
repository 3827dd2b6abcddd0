"""Endpoints (core/v1) and EndpointSlices (discovery.k8s.io/v1) as the kube stand-in serves them
(endpoints_controller.py keeps them): resource -> (group, version, kind, namespaced), and their
discovery details (singular, short names)."""

RESOURCES = {
    "endpoints": ("", "v1", "Endpoints", True),
    "endpointslices": ("discovery.k8s.io", "v1", "EndpointSlice", True),
}
DETAILS = {"endpoints": ("endpoints", ["ep"]), "endpointslices": ("endpointslice", [])}
