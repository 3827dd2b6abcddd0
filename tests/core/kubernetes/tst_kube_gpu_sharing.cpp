// GPU sharing end to end: the REAL kubectl (/usr/bin/kubectl) against a private kube stand-in
// started with --gpu-sharing (a T4 time-sliced x4, a p4d with MIG "mixed" all-1g.5gb, labelled
// as GPU feature discovery labels them), through KubernetesSource. Pods asking for shares and
// MIG devices are scheduled by the stand-in and counted by Strata against those, never as GPUs.
#include "kube_standin_process.h"
#include "kubernetes/kubernetes_source.h"
#include "local_process_shell.h"
#include "model/gpu_catalog.h"

#include <QDeadlineTimer>
#include <QTest>
#include <QThread>

#include <functional>

using namespace strata;

namespace {

const Node *findNode(const OrchestratorPart &part, const QString &name)
{
    for (const Node &n : part.nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

// One bare pod asking for `amount` of `resource` on the pool `nodegroup`.
QByteArray podManifest(const QString &name, const QString &nodegroup, const QString &resource, int amount)
{
    return QStringLiteral(R"({"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "%1", "namespace": "default"},
  "spec": {"restartPolicy": "Never",
    "nodeSelector": {"eks.amazonaws.com/nodegroup": "%2"},
    "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
    "containers": [{"name": "main", "image": "busybox:1.36", "command": ["sleep", "300"],
      "resources": {"limits": {"%3": "%4"}}}]}})")
        .arg(name, nodegroup, resource)
        .arg(amount)
        .toUtf8();
}

} // namespace

class TestKubeGpuSharing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void nodesShowPhysicalGpusAndTheirShares();
    void sharesAndMigDevicesAreCounted();
    void cleanupTestCase();

private:
    void kubectlCreate(const QByteArray &manifest);
    OrchestratorPart refreshUntil(const std::function<bool(const OrchestratorPart &)> &accept, int timeoutMs = 30000);

    KubeStandinProcess m_standin;
    std::shared_ptr<LocalProcessShell> m_shell;
    std::unique_ptr<KubernetesSource> m_source;
};

void TestKubeGpuSharing::initTestCase()
{
    QString error;
    QVERIFY2(m_standin.start({QStringLiteral("--start-delay"), QStringLiteral("0.1"), QStringLiteral("--gpu-sharing")}, &error),
             qPrintable(error));
    m_shell = std::make_shared<LocalProcessShell>(m_standin.kubectlEnvironment());
    m_source = std::make_unique<KubernetesSource>(m_shell, GpuCatalog::builtIn(), KubernetesSourceOptions{});
}

void TestKubeGpuSharing::kubectlCreate(const QByteArray &manifest)
{
    QProcess kubectl;
    kubectl.setProcessEnvironment(m_standin.kubectlEnvironment());
    kubectl.start(QStringLiteral("kubectl"), {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")});
    QVERIFY(kubectl.waitForStarted(10000));
    kubectl.write(manifest);
    kubectl.closeWriteChannel();
    QVERIFY(kubectl.waitForFinished(30000));
    QVERIFY2(kubectl.exitCode() == 0, kubectl.readAllStandardError().constData());
}

OrchestratorPart TestKubeGpuSharing::refreshUntil(const std::function<bool(const OrchestratorPart &)> &accept, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    OrchestratorPart part;
    do {
        part = m_source->refresh().result();
        if (part.error.isEmpty() && accept(part))
            return part;
        QThread::msleep(200);
    } while (!deadline.hasExpired());
    return part;
}

void TestKubeGpuSharing::nodesShowPhysicalGpusAndTheirShares()
{
    const OrchestratorPart part = m_source->refresh().result();
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error + m_standin.log()));
    QCOMPARE(part.nodes.size(), 6);
    const Node *t4 = findNode(part, QStringLiteral("kube-t4-ts-01"));
    QVERIFY(t4);
    QCOMPARE(t4->instanceType, QStringLiteral("g4dn.xlarge"));
    QCOMPARE(t4->gpuModel, QStringLiteral("T4"));
    QCOMPARE(t4->gpuCount, 1); // one T4, not 4
    QCOMPARE(t4->gpus.size(), 1);
    QCOMPARE(t4->gpuSharing.strategy, QStringLiteral("time-slicing"));
    QCOMPARE(t4->gpuSharing.replicas, 4);
    QCOMPARE(t4->gpuSharing.shares, 4);
    const Node *mig = findNode(part, QStringLiteral("kube-a100-mig-01"));
    QVERIFY(mig);
    QCOMPARE(mig->gpuModel, QStringLiteral("A100-SXM4-40GB"));
    QCOMPARE(mig->gpuCount, 8);
    QCOMPARE(mig->gpuSharing.strategy, QStringLiteral("mig-mixed"));
    QCOMPARE(mig->gpuSharing.migDevices, (QMap<QString, int>{{QStringLiteral("1g.5gb"), 56}}));
    // The whole-GPU nodes are unchanged.
    QCOMPARE(findNode(part, QStringLiteral("kube-gpu-01"))->gpuCount, 8);
    QVERIFY(!findNode(part, QStringLiteral("kube-gpu-01"))->gpuSharing.isShared());
    for (const Partition &pool : part.partitions)
        if (pool.name == QLatin1String("t4-shared"))
            QCOMPARE(pool.totalGpus, 1);
}

void TestKubeGpuSharing::sharesAndMigDevicesAreCounted()
{
    for (int i = 0; i < 3; ++i)
        kubectlCreate(podManifest(QStringLiteral("t4-share-%1").arg(i), QStringLiteral("t4-shared"),
                                  QStringLiteral("nvidia.com/gpu"), 1));
    kubectlCreate(podManifest(QStringLiteral("mig-small"), QStringLiteral("a100-mig"), QStringLiteral("nvidia.com/mig-1g.5gb"), 3));
    // A fifth share does not fit the T4's four: the scheduler says so.
    kubectlCreate(podManifest(QStringLiteral("t4-too-many"), QStringLiteral("t4-shared"), QStringLiteral("nvidia.com/gpu"), 2));

    const OrchestratorPart part = refreshUntil([](const OrchestratorPart &p) {
        const Node *t4 = findNode(p, QStringLiteral("kube-t4-ts-01"));
        const Node *mig = findNode(p, QStringLiteral("kube-a100-mig-01"));
        return t4 && mig && t4->gpuSharing.sharesAllocated == 3
            && mig->gpuSharing.migDevicesAllocated.value(QStringLiteral("1g.5gb")) == 3;
    });
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
    const Node *t4 = findNode(part, QStringLiteral("kube-t4-ts-01"));
    QCOMPARE(t4->gpuSharing.sharesAllocated, 3);
    QCOMPARE(t4->gpusAllocated, 1);
    QVERIFY(t4->gpuIndicesAllocated.isEmpty()); // shares have no GPU index
    const Node *mig = findNode(part, QStringLiteral("kube-a100-mig-01"));
    QCOMPARE(mig->gpuSharing.migDevicesAllocated.value(QStringLiteral("1g.5gb")), 3);
    QCOMPARE(mig->gpusAllocated, 1);
    bool pendingSeen = false;
    for (const Job &j : part.jobs)
        if (j.id == QLatin1String("default/t4-too-many")) {
            pendingSeen = true;
            QCOMPARE(j.state, QStringLiteral("PENDING"));
            QVERIFY2(j.reason.contains(QLatin1String("Insufficient nvidia.com/gpu")), qPrintable(j.reason));
        }
    QVERIFY(pendingSeen);
}

void TestKubeGpuSharing::cleanupTestCase()
{
    m_source.reset();
}

QTEST_GUILESS_MAIN(TestKubeGpuSharing)
#include "tst_kube_gpu_sharing.moc"
