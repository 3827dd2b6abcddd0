// FabricKubernetesTransport against a scripted shell: the commands it sends, in order, and what
// it makes of the answers. Only the nodes Strata cordoned are uncordoned; a cleanup asked for
// while a create is on its way waits for it (else the Job would be created after the delete
// and left behind); a round's results come from index 0's log, a pod placed outside its group
// makes the group's result an error.
#include "fabric/fabric_kubernetes_transport.h"
#include "ssh/remote_shell.h"

#include <QPromise>
#include <QSignalSpy>
#include <QTest>

#include <deque>
#include <memory>

using namespace strata;

namespace {

// Holds every command until the test answers it (in the order sent).
class ScriptedShell : public RemoteShell
{
public:
    struct Pending
    {
        QStringList argv;
        QByteArray stdinData;
        std::shared_ptr<QPromise<CommandResult>> promise;
    };

    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override
    {
        auto promise = std::make_shared<QPromise<CommandResult>>();
        promise->start();
        sent.push_back({argv, stdinData, promise});
        return promise->future();
    }
    QFuture<CommandResult> upload(const QString &, const QByteArray &, int) override { return run({QStringLiteral("upload")}); }
    QString describe() const override { return QStringLiteral("scripted"); }

    // The argv of the oldest unanswered command, without kubectl's global flags.
    QString next() const
    {
        if (sent.empty())
            return {};
        QStringList words = sent.front().argv;
        while (!words.isEmpty() && (words.first() == QLatin1String("kubectl") || words.first().startsWith(QLatin1String("--request-timeout"))))
            words.removeFirst();
        return words.join(QLatin1Char(' '));
    }
    void answer(const QByteArray &out, int status = 0)
    {
        Pending p = sent.front();
        sent.pop_front();
        CommandResult r;
        r.exitStatus = status;
        r.stdoutData = out;
        p.promise->addResult(r);
        p.promise->finish();
    }

    std::deque<Pending> sent;
};

FabricRequest request()
{
    FabricRequest r;
    r.nodes = {QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02"), QStringLiteral("kube-gpu-03")};
    r.tag = QStringLiteral("0123abcd-ef45-6789-abcd-ef0123456789");
    r.image = QStringLiteral("pytorch/pytorch:2.5.1");
    r.backend = QStringLiteral("gloo");
    r.tool = FabricToolChoice::TorchProbe;
    return r;
}

const QByteArray kNodes = R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"kube-gpu-01"},"spec":{}},)"
                          R"({"kind":"Node","metadata":{"name":"kube-gpu-02"},"spec":{"unschedulable":true}},)"
                          R"({"kind":"Node","metadata":{"name":"kube-gpu-03"},"spec":{}}]})";

QByteArray jobsAndPods(const QString &job, const QString &node0, const QString &node1)
{
    return QStringLiteral(R"({"kind":"List","items":[)"
                          R"({"kind":"Job","metadata":{"name":"%1"},"status":{"conditions":[{"type":"Complete","status":"True"}]}},)"
                          R"({"kind":"Pod","metadata":{"name":"%1-0-aaaaa","labels":{"strata.io/fabric-group":"%1"},)"
                          R"("annotations":{"batch.kubernetes.io/job-completion-index":"0"}},"spec":{"nodeName":"%2"},"status":{"phase":"Succeeded"}},)"
                          R"({"kind":"Pod","metadata":{"name":"%1-1-bbbbb","labels":{"strata.io/fabric-group":"%1"},)"
                          R"("annotations":{"batch.kubernetes.io/job-completion-index":"1"}},"spec":{"nodeName":"%3"},"status":{"phase":"Succeeded"}}]})")
        .arg(job, node0, node1)
        .toUtf8();
}

const QByteArray kProbeLog = "@@strata-fabric {\"backend\": \"gloo\", \"hosts\": [\"a\", \"b\"], \"kind\": \"start\", \"ranks\": 2}\n"
                             "@@strata-fabric {\"algbw\": 0.5, \"busbw\": 0.5, \"bytes\": 8388608, \"kind\": \"sample\", \"op\": \"all_reduce\", \"ranks\": 2, \"seconds\": 0.0168}\n"
                             "@@strata-fabric {\"kind\": \"done\"}\n";

} // namespace

class TestFabricKubernetesTransport : public QObject
{
    Q_OBJECT

private:
    // Prepared with kube-gpu-02 cordoned by an operator: the shell's command queue is empty.
    void prepare(ScriptedShell *shell, FabricKubernetesTransport *transport)
    {
        QSignalSpy prepared(transport, &FabricTransport::prepared);
        transport->prepare(request());
        QCOMPARE(shell->next(), QStringLiteral("get nodes kube-gpu-01 kube-gpu-02 kube-gpu-03 -o json"));
        shell->answer(kNodes);
        QTRY_COMPARE(shell->next(), QStringLiteral("cordon kube-gpu-01 kube-gpu-03"));
        shell->answer("node/kube-gpu-01 cordoned\nnode/kube-gpu-03 cordoned\n");
        QTRY_COMPARE(prepared.size(), 1);
        QCOMPARE(transport->cordoned(), (QStringList{QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-03")}));
    }

private Q_SLOTS:
    void roundThenRelease_data()
    {
        QTest::addColumn<QString>("node1");
        QTest::addColumn<QString>("error");
        QTest::newRow("placed on the group") << "kube-gpu-03" << "";
        QTest::newRow("a pod elsewhere") << "kube-gpu-02" << "pod strata-fabric-0123abcd-r1g0-1-bbbbb ran on kube-gpu-02, not on one of the group's nodes";
    }
    void roundThenRelease()
    {
        QFETCH(QString, node1);
        QFETCH(QString, error);
        auto shell = std::make_shared<ScriptedShell>();
        FabricKubernetesTransport transport(shell, KubectlCommands(QStringLiteral("kubectl"), {}, 30));
        transport.setPollIntervalMs(10);
        prepare(shell.get(), &transport);
        QSignalSpy started(&transport, &FabricTransport::groupsStarted);
        QSignalSpy ended(&transport, &FabricTransport::groupsEnded);
        const QString job = QStringLiteral("strata-fabric-0123abcd-r1g0");
        transport.runGroups(1, {{QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-03")}});
        QCOMPARE(shell->next(), QStringLiteral("create -f - -o json"));
        QVERIFY(shell->sent.front().stdinData.contains("\"completionMode\":\"Indexed\""));
        shell->answer("{}");
        QTRY_COMPARE(started.size(), 1);
        QCOMPARE(started.first().first().toStringList(), QStringList{QStringLiteral("default/") + job});
        QCOMPARE(shell->next(), QStringLiteral("get jobs,pods -n default -l strata.io/fabric-run=0123abcd-ef4 -o json"));
        shell->answer(jobsAndPods(job, QStringLiteral("kube-gpu-01"), node1));
        QTRY_COMPARE(shell->next(), QStringLiteral("logs -n default %1-0-aaaaa -c probe --limit-bytes=1048576").arg(job));
        shell->answer(kProbeLog);
        QTRY_COMPARE(ended.size(), 1);
        const auto results = ended.first().first().value<QList<FabricGroupResult>>();
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().jobId, QStringLiteral("default/") + job);
        QCOMPARE(results.first().error, error);
        if (error.isEmpty())
            QCOMPARE(results.first().figureGBps(), 0.5);

        QSignalSpy released(&transport, &FabricTransport::released);
        transport.release();
        QCOMPARE(shell->next(), QStringLiteral("delete jobs,services -n default -l strata.io/fabric-run=0123abcd-ef4 --cascade=background --ignore-not-found"));
        shell->answer("job.batch \"x\" deleted\n");
        QTRY_COMPARE(shell->next(), QStringLiteral("uncordon kube-gpu-01 kube-gpu-03")); // not the operator's kube-gpu-02
        shell->answer("");
        QTRY_COMPARE(released.size(), 1);
        QCOMPARE(released.first().first().toString(), QString());
    }

    void releaseWaitsForACreateOnItsWay()
    {
        auto shell = std::make_shared<ScriptedShell>();
        FabricKubernetesTransport transport(shell, KubectlCommands(QStringLiteral("kubectl"), {}, 30));
        prepare(shell.get(), &transport);
        QSignalSpy released(&transport, &FabricTransport::released);
        transport.runGroups(1, {{QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-03")}});
        QCOMPARE(shell->next(), QStringLiteral("create -f - -o json"));
        transport.release(); // Ctrl-C while kubectl create is on its way
        QTest::qWait(50);
        QCOMPARE(shell->sent.size(), size_t(1)); // nothing deleted before the create answered
        shell->answer("{}");
        QTRY_COMPARE(shell->next(), QStringLiteral("delete jobs,services -n default -l strata.io/fabric-run=0123abcd-ef4 --cascade=background --ignore-not-found"));
        shell->answer("");
        QTRY_COMPARE(shell->next(), QStringLiteral("uncordon kube-gpu-01 kube-gpu-03"));
        shell->answer("");
        QTRY_COMPARE(released.size(), 1);
    }

    void failedCleanupSaysWhatToRun()
    {
        auto shell = std::make_shared<ScriptedShell>();
        FabricKubernetesTransport transport(shell, KubectlCommands(QStringLiteral("kubectl"), {}, 30));
        prepare(shell.get(), &transport);
        QSignalSpy released(&transport, &FabricTransport::released);
        transport.runGroups(1, {{QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-03")}});
        shell->answer("{}");
        transport.release();
        QTRY_VERIFY(shell->next().startsWith(QLatin1String("delete")));
        shell->answer("", 1);
        QTRY_VERIFY(shell->next().startsWith(QLatin1String("uncordon")));
        shell->answer("", 1);
        QTRY_COMPARE(released.size(), 1);
        const QString problem = released.first().first().toString();
        QVERIFY2(problem.contains(QLatin1String("kubectl delete jobs,services -n default -l strata.io/fabric-run=0123abcd-ef4")), qPrintable(problem));
        QVERIFY2(problem.contains(QLatin1String("kubectl uncordon kube-gpu-01 kube-gpu-03")), qPrintable(problem));
    }

    void refusesWithoutImageOrForNcclTests_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<bool>("ncclTests");
        QTest::addColumn<QString>("said");
        QTest::newRow("no image") << "" << false << "needs an image";
        QTest::newRow("nccl-tests") << "pytorch/pytorch:2.5.1" << true << "MPI";
    }
    void refusesWithoutImageOrForNcclTests()
    {
        QFETCH(QString, image);
        QFETCH(bool, ncclTests);
        QFETCH(QString, said);
        auto shell = std::make_shared<ScriptedShell>();
        FabricKubernetesTransport transport(shell, KubectlCommands(QStringLiteral("kubectl"), {}, 30));
        QSignalSpy failed(&transport, &FabricTransport::failed);
        FabricRequest r = request();
        r.image = image;
        if (ncclTests)
            r.tool = FabricToolChoice::NcclTests;
        transport.prepare(r);
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed.first().first().toString().contains(said));
        QVERIFY(shell->sent.empty()); // nothing reached the cluster
    }
};

QTEST_GUILESS_MAIN(TestFabricKubernetesTransport)
#include "tst_fabric_kubernetes_transport.moc"
