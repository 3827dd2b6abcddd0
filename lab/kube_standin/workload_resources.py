"""The workload kinds the kube stand-in serves beside core/v1 and batch/v1: apps/v1 (built in)
and the training/serving custom resources at the API group and version their operators install.

A custom resource is served only while its CRD is "installed" (`--crds`): otherwise its group is
absent from discovery and its paths answer 404, as on a cluster without that operator.
"""

# resource -> (group, version, kind, namespaced)
BUILT_IN = {
    "deployments": ("apps", "v1", "Deployment", True),
    "replicasets": ("apps", "v1", "ReplicaSet", True),
    "statefulsets": ("apps", "v1", "StatefulSet", True),
}
CUSTOM = {
    "pytorchjobs": ("kubeflow.org", "v1", "PyTorchJob", True),          # training-operator v1
    "mpijobs": ("kubeflow.org", "v2beta1", "MPIJob", True),             # mpi-operator v0.4+
    "trainjobs": ("trainer.kubeflow.org", "v1alpha1", "TrainJob", True),  # Kubeflow Trainer v2
    "jobsets": ("jobset.x-k8s.io", "v1alpha2", "JobSet", True),
    "rayjobs": ("ray.io", "v1", "RayJob", True),                        # KubeRay >= 1.0
    "rayclusters": ("ray.io", "v1", "RayCluster", True),
    "leaderworkersets": ("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet", True),
    "hyperpodpytorchjobs": ("sagemaker.amazonaws.com", "v1", "HyperPodPyTorchJob", True),
}
# Groups the API server serves itself; every other group comes from a CRD.
BUILT_IN_GROUPS = {"", "apps", "batch", "events.k8s.io", "apiextensions.k8s.io", "coordination.k8s.io",
                   "discovery.k8s.io", "networking.k8s.io", "policy", "rbac.authorization.k8s.io",
                   "storage.k8s.io", "scheduling.k8s.io", "autoscaling"}

# Discovery details: singular, short names, categories, subresources (name -> verbs).
STATUS = {"status": ["get", "patch", "update"]}
SCALE = {"scale": ["get", "patch", "update"]}
DETAILS = {
    "deployments": ("deployment", ["deploy"], ["all"], dict(STATUS, **SCALE)),
    "replicasets": ("replicaset", ["rs"], ["all"], dict(STATUS, **SCALE)),
    "statefulsets": ("statefulset", ["sts"], ["all"], dict(STATUS, **SCALE)),
    "pytorchjobs": ("pytorchjob", [], [], dict(STATUS, **SCALE)),
    "mpijobs": ("mpijob", [], [], STATUS),
    "trainjobs": ("trainjob", [], [], STATUS),
    "jobsets": ("jobset", [], [], STATUS),
    "rayjobs": ("rayjob", [], ["all"], STATUS),
    "rayclusters": ("raycluster", [], ["all"], STATUS),
    "leaderworkersets": ("leaderworkerset", ["lws"], [], dict(STATUS, **SCALE)),
    "hyperpodpytorchjobs": ("hyperpodpytorchjob", ["hyperpodpytorchjob", "hpjob"], [], STATUS),
}
ALL_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]


def is_custom(group):
    return group not in BUILT_IN_GROUPS


def crd_name(resource, group):
    return f"{resource}.{group}"


def parse_crds(text):
    """--crds all|none|LIST: LIST names CRDs (`pytorchjobs.kubeflow.org`) or whole API groups
    (`ray.io`), comma-separated. Returns a predicate over (resource, group)."""
    text = (text or "all").strip()
    if text == "all":
        return lambda resource, group: True
    if text == "none":
        return lambda resource, group: not is_custom(group)
    wanted = {w.strip() for w in text.split(",") if w.strip()}
    return lambda resource, group: not is_custom(group) or group in wanted \
        or crd_name(resource, group) in wanted


def served_resources(all_resources, crds):
    """The subset of RESOURCES this server answers for, under its --crds option."""
    installed = parse_crds(crds)
    return {name: r for name, r in all_resources.items() if installed(name, r[0])}
