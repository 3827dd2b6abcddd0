"""The Kueue custom resources the kube stand-in serves (kueue.x-k8s.io/v1beta1, the version
Kueue 0.9-0.10 stores), with their discovery details as Kueue's CRDs declare them.
Like the other CRDs (workload_resources.py) they are served only while installed (`--crds`).
The names the Kueue modules share (groups, labels, resources) are here too.
"""

GROUP = "kueue.x-k8s.io"
VERSION = "v1beta1"
API_VERSION = f"{GROUP}/{VERSION}"
VISIBILITY_GROUP = "visibility.kueue.x-k8s.io"
VISIBILITY_VERSION = "v1beta1"
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class"
JOB_UID_LABEL = "kueue.x-k8s.io/job-uid"

RESOURCE_FLAVORS = "resourceflavors"
CLUSTER_QUEUES = "clusterqueues"
LOCAL_QUEUES = "localqueues"
WORKLOADS = "workloads"
PRIORITY_CLASSES = "workloadpriorityclasses"

# resource -> (group, version, kind, namespaced)
RESOURCES = {
    "resourceflavors": ("kueue.x-k8s.io", "v1beta1", "ResourceFlavor", False),
    "clusterqueues": ("kueue.x-k8s.io", "v1beta1", "ClusterQueue", False),
    "localqueues": ("kueue.x-k8s.io", "v1beta1", "LocalQueue", True),
    "workloads": ("kueue.x-k8s.io", "v1beta1", "Workload", True),
    "workloadpriorityclasses": ("kueue.x-k8s.io", "v1beta1", "WorkloadPriorityClass", False),
}

STATUS = {"status": ["get", "patch", "update"]}
# resource -> (singular, short names, categories, subresources)
DETAILS = {
    "resourceflavors": ("resourceflavor", ["flavor", "flavors", "rf"], [], {}),
    "clusterqueues": ("clusterqueue", ["cq"], [], STATUS),
    "localqueues": ("localqueue", ["queue", "queues", "lq"], [], STATUS),
    "workloads": ("workload", ["wl"], [], STATUS),
    "workloadpriorityclasses": ("workloadpriorityclass", [], [], {}),
}
