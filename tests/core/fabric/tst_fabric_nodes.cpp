// fabricNodes: what a snapshot says of the nodes a fabric test is asked for, and the refusal
// the CLI and the window give before anything reaches the cluster when a node cannot run jobs
// (a drained or down node would keep the test's job pending until the run's deadline).
#include "fabric/fabric_nodes.h"
#include "model/cluster_snapshot.h"
#include "model/gpu_catalog.h"

#include <QTest>

using namespace strata;

namespace {

Node node(const QString &name, const QString &state, const QStringList &flags = {},
          const QString &reason = {})
{
    Node n;
    n.name = name;
    n.state = state;
    n.stateFlags = flags;
    n.reason = reason;
    n.instanceType = QStringLiteral("p5.48xlarge");
    n.gpuCount = 8;
    return n;
}

} // namespace

class TestFabricNodes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void usableNodes()
    {
        ClusterSnapshot s;
        s.nodes = {node(QStringLiteral("gpu-node01"), QStringLiteral("idle")),
                   node(QStringLiteral("gpu-node02"), QStringLiteral("mixed")),
                   node(QStringLiteral("gpu-node03"), QStringLiteral("allocated"))};
        s.finalize();
        const FabricNodes found =
            fabricNodes(s,
                        {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"),
                         QStringLiteral("gpu-node03")},
                        GpuCatalog::builtIn(), OrchestratorKind::Slurm);
        QCOMPARE(found.missingNode, QString());
        QCOMPARE(found.unavailable, QStringList());
        QCOMPARE(fabricNodesRefusal(found), QString());
        QCOMPARE(found.instanceType, QStringLiteral("p5.48xlarge"));
        QCOMPARE(found.gpusPerNode, 8);
    }

    // Drained, draining (a busy node with the DRAIN flag), down and not responding are
    // named with their reasons; a node being launched (not responding while it powers up) and
    // one only powered down are not: Slurm starts them for the job.
    void unusableNodesAreNamed()
    {
        ClusterSnapshot s;
        Node launching =
            node(QStringLiteral("gpu-node05"), QStringLiteral("idle+not_responding+powering_up"),
                 {QStringLiteral("NOT_RESPONDING"), QStringLiteral("POWERING_UP")});
        launching.power = PowerState::PoweringUp;
        Node asleep = node(QStringLiteral("gpu-node06"), QStringLiteral("idle+powered_down"),
                           {QStringLiteral("POWERED_DOWN")});
        asleep.power = PowerState::PoweredDown;
        s.nodes = {node(QStringLiteral("gpu-node01"), QStringLiteral("idle")),
                   node(QStringLiteral("gpu-node02"), QStringLiteral("drained"),
                        {QStringLiteral("DRAIN")}, QStringLiteral("Kill task failed")),
                   node(QStringLiteral("gpu-node03"), QStringLiteral("draining"),
                        {QStringLiteral("DRAIN")}, QStringLiteral("GPU 3 Xid 79")),
                   node(QStringLiteral("gpu-node04"), QStringLiteral("idle+not_responding"),
                        {QStringLiteral("NOT_RESPONDING")}),
                   launching,
                   asleep,
                   node(QStringLiteral("gpu-node07"), QStringLiteral("down"), {},
                        QStringLiteral("Not responding"))};
        s.finalize();
        const QStringList all{QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"),
                              QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04"),
                              QStringLiteral("gpu-node05"), QStringLiteral("gpu-node06"),
                              QStringLiteral("gpu-node07")};
        const FabricNodes found =
            fabricNodes(s, all, GpuCatalog::builtIn(), OrchestratorKind::Slurm);
        QCOMPARE(found.unavailable,
                 (QStringList{QStringLiteral("gpu-node02 is drained (Kill task failed)"),
                              QStringLiteral("gpu-node03 is draining (GPU 3 Xid 79)"),
                              QStringLiteral("gpu-node04 is idle+not_responding"),
                              QStringLiteral("gpu-node07 is down (Not responding)")}));
        QCOMPARE(fabricNodesRefusal(found),
                 QStringLiteral("gpu-node02 is drained (Kill task failed); gpu-node03 is draining "
                                "(GPU 3 Xid 79); gpu-node04 is idle+not_responding; "
                                "gpu-node07 is down (Not responding): Slurm starts no job there, "
                                "not even in a maintenance reservation; "
                                "resume them or leave them out"));

        const FabricNodes one =
            fabricNodes(s, {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")},
                        GpuCatalog::builtIn(), OrchestratorKind::Slurm);
        QCOMPARE(fabricNodesRefusal(one),
                 QStringLiteral("gpu-node02 is drained (Kill task failed): Slurm starts no job "
                                "there, not even in a "
                                "maintenance reservation; resume it or leave it out"));
    }

    // On Kubernetes the test's pods tolerate a cordon (an operator's cordon stays, Strata adds
    // its own): only a NotReady node is refused.
    void kubernetesRefusesOnlyNotReadyNodes()
    {
        ClusterSnapshot s;
        s.nodes = {node(QStringLiteral("kube-gpu-01"), QStringLiteral("ready")),
                   node(QStringLiteral("kube-gpu-02"), QStringLiteral("cordoned")),
                   node(QStringLiteral("kube-gpu-03"), QStringLiteral("notready"), {},
                        QStringLiteral("Kubelet stopped posting node status."))};
        s.finalize();
        const FabricNodes ready =
            fabricNodes(s, {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02")},
                        GpuCatalog::builtIn(), OrchestratorKind::Kubernetes);
        QCOMPARE(ready.unavailable, QStringList());
        QCOMPARE(fabricNodesRefusal(ready), QString());
        const FabricNodes all =
            fabricNodes(s,
                        {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02"),
                         QStringLiteral("kube-gpu-03")},
                        GpuCatalog::builtIn(), OrchestratorKind::Kubernetes);
        QCOMPARE(fabricNodesRefusal(all),
                 QStringLiteral("kube-gpu-03 is notready (Kubelet stopped posting node status.): "
                                "no pod of the test can "
                                "run there; leave it out"));
        // The same cordon on Slurm's side would be a drain: refused there.
        QCOMPARE(fabricNodes(s, {QStringLiteral("kube-gpu-02")}, GpuCatalog::builtIn(),
                             OrchestratorKind::Slurm)
                     .unavailable.size(),
                 1);
    }
};

QTEST_GUILESS_MAIN(TestFabricNodes)
#include "tst_fabric_nodes.moc"
