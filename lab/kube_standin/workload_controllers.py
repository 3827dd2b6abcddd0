"""The workload controllers of the kube stand-in (apps/v1 and the training/serving operators),
ticked together on the controller thread with one owner index per tick, before the Job controller
and the scheduler so that what they make is scheduled in the same tick.
"""

from deployment_controller import DeploymentController
from kubeflow_job_controller import KubeflowJobController
from replicaset_controller import ReplicaSetController
from workload_objects import OwnerIndex

WORKLOAD_RESOURCES = ("deployments", "replicasets", "statefulsets", "pytorchjobs", "mpijobs", "trainjobs",
                      "jobsets", "rayjobs", "rayclusters", "leaderworkersets", "hyperpodpytorchjobs")


class WorkloadControllers:
    """Owned by the ControllerLoop; called with the store lock held."""

    def __init__(self, store):
        self.store = store
        # Owners before what they own: a Deployment's new ReplicaSet gets its pods in the same tick.
        self.controllers = [DeploymentController(store), ReplicaSetController(store),
                            KubeflowJobController(store)]

    def tick(self, now):
        if not any(self.store.objects[r] for r in WORKLOAD_RESOURCES if r in self.store.objects):
            return
        for controller in self.controllers:
            controller.tick(OwnerIndex(self.store), now)
