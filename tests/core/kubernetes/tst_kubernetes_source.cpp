// KubernetesSource end to end: the REAL kubectl (/usr/bin/kubectl) against a private kube
// stand-in, through a local test runner in place of SSH. Refresh, submit (GPU job with a node
// selector, a pinned two-node job), placement and GPU counts, logs, drain/resume, cancel, and
// the API's own error messages.
#include "kube_standin_process.h"
#include "kubernetes/kubernetes_source.h"
#include "local_process_shell.h"
#include "model/gpu_catalog.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
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

const Job *findJob(const OrchestratorPart &part, const QString &id)
{
    for (const Job &j : part.jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

const QByteArray kWatchedPod = R"yaml(apiVersion: v1
kind: Pod
metadata: {name: watched, namespace: default}
spec:
  restartPolicy: Never
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  containers:
  - name: main
    image: busybox:1.36
    command: [sleep, "300"]
    resources: {limits: {nvidia.com/gpu: "1"}}
)yaml";

} // namespace

class TestKubernetesSource : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refreshSeesTheCluster();
    void gpuJobLandsOnTheSelectedPool();
    void pinnedTwoNodeJobAndLogs();
    void burnInPodRunsTheRealAgent();
    void drainAndResume();
    void errorsAreTheApisOwnWords();
    void namespaceScope();
    void aPollingSourceWatchesNodesPodsAndJobs();
    void cleanupTestCase();

private:
    // Refreshes until accept(part) or the timeout; returns the last part.
    OrchestratorPart refreshUntil(const std::function<bool(const OrchestratorPart &)> &accept, int timeoutMs = 30000);

    KubeStandinProcess m_standin;
    std::shared_ptr<LocalProcessShell> m_shell;
    std::unique_ptr<KubernetesSource> m_source;
};

void TestKubernetesSource::initTestCase()
{
    QString error;
    const QString agent = QStringLiteral(STRATA_BINARY_DIR "/burnin/strata-burn");
    QVERIFY2(m_standin.start({QStringLiteral("--start-delay"), QStringLiteral("0.1"), QStringLiteral("--burn-agent"), agent},
                             &error),
             qPrintable(error));
    m_shell = std::make_shared<LocalProcessShell>(m_standin.kubectlEnvironment());
    KubernetesSourceOptions options;
    options.submittedBy = QStringLiteral("tester");
    m_source = std::make_unique<KubernetesSource>(m_shell, GpuCatalog::builtIn(), options);
}

OrchestratorPart TestKubernetesSource::refreshUntil(const std::function<bool(const OrchestratorPart &)> &accept,
                                                    int timeoutMs)
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

void TestKubernetesSource::refreshSeesTheCluster()
{
    const OrchestratorPart part = m_source->refresh().result();
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error + m_standin.log()));
    QCOMPARE(part.nodes.size(), 4);
    QCOMPARE(part.nodes[0].name, QStringLiteral("kube-gpu-01"));
    QCOMPARE(part.nodes[0].gpuModel, QStringLiteral("H100"));
    QCOMPARE(part.nodes[3].gpuModel, QStringLiteral("H200"));
    for (const Node &n : part.nodes) {
        QCOMPARE(n.state, QStringLiteral("ready"));
        QCOMPARE(n.gpuCount, 8);
        QCOMPARE(n.gpusAllocated, 0);
        QCOMPARE(n.gpus.size(), 8);
    }
    QCOMPARE(part.partitions.size(), 2);
    QVERIFY(part.jobs.isEmpty());
    QVERIFY(part.bytesRead > 10000);
    QVERIFY(part.durationMs > 0);
    QCOMPARE(m_source->kind(), OrchestratorKind::Kubernetes);
}

void TestKubernetesSource::gpuJobLandsOnTheSelectedPool()
{
    JobSubmission s;
    s.name = QStringLiteral("serve-a");
    s.partition = QStringLiteral("ml-research");
    s.image = QStringLiteral("busybox:1.36");
    s.command = {QStringLiteral("sleep"), QStringLiteral("300")};
    s.gpusPerNode = 4;
    s.nodeSelector.insert(QStringLiteral("eks.amazonaws.com/nodegroup"), QStringLiteral("p5en-serve"));
    const ActionResult submitted = m_source->submit(s).result();
    QVERIFY2(submitted.ok, qPrintable(submitted.message));
    QCOMPARE(submitted.jobId, QStringLiteral("ml-research/serve-a"));

    const OrchestratorPart part = refreshUntil([&](const OrchestratorPart &p) {
        const Job *j = findJob(p, submitted.jobId);
        return j && j->isRunning();
    });
    const Job *job = findJob(part, submitted.jobId);
    QVERIFY2(job && job->isRunning(), qPrintable(part.error + m_standin.log()));
    QCOMPARE(job->user, QStringLiteral("tester"));
    QCOMPARE(job->partition, QStringLiteral("ml-research"));
    QCOMPARE(job->nodes.size(), 1);
    const QString nodeName = job->nodes.first();
    QVERIFY2(nodeName == QStringLiteral("kube-gpu-03") || nodeName == QStringLiteral("kube-gpu-04"), qPrintable(nodeName));
    QCOMPARE(job->gpusRequested, 4);
    QCOMPARE(job->gpus.value(nodeName), (QVector<int>{0, 1, 2, 3}));
    const Node *node = findNode(part, nodeName);
    QCOMPARE(node->gpusAllocated, 4);
    QVERIFY(node->gpus[0].jobId.startsWith(QStringLiteral("ml-research/serve-a-")));
    QVERIFY(node->gpus[4].jobId.isEmpty());

    // A second submit of the same name: the API's AlreadyExists, in its own words.
    const ActionResult again = m_source->submit(s).result();
    QVERIFY(!again.ok);
    QVERIFY2(again.message.contains(QStringLiteral("jobs.batch \"serve-a\" already exists")), qPrintable(again.message));

    const ActionResult cancelled = m_source->cancel(submitted.jobId).result();
    QVERIFY2(cancelled.ok, qPrintable(cancelled.message));
    const OrchestratorPart after = refreshUntil([&](const OrchestratorPart &p) { return !findJob(p, submitted.jobId); });
    QVERIFY(!findJob(after, submitted.jobId));
    QCOMPARE(findNode(after, nodeName)->gpusAllocated, 0);
}

void TestKubernetesSource::pinnedTwoNodeJobAndLogs()
{
    JobSubmission s;
    s.name = QStringLiteral("pair");
    s.image = QStringLiteral("busybox:1.36");
    s.script = QStringLiteral("echo hello from $NODE_NAME; sleep 1; echo done");
    s.nodeList = {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02")};
    s.gpusPerNode = 8;
    const ActionResult submitted = m_source->submit(s).result();
    QVERIFY2(submitted.ok, qPrintable(submitted.message));
    QCOMPARE(submitted.jobId, QStringLiteral("default/pair"));
    const OrchestratorPart part = refreshUntil([&](const OrchestratorPart &p) {
        const Job *j = findJob(p, submitted.jobId);
        return j && j->state == QStringLiteral("SUCCEEDED");
    });
    const Job *job = findJob(part, submitted.jobId);
    QVERIFY2(job && job->state == QStringLiteral("SUCCEEDED"), qPrintable(job ? job->state + job->reason : part.error));
    QCOMPARE(job->nodes, (QStringList{"kube-gpu-01", "kube-gpu-02"}));
    QVERIFY(job->timeUsedSeconds >= 0);
    const KubeLogResult logs = m_source->logs(submitted.jobId).result();
    QVERIFY2(logs.ok, qPrintable(logs.error));
    QVERIFY2(logs.text.contains(QStringLiteral("hello from kube-gpu-01")), qPrintable(logs.text));
    QVERIFY2(logs.text.contains(QStringLiteral("hello from kube-gpu-02")), qPrintable(logs.text));
    QVERIFY(logs.text.contains(QStringLiteral("[pod/pair-")));
    QVERIFY(m_source->cancel(submitted.jobId).result().ok);
}

void TestKubernetesSource::burnInPodRunsTheRealAgent()
{
    if (!QFile::exists(QStringLiteral(STRATA_BINARY_DIR "/burnin/strata-burn")))
        QSKIP("strata-burn is not built in this build directory (cmake --build . --target strata-burn)");
    JobSubmission s;
    s.name = QStringLiteral("burn-h200");
    s.image = QStringLiteral("ghcr.io/strata/strata-burn:0.1");
    s.command = {QStringLiteral("strata-burn"), QStringLiteral("--tests"), QStringLiteral("gemm"),
                 QStringLiteral("--duration"), QStringLiteral("1s")};
    s.gpusPerNode = 2;
    s.nodeSelector.insert(QStringLiteral("nvidia.com/gpu.product"), QStringLiteral("NVIDIA-H200"));
    const ActionResult submitted = m_source->submit(s).result();
    QVERIFY2(submitted.ok, qPrintable(submitted.message));
    const OrchestratorPart part = refreshUntil([&](const OrchestratorPart &p) {
        const Job *j = findJob(p, submitted.jobId);
        return j && (j->state == QStringLiteral("SUCCEEDED") || j->state == QStringLiteral("FAILED"));
    }, 60000);
    const Job *job = findJob(part, submitted.jobId);
    QVERIFY(job);
    const KubeLogResult logs = m_source->logs(submitted.jobId, 1000).result();
    QVERIFY2(logs.ok, qPrintable(logs.error));
    QCOMPARE(job->state, QStringLiteral("SUCCEEDED"));
    // The agent's JSON lines (protocol v1) for the two simulated devices the pod holds.
    QVERIFY2(logs.text.contains(QStringLiteral("\"type\"")), qPrintable(logs.text.left(2000)));
    QVERIFY(m_source->cancel(submitted.jobId).result().ok);
}

void TestKubernetesSource::drainAndResume()
{
    const QString node = QStringLiteral("kube-gpu-02");
    const ActionResult drained = m_source->drain({node}, QStringLiteral("xid 79: GPU 3 fell off the bus")).result();
    QVERIFY2(drained.ok, qPrintable(drained.message));
    OrchestratorPart part = m_source->refresh().result();
    const Node *n = findNode(part, node);
    QCOMPARE(n->state, QStringLiteral("cordoned"));
    QVERIFY(n->isDrained());
    QCOMPARE(n->reason, QStringLiteral("xid 79: GPU 3 fell off the bus"));
    QVERIFY(n->features.contains(QStringLiteral("taint:node.kubernetes.io/unschedulable:NoSchedule")));

    const ActionResult resumed = m_source->resume({node}).result();
    QVERIFY2(resumed.ok, qPrintable(resumed.message));
    part = refreshUntil([&](const OrchestratorPart &p) {
        const Node *x = findNode(p, node);
        return x && !x->features.contains(QStringLiteral("taint:node.kubernetes.io/unschedulable:NoSchedule"));
    });
    n = findNode(part, node);
    QCOMPARE(n->state, QStringLiteral("ready"));
    QVERIFY(n->reason.isEmpty());
    // Resuming a node that is not drained is no error (nothing to remove).
    QVERIFY(m_source->resume({node}).result().ok);
}

void TestKubernetesSource::errorsAreTheApisOwnWords()
{
    const ActionResult missing = m_source->cancel(QStringLiteral("ml-research/no-such-job")).result();
    QVERIFY(!missing.ok);
    QVERIFY2(missing.message.contains(QStringLiteral("Error from server (NotFound): jobs.batch \"no-such-job\" not found")),
             qPrintable(missing.message));
    const ActionResult noNode = m_source->drain({QStringLiteral("kube-gpu-99")}, QStringLiteral("test")).result();
    QVERIFY(!noNode.ok);
    QVERIFY2(noNode.message.contains(QStringLiteral("nodes \"kube-gpu-99\" not found")), qPrintable(noNode.message));

    // Refused before kubectl runs: no command is spent on them.
    const int before = m_shell->commandsRun();
    QVERIFY(!m_source->cancel(QStringLiteral("1234")).result().ok);
    QVERIFY(!m_source->drain({QStringLiteral("--all")}, QStringLiteral("x")).result().ok);
    QVERIFY(!m_source->drain({QStringLiteral("kube-gpu-01")}, QString()).result().ok);
    JobSubmission noImage;
    noImage.command = {QStringLiteral("true")};
    const ActionResult refused = m_source->submit(noImage).result();
    QVERIFY(!refused.ok);
    QVERIFY(refused.message.contains(QStringLiteral("image")));
    QCOMPARE(m_shell->commandsRun(), before);

    // A kubectl that is not there: the refresh says so and the transport flag is set.
    KubernetesSourceOptions options;
    options.kubectl = QStringLiteral("/nonexistent/kubectl");
    KubernetesSource broken(m_shell, GpuCatalog::builtIn(), options);
    const OrchestratorPart part = broken.refresh().result();
    QVERIFY(part.error.contains(QStringLiteral("/nonexistent/kubectl")));
    QVERIFY(part.nodes.isEmpty());
}

void TestKubernetesSource::namespaceScope()
{
    JobSubmission s;
    s.name = QStringLiteral("elsewhere");
    s.partition = QStringLiteral("default");
    s.image = QStringLiteral("busybox");
    s.command = {QStringLiteral("sleep"), QStringLiteral("60")};
    s.gpusPerNode = 1;
    QVERIFY(m_source->submit(s).result().ok);
    KubernetesSourceOptions options;
    options.namespaceName = QStringLiteral("ml-research");
    KubernetesSource scoped(m_shell, GpuCatalog::builtIn(), options);
    const OrchestratorPart part = scoped.refresh().result();
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
    QVERIFY(!findJob(part, QStringLiteral("default/elsewhere")));
    QCOMPARE(part.warnings.size(), 1);
    QVERIFY(part.warnings.first().contains(QStringLiteral("ml-research")));
    QVERIFY(m_source->cancel(QStringLiteral("default/elsewhere")).result().ok);

    // A namespace that is no name is refused before anything runs.
    KubernetesSourceOptions invalid;
    invalid.namespaceName = QStringLiteral("-n kube-system");
    KubernetesSource refused(m_shell, GpuCatalog::builtIn(), invalid);
    const int before = m_shell->commandsRun();
    const OrchestratorPart none = refused.refresh().result();
    QCOMPARE(none.error, QStringLiteral("the namespace \"-n kube-system\" is not a valid namespace name (a DNS-1123 label: at "
                                        "most 63 lower-case letters, digits and '-', starting and ending with a letter or digit)"));
    QCOMPARE(none.errorKind, ErrorKind::InvalidRequest);
    QCOMPARE(m_shell->commandsRun(), before);
}

// Polling, nodes, pods and Jobs come from three `kubectl get --raw` watches kept running
// (KubeInformer): a pod created and deleted, a node cordoned and a Job created behind Strata's
// back show at the next refreshes, which run no command at all.
void TestKubernetesSource::aPollingSourceWatchesNodesPodsAndJobs()
{
    const auto kubectl = [this](const QStringList &args, const QByteArray &stdinData = {}) {
        const CommandResult r = m_shell->run(QStringList{QStringLiteral("kubectl")} + args, stdinData).result();
        if (!r.ok())
            qWarning("kubectl %s: %s", qPrintable(args.join(u' ')), r.stderrData.constData());
        return r.ok();
    };
    QVERIFY(m_source->refresh().result().error.isEmpty()); // discovery done (run alone, this is the first refresh)
    m_source->setPolling(5);
    const int beforeFirst = m_shell->commandsRun();
    OrchestratorPart part = m_source->refresh().result(); // lists, then starts the watches
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
    // A page of each collection and a watch of each: nodes, pods, Jobs, the 11 workload kinds the
    // stand-in serves (KubeWorkloadKinds) and Kueue's ClusterQueues, LocalQueues and Workloads.
    QCOMPARE(m_shell->commandsRun() - beforeFirst, 2 * (3 + 11 + 3));
    QVERIFY(!findJob(part, QStringLiteral("default/watched")));

    QElapsedTimer clock;
    clock.start();
    // A bare pod with a GPU (a job to Strata), created with kubectl as a colleague would.
    QVERIFY(kubectl({QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")}, kWatchedPod));
    part = refreshUntil([](const OrchestratorPart &p) { return findJob(p, QStringLiteral("default/watched")) != nullptr; });
    const Job *job = findJob(part, QStringLiteral("default/watched"));
    QVERIFY2(job, qPrintable(part.error + m_standin.log()));
    qInfo("the created pod showed %lld ms after kubectl create returned", qint64(clock.elapsed()));
    QCOMPARE(m_source->jobObjectKind(job->id), QStringLiteral("pod"));

    // Nothing changed: a refresh runs no command.
    const int before = m_shell->commandsRun();
    part = m_source->refresh().result();
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
    QCOMPARE(m_shell->commandsRun() - before, 0);
    QVERIFY(findJob(part, QStringLiteral("default/watched")));

    // A node cordoned and a Job created outside Strata: from the node and Job watches, which
    // say that a refresh would show something new (a polling session refreshes early on it).
    QVERIFY(kubectl({QStringLiteral("cordon"), QStringLiteral("kube-gpu-03")}));
    QTRY_VERIFY_WITH_TIMEOUT(m_source->hasChangesWaiting(), 10000);
    QVERIFY(kubectl({QStringLiteral("create"), QStringLiteral("job"), QStringLiteral("watched-job"),
                     QStringLiteral("--image=busybox"), QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("300")}));
    const int beforeChanges = m_shell->commandsRun();
    part = refreshUntil([](const OrchestratorPart &p) {
        const Node *n = findNode(p, QStringLiteral("kube-gpu-03"));
        return n && n->state == QStringLiteral("cordoned") && findJob(p, QStringLiteral("default/watched-job"));
    });
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
    QCOMPARE(findNode(part, QStringLiteral("kube-gpu-03"))->state, QStringLiteral("cordoned"));
    QVERIFY(findJob(part, QStringLiteral("default/watched-job")));
    QCOMPARE(m_shell->commandsRun() - beforeChanges, 0); // seen through the watches alone
    QVERIFY(kubectl({QStringLiteral("uncordon"), QStringLiteral("kube-gpu-03")}));
    QVERIFY(kubectl({QStringLiteral("delete"), QStringLiteral("job"), QStringLiteral("watched-job"), QStringLiteral("--wait=false")}));

    QVERIFY(kubectl({QStringLiteral("delete"), QStringLiteral("pod"), QStringLiteral("watched"), QStringLiteral("--wait=false")}));
    part = refreshUntil([](const OrchestratorPart &p) {
        const Node *n = findNode(p, QStringLiteral("kube-gpu-03"));
        return !findJob(p, QStringLiteral("default/watched")) && !findJob(p, QStringLiteral("default/watched-job")) && n
            && n->state == QStringLiteral("ready");
    });
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
    QVERIFY(!findJob(part, QStringLiteral("default/watched")));
    QVERIFY(!findJob(part, QStringLiteral("default/watched-job")));
    QCOMPARE(findNode(part, QStringLiteral("kube-gpu-03"))->state, QStringLiteral("ready"));

    // Not polling: the watches end and every refresh lists again.
    m_source->setPolling(0);
    const int listed = m_shell->commandsRun();
    part = m_source->refresh().result();
    QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
    QCOMPARE(m_shell->commandsRun() - listed, 3 + 11 + 3); // one page of each collection, as above
}

void TestKubernetesSource::cleanupTestCase()
{
    m_source.reset();
    m_shell.reset();
}

QTEST_GUILESS_MAIN(TestKubernetesSource)
#include "tst_kubernetes_source.moc"
