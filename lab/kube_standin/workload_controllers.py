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

    def __init__(self, store, events=None):
        self.store = store
        self.revision_after_quiet_tick = None
        self.reported = set()
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
        for controller, _ in self.controllers:
            controller.events = events  # the loop's EventRecorder: each records as its component

    def report(self, controller, error):
        """Said once per controller and error text in the server's log (a stand-in bug, or an
        object admission let through): the other controllers, the scheduler and the kubelets
        go on."""
        key = (type(controller).__name__, str(error))
        if key not in self.reported:
            self.reported.add(key)
            import traceback
            traceback.print_exc()
            print(f"kube stand-in: {key[0]} failed, its tick skipped: {error}", flush=True)

    def tick(self, now):
        # What these controllers do follows from writes only (no deadline of theirs runs on the
        # clock): after a tick that wrote nothing, with nothing written since, there is nothing
        # to do. (A tick that wrote runs again: an owner reconciled before its child in the tick
        # reads the child's new status in the next.) At 50,000 pods and 2,000 workloads a tick
        # costs seconds of the store lock the API needs.
        if self.store.revision == self.revision_after_quiet_tick:
            return
        start = self.store.revision
        # One index per tick (a walk of every pod): what a controller makes this tick is not in
        # it, and needs not be: only its maker looks for it, and makes it at most once a tick.
        # Kinds with no object cost nothing (a cluster of bare pods walks no pod here).
        active = [c for c, kinds in self.controllers if any(self.store.objects.get(kind) for kind in kinds)]
        if active:
            index = OwnerIndex(self.store)
            for controller in active:
                try:
                    controller.tick(index, now)
                except Exception as e:  # noqa: BLE001: one kind's bug must not stop the others
                    self.report(controller, e)
        self.revision_after_quiet_tick = start if self.store.revision == start else None
