"""The workload controllers of the kube stand-in (apps/v1 and the training/serving operators),
ticked together on the controller thread with one owner index per tick, before the Job controller
and the scheduler so that what they make is scheduled in the same tick.
"""

from deployment_controller import DeploymentController
from hyperpod_job_controller import HyperPodJobController
from jobset_controller import JobSetController
from kubeflow_job_controller import KubeflowJobController
from leaderworkerset_controller import LeaderWorkerSetController, lws_pod_webhook
from raycluster_controller import RayClusterController
from rayjob_controller import RayJobController
from replicaset_controller import ReplicaSetController
from statefulset_controller import StatefulSetController
from trainjob_controller import TrainJobController
from workload_objects import OwnerIndex


class WorkloadControllers:
    """Owned by the ControllerLoop; called with the store lock held."""

    def __init__(self, store):
        self.store = store
        # (controller, the kinds it reconciles): owners before what they own, so that a
        # Deployment's new ReplicaSet gets its pods in the same tick.
        self.controllers = [(DeploymentController(store), ("deployments",)),
                            (ReplicaSetController(store), ("replicasets",)),
                            (LeaderWorkerSetController(store), ("leaderworkersets",)),
                            (StatefulSetController(store, pod_webhooks=(lws_pod_webhook,)), ("statefulsets",)),
                            (KubeflowJobController(store), ("pytorchjobs", "mpijobs")),
                            (HyperPodJobController(store), ("hyperpodpytorchjobs",)),
                            (TrainJobController(store), ("trainjobs",)),
                            (JobSetController(store), ("jobsets",)),
                            (RayJobController(store), ("rayjobs",)),
                            (RayClusterController(store), ("rayclusters",))]

    def tick(self, now):
        # A fresh index per controller: it sees what the controllers before it made this tick.
        # Kinds with no object cost nothing (a cluster of bare pods walks no pod here).
        for controller, kinds in self.controllers:
            if any(self.store.objects.get(kind) for kind in kinds):
                controller.tick(OwnerIndex(self.store), now)
