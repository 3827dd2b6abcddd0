// Attack (issue 23, finding 3) end to end on Kubernetes: one node's kubelet reports an absurd,
// overflowing or negative `nvidia.com/gpu` capacity. The REAL kubectl patches kube-gpu-02's
// status on a private kube stand-in (lab/kube_standin, not an API server: it stores what it is
// sent; a real API server refuses negative and fractional extended resources, not 2000000000),
// and Strata's KubernetesSource reads the cluster through kubectl as it does over SSH. Promise:
// the refresh ends in seconds, kube-gpu-02's GPUs are unknown with what it reported, the other
// three nodes show their 8 GPUs, and the node reads normally again once the value is put back.
// Before the fix the first refresh threw std::bad_alloc materialising 2,000,000,000 GPUs.
#include "kube_standin_process.h"
#include "kubernetes/kubernetes_source.h"
#include "local_process_shell.h"
#include "model/gpu_catalog.h"
#include "model/gpu_count.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
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

} // namespace

class TestAttackGpuCountKube : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void hostileCapacity_data();
    void hostileCapacity();
    void restoredNodeReadsNormally();

private:
    void patchCapacity(const QString &node, const QString &gpus);
    OrchestratorPart refreshUntil(const std::function<bool(const OrchestratorPart &)> &accept);

    KubeStandinProcess m_standin;
    std::shared_ptr<LocalProcessShell> m_shell;
    std::unique_ptr<KubernetesSource> m_source;
};

void TestAttackGpuCountKube::initTestCase()
{
    QString error;
    QVERIFY2(m_standin.start({QStringLiteral("--start-delay"), QStringLiteral("0.1")}, &error), qPrintable(error));
    m_shell = std::make_shared<LocalProcessShell>(m_standin.kubectlEnvironment());
    m_source = std::make_unique<KubernetesSource>(m_shell, GpuCatalog::builtIn(), KubernetesSourceOptions{});
}

// What a kubelet with a broken (or hostile) device plugin would write: capacity and
// allocatable alike, through the real kubectl's status subresource.
void TestAttackGpuCountKube::patchCapacity(const QString &node, const QString &gpus)
{
    QProcess kubectl;
    kubectl.setProcessEnvironment(m_standin.kubectlEnvironment());
    const QString patch = QStringLiteral(R"({"status": {"capacity": {"nvidia.com/gpu": "%1"}, "allocatable": {"nvidia.com/gpu": "%1"}}})").arg(gpus);
    kubectl.start(QStringLiteral("kubectl"), {QStringLiteral("patch"), QStringLiteral("node"), node, QStringLiteral("--subresource=status"),
                                              QStringLiteral("--type=merge"), QStringLiteral("-p"), patch});
    QVERIFY(kubectl.waitForStarted(10000));
    QVERIFY(kubectl.waitForFinished(30000));
    QVERIFY2(kubectl.exitCode() == 0, kubectl.readAllStandardError().constData());
}

OrchestratorPart TestAttackGpuCountKube::refreshUntil(const std::function<bool(const OrchestratorPart &)> &accept)
{
    const QDeadlineTimer deadline(15000);
    OrchestratorPart part;
    do {
        QElapsedTimer clock;
        clock.start();
        part = m_source->refresh().result();
        // Each refresh ends, and soon: the hostile count costs nothing to read.
        if (clock.elapsed() > 10000)
            qWarning("a refresh took %lld ms", clock.elapsed());
        if (part.error.isEmpty() && accept(part))
            return part;
        QThread::msleep(200);
    } while (!deadline.hasExpired());
    return part;
}

void TestAttackGpuCountKube::hostileCapacity_data()
{
    QTest::addColumn<QString>("reported");
    QTest::newRow("absurd 2000000000") << QStringLiteral("2000000000");
    QTest::newRow("past int 4000000000") << QStringLiteral("4000000000");
    QTest::newRow("2^63") << QStringLiteral("9223372036854775808");
    QTest::newRow("negative") << QStringLiteral("-3");
    QTest::newRow("exponent 1e9") << QStringLiteral("1e9");
}

void TestAttackGpuCountKube::hostileCapacity()
{
    QFETCH(QString, reported);
    patchCapacity(QStringLiteral("kube-gpu-02"), reported);
    const QString refused = QStringLiteral("capacity nvidia.com/gpu \"%1\"").arg(reported);
    const OrchestratorPart part = refreshUntil([&](const OrchestratorPart &p) {
        const Node *n = findNode(p, QStringLiteral("kube-gpu-02"));
        return n && n->gpuCountRefused == refused;
    });
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error + m_standin.log()));
    const Node *hostile = findNode(part, QStringLiteral("kube-gpu-02"));
    QVERIFY(hostile);
    QCOMPARE(hostile->gpuCountRefused, refused);
    QCOMPARE(hostile->gpuCount, 0);
    QCOMPARE(hostile->gpus.size(), qsizetype(0));
    QCOMPARE(hostile->gpusAllocated, 0);
    const std::optional<Finding> finding = GpuCount::finding(*hostile);
    QVERIFY(finding);
    QCOMPARE(finding->node, QStringLiteral("kube-gpu-02"));
    QVERIFY2(finding->message.contains(refused), qPrintable(finding->message));
    for (const QString &other : {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-03"), QStringLiteral("kube-gpu-04")}) {
        const Node *n = findNode(part, other);
        QVERIFY(n);
        QCOMPARE(n->gpuCount, 8);
        QCOMPARE(n->gpus.size(), qsizetype(8));
    }
    for (const Partition &pool : part.partitions)
        if (pool.name == QLatin1String("p5-train"))
            QCOMPARE(pool.totalGpus, 8); // kube-gpu-01's; kube-gpu-02's are unknown
}

void TestAttackGpuCountKube::restoredNodeReadsNormally()
{
    patchCapacity(QStringLiteral("kube-gpu-02"), QStringLiteral("8"));
    const OrchestratorPart part = refreshUntil([](const OrchestratorPart &p) {
        const Node *n = findNode(p, QStringLiteral("kube-gpu-02"));
        return n && n->gpuCount == 8;
    });
    const Node *restored = findNode(part, QStringLiteral("kube-gpu-02"));
    QVERIFY(restored);
    QCOMPARE(restored->gpuCount, 8);
    QVERIFY(restored->gpuCountRefused.isEmpty());
    QCOMPARE(restored->gpus.size(), qsizetype(8));
}

QTEST_GUILESS_MAIN(TestAttackGpuCountKube)
#include "tst_attack_gpu_count_kube.moc"
