// KubeInformer's own logic over a shell the test answers (ScriptedKubectl: list pages from
// tests/data/kubernetes, real `kubectl get --raw` output of the stand-in, and a watch whose lines
// the test writes, in pieces, as the SSH thread would hand them on): the list is read in pages
// with the continue token and the first page's resourceVersion; the watch starts from it; its
// events change the objects and a sync while it runs reads no page; an expired watch (410), an
// error event, a line that is not an event and a watch that fails all make the next sync list
// again, the last two with a warning; a watch the server ends is resumed from the newest
// version; without a watch every sync lists and nothing is kept. Pods carry the cases; nodes
// and Jobs are checked on their own captured watches (the same code, other parsers).
// tst_kubernetes_source runs the real kubectl against the stand-in.
#include "kube_test_data.h"
#include "kubernetes/kube_informer.h"
#include "kubernetes/kube_job.h"
#include "kubernetes/kube_json.h"
#include "kubernetes/kube_pod.h"
#include "model/gpu_catalog.h"
#include "model/node.h"
#include "kubernetes/kubectl_api_client.h"
#include "ssh/remote_shell.h"
#include "ssh/streaming_shell.h"

#include <QPromise>
#include <QTest>
#include <QUrlQuery>

using namespace strata;

namespace {

class ScriptedKubectl : public RemoteShell, public StreamingShell
{
public:
    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &) override
    {
        runs << argv;
        CommandResult r;
        const QString uri = argv.value(argv.indexOf(QStringLiteral("--raw")) + 1);
        if (failLists) {
            r.exitStatus = 1;
            r.stderrData = "The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n";
        } else {
            const bool second = QUrlQuery(QUrl(uri).query()).hasQueryItem(QStringLiteral("continue"));
            r.exitStatus = 0;
            if (uri.startsWith(QLatin1String("/api/v1/nodes")))
                r.stdoutData = nodes;
            else if (uri.startsWith(QLatin1String("/apis/batch/v1/jobs")))
                r.stdoutData = jobs;
            else
                r.stdoutData = second ? page2 : page1;
        }
        return QtFuture::makeReadyFuture(r);
    }
    QFuture<CommandResult> upload(const QString &, const QByteArray &, int) override { return {}; }
    QString describe() const override { return QStringLiteral("scripted kubectl"); }

    QFuture<CommandResult> stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                  std::shared_ptr<std::atomic_bool> stop) override
    {
        watches << argv;
        m_onOutput = std::move(onOutput);
        m_stop = std::move(stop);
        m_promise = std::make_unique<QPromise<CommandResult>>();
        m_promise->start();
        return m_promise->future();
    }
    void write(const QByteArray &chunk) { m_onOutput(chunk); }
    void end(const CommandResult &result)
    {
        m_promise->addResult(result);
        m_promise->finish();
    }
    bool stopAsked() const { return m_stop && m_stop->load(); }
    // The query of the newest watch's URI.
    QUrlQuery watchQuery() const { return QUrlQuery(QUrl(watches.last().last()).query()); }

    QByteArray page1 = kubeTestData(QStringLiteral("standin_raw_pods_page1.json"));
    QByteArray page2 = kubeTestData(QStringLiteral("standin_raw_pods_page2.json"));
    QByteArray nodes = kubeTestData(QStringLiteral("standin_raw_nodes.json"));
    QByteArray jobs = kubeTestData(QStringLiteral("standin_raw_jobs.json"));
    bool failLists = false;
    QList<QStringList> runs;
    QList<QStringList> watches;
    // The informers' way to the API: kubectl (`get --raw`) through this shell.
    KubectlApiClient api{*this, KubectlCommands(QStringLiteral("kubectl"), {}, 30)};

private:
    std::function<void(const QByteArray &)> m_onOutput;
    std::shared_ptr<std::atomic_bool> m_stop;
    std::unique_ptr<QPromise<CommandResult>> m_promise;
};

using PodInformer = KubeInformer<KubePod>;

PodInformer podInformer(ScriptedKubectl &shell, const QString &namespaceName = {})
{
    return PodInformer(shell.api, KubeResources::pods(namespaceName));
}

QStringList names(const QVector<KubePod> &pods)
{
    QStringList out;
    for (const KubePod &pod : pods)
        out << pod.key();
    return out;
}

const KubePod *find(const QVector<KubePod> &pods, const QString &key)
{
    for (const KubePod &pod : pods)
        if (pod.key() == key)
            return &pod;
    return nullptr;
}

const QStringList kListed = {
    QStringLiteral("default/debug-shell"),     QStringLiteral("default/done-ok-86ffd"),
    QStringLiteral("default/fails-2sx8k"),     QStringLiteral("default/fails-d8gr2"),
    QStringLiteral("default/serve-eval-df5ll"), QStringLiteral("default/too-big-s8bqj"),
    QStringLiteral("ml-research/train-llm-0-qw42x"), QStringLiteral("ml-research/train-llm-1-hpjl8")};

QByteArray watchLine(int index, const QString &file = QStringLiteral("standin_raw_pod_watch.jsonl"))
{
    return kubeTestData(file).split('\n').value(index) + '\n';
}

CommandResult exited(int status, const QByteArray &stderrData = {})
{
    CommandResult r;
    r.exitStatus = status;
    r.stderrData = stderrData;
    return r;
}

const QByteArray kExpired = R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},)json"
                            R"json("status":"Failure","message":"too old resource version: 59 (812)","reason":"Expired","code":410}})json"
                            "\n";

} // namespace

class TestKubeInformer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsInPagesThenWatchesFromTheListsVersion()
    {
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell);
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY2(sync.ok, qPrintable(sync.error));
        QCOMPARE(names(sync.objects), kListed);
        QCOMPARE(sync.pagesRead, 2);
        QCOMPARE(sync.bytesRead, shell.page1.size() + shell.page2.size());
        QVERIFY(sync.warning.isEmpty());
        QCOMPARE(shell.runs.size(), 2);
        QCOMPARE(shell.runs[0], (QStringList{QStringLiteral("kubectl"), QStringLiteral("--request-timeout=30s"),
                                             QStringLiteral("get"), QStringLiteral("--raw"),
                                             QStringLiteral("/api/v1/pods?limit=5000")}));
        const QString token = KubeJson::listMetadata(shell.page1).continueToken;
        QVERIFY(!token.isEmpty());
        QCOMPARE(QUrlQuery(QUrl(shell.runs[1].last()).query()).queryItemValue(QStringLiteral("continue"), QUrl::FullyDecoded),
                 token);
        // The watch: no request timeout (it would end the stream), from the first page's version.
        QCOMPARE(shell.watches.size(), 1);
        QCOMPARE(shell.watches[0].mid(0, 3), (QStringList{QStringLiteral("kubectl"), QStringLiteral("get"), QStringLiteral("--raw")}));
        QVERIFY(shell.watches[0].last().startsWith(QLatin1String("/api/v1/pods?watch=1")));
        QCOMPARE(shell.watchQuery().queryItemValue(QStringLiteral("resourceVersion")), QStringLiteral("59"));
        QCOMPARE(shell.watchQuery().queryItemValue(QStringLiteral("allowWatchBookmarks")), QStringLiteral("true"));
        QCOMPARE(shell.watchQuery().queryItemValue(QStringLiteral("timeoutSeconds")),
                 QString::number(PodInformer::kWatchTimeoutSeconds));
        QVERIFY(informer.isWatching());
    }

    void theWatchsEventsChangeThePodsWithoutAList()
    {
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell);
        const PodInformer::Sync listed = informer.sync(true);
        QVERIFY(listed.ok);
        // Nothing arrived: the pods as listed, no page read, and not even copied.
        PodInformer::Sync sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(names(sync.objects), kListed);
        QCOMPARE(sync.objects.constData(), listed.objects.constData());
        QCOMPARE(sync.pagesRead, 0);
        QCOMPARE(sync.bytesRead, 0);
        QCOMPARE(shell.runs.size(), 2);
        // debug-shell deleted; watch-probe added, then found unschedulable (it tolerates no GPU
        // taint and the GPU-less node is cordoned); written in uneven pieces.
        const QByteArray events = watchLine(0) + watchLine(1) + watchLine(2);
        shell.write(events.left(100));
        shell.write(events.mid(100, 3000));
        shell.write(events.mid(3100));
        sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.eventsApplied, 3);
        QCOMPARE(sync.pagesRead, 0);
        QCOMPARE(shell.runs.size(), 2);
        QVERIFY(sync.objects.constData() != listed.objects.constData());
        QCOMPARE(names(listed.objects), kListed); // what an earlier refresh holds stays as it was
        QStringList expected = kListed;
        expected.removeOne(QStringLiteral("default/debug-shell"));
        expected.insert(5, QStringLiteral("default/watch-probe"));
        QCOMPARE(names(sync.objects), expected);
        const KubePod *probe = find(sync.objects, QStringLiteral("default/watch-probe"));
        QVERIFY(probe);
        QCOMPARE(probe->image, QStringLiteral("busybox"));
        QCOMPARE(probe->phase, QStringLiteral("Pending"));
        QVERIFY(probe->nodeName.isEmpty());
        QCOMPARE(probe->reason, QStringLiteral("Unschedulable"));
        QCOMPARE(shell.watches.size(), 1);
        QVERIFY(sync.warning.isEmpty());
    }

    void anExpiredWatchListsAgain()
    {
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell);
        QVERIFY(informer.sync(true).ok);
        shell.write(watchLine(0) + kExpired);
        shell.end(exited(0));
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.pagesRead, 2);
        QCOMPARE(names(sync.objects), kListed); // the list's state, not the event's
        QVERIFY(sync.warning.isEmpty());     // an ordinary turn of a long watch
        QVERIFY2(sync.listedBecause.contains(QLatin1String("410 Expired: too old resource version: 59 (812)")),
                 qPrintable(sync.listedBecause));
        QCOMPARE(shell.watches.size(), 2);
        QCOMPARE(shell.watchQuery().queryItemValue(QStringLiteral("resourceVersion")), QStringLiteral("59"));
    }

    void aWatchTheServerEndedIsResumedFromTheNewestVersion()
    {
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell);
        QVERIFY(informer.sync(true).ok);
        const QByteArray bookmark = R"json({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":)json"
                                    R"json({"resourceVersion":"907","creationTimestamp":null},"spec":{"containers":null},"status":{}}})json"
                                    "\n";
        shell.write(watchLine(0) + bookmark);
        shell.end(exited(0)); // timeoutSeconds reached: kubectl exits 0
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.pagesRead, 0);
        QCOMPARE(sync.eventsApplied, 2);
        QVERIFY(!names(sync.objects).contains(QStringLiteral("default/debug-shell")));
        QCOMPARE(shell.watches.size(), 2);
        QCOMPARE(shell.watchQuery().queryItemValue(QStringLiteral("resourceVersion")), QStringLiteral("907"));
    }

    void aFailedWatchListsAgainAndSaysSo()
    {
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell);
        QVERIFY(informer.sync(true).ok);
        shell.end(exited(1, "error: You must be logged in to the server (Unauthorized)\n"));
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.pagesRead, 2);
        QCOMPARE(sync.warning, QStringLiteral("the pod watch ended (error: You must be logged in to the server "
                                              "(Unauthorized)); the pods were listed again"));
        QCOMPARE(shell.watches.size(), 2);
    }

    void anErrorEventOrAnUnreadableLineListsAgainAndSaysSo_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("warning");
        QTest::newRow("error event") << QByteArray(R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",)json"
                                                   R"json("metadata":{},"status":"Failure","message":"etcdserver: request timed out",)json"
                                                   R"json("reason":"InternalError","code":500}})json")
                                     << QStringLiteral("the pod watch failed (500 InternalError: etcdserver: request timed "
                                                       "out); the pods were listed again");
        QTest::newRow("not json") << QByteArray("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"")
                                  << QStringLiteral("the pod watch sent what Strata cannot read (a pod watch event is not "
                                                    "JSON (unterminated string at byte 38)); the pods were listed again");
        QTest::newRow("unknown type") << QByteArray(R"json({"type":"SYNC","object":{}})json")
                                      << QStringLiteral("the pod watch sent what Strata cannot read (a pod watch event of "
                                                        "unknown type \"SYNC\"); the pods were listed again");
        QTest::newRow("not a pod") << QByteArray(R"json({"type":"ADDED","object":{"kind":"Node","metadata":{"name":"n"}}})json")
                                   << QStringLiteral("the pod watch sent what Strata cannot read (a pod watch event "
                                                     "holds a Node, not a Pod); the pods were listed again");
    }

    void anErrorEventOrAnUnreadableLineListsAgainAndSaysSo()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, warning);
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell);
        QVERIFY(informer.sync(true).ok);
        shell.write(line + '\n' + watchLine(0));
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.warning, warning);
        QCOMPARE(sync.pagesRead, 2);
        QCOMPARE(names(sync.objects), kListed); // listed: neither the bad line nor what followed it
        QCOMPARE(shell.watches.size(), 2);
    }

    void aListThatFailsIsAnErrorAndKeepsNoWatch()
    {
        ScriptedKubectl shell;
        shell.failLists = true;
        PodInformer informer = podInformer(shell);
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY(!sync.ok);
        QVERIFY(sync.objects.isEmpty());
        QCOMPARE(sync.failedWhat, QStringLiteral("kubectl get --raw /api/v1/pods?limit=5000"));
        QCOMPARE(sync.failed.exitStatus, 1);
        QVERIFY(sync.failed.stderrData.contains("was refused"));
        QCOMPARE(shell.watches.size(), 0);
        QVERIFY(!informer.isWatching());
    }

    void aPageThatIsNotAListIsAParseError()
    {
        ScriptedKubectl shell;
        shell.page2 = "<html>502 Bad Gateway</html>";
        PodInformer informer = podInformer(shell);
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY(!sync.ok);
        QCOMPARE(sync.errorKind, ErrorKind::ParseFailed);
        QVERIFY(sync.failedWhat.contains(QLatin1String("&continue=")));
        QVERIFY2(sync.error.startsWith(QLatin1String("not JSON")), qPrintable(sync.error));
        QVERIFY(sync.objects.isEmpty());
        QVERIFY(!informer.isWatching());
    }

    void withoutAWatchEverySyncListsAndNothingIsKept()
    {
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell, QStringLiteral("default"));
        PodInformer::Sync sync = informer.sync(false);
        QVERIFY(sync.ok);
        QCOMPARE(names(sync.objects), kListed);
        QCOMPARE(shell.runs[0].last(), QStringLiteral("/api/v1/namespaces/default/pods?limit=5000"));
        sync = informer.sync(false);
        QCOMPARE(sync.pagesRead, 2);
        QCOMPARE(shell.runs.size(), 4);
        QCOMPARE(shell.watches.size(), 0);
        QVERIFY(!informer.isWatching());
    }

    void stoppingEndsTheWatch()
    {
        ScriptedKubectl shell;
        {
            PodInformer informer = podInformer(shell);
            QVERIFY(informer.sync(true).ok);
            QVERIFY(!shell.stopAsked());
            informer.stopWatching();
            QVERIFY(shell.stopAsked());
            QVERIFY(!informer.isWatching());
            // A sync without a watch lists and ends nothing more.
            QCOMPARE(informer.sync(false).pagesRead, 2);
        }
        ScriptedKubectl other;
        {
            PodInformer informer = podInformer(other);
            QVERIFY(informer.sync(true).ok);
        }
        QVERIFY(other.stopAsked()); // going away ends it too
    }

    void nodesAreListedAndWatchedTheSameWay()
    {
        ScriptedKubectl shell;
        KubeInformer<Node> informer(shell.api, KubeResources::nodes(GpuCatalog::builtIn()));
        KubeInformer<Node>::Sync sync = informer.sync(true);
        QVERIFY2(sync.ok, qPrintable(sync.error));
        QCOMPARE(sync.pagesRead, 1);
        QCOMPARE(shell.runs.last().last(), QStringLiteral("/api/v1/nodes?limit=5000"));
        QStringList listed;
        for (const Node &node : std::as_const(sync.objects))
            listed << node.name;
        QCOMPARE(listed, (QStringList{QStringLiteral("kube-gpu-01"), QStringLiteral("kube-gpu-02"),
                                      QStringLiteral("kube-gpu-03"), QStringLiteral("kube-gpu-04")}));
        QCOMPARE(sync.objects[3].state, QStringLiteral("cordoned"));
        QCOMPARE(sync.objects[3].reason, QStringLiteral("Action:Reboot xid=79 GPU 3 fell off the bus"));
        QCOMPARE(sync.objects[3].gpuCount, 8);
        QCOMPARE(shell.watches.size(), 1);
        QVERIFY(shell.watches[0].last().startsWith(QLatin1String("/api/v1/nodes?watch=1")));
        QCOMPARE(shell.watchQuery().queryItemValue(QStringLiteral("resourceVersion")), QStringLiteral("59"));

        // kube-gpu-04 uncordoned, then its drain reason removed (the captured watch).
        const QString file = QStringLiteral("standin_raw_node_watch.jsonl");
        shell.write(watchLine(0, file) + watchLine(1, file) + watchLine(2, file));
        sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.eventsApplied, 3);
        QCOMPARE(sync.pagesRead, 0);
        QCOMPARE(shell.runs.size(), 1);
        QCOMPARE(sync.objects.size(), 4);
        const Node &uncordoned = sync.objects[3];
        QCOMPARE(uncordoned.name, QStringLiteral("kube-gpu-04"));
        // Schedulable again; the HyperPod health label (left as it was) is now the reason.
        QCOMPARE(uncordoned.state, QStringLiteral("ready"));
        QCOMPARE(uncordoned.stateFlags, (QStringList{QStringLiteral("READY"), QStringLiteral("UNHEALTHY")}));
        QCOMPARE(uncordoned.reason, QStringLiteral("node-health-status: UnschedulablePendingReboot"));
        QCOMPARE(uncordoned.gpuCount, 8);
        QVERIFY(sync.warning.isEmpty());
    }

    void jobsAreListedAndWatchedTheSameWay()
    {
        ScriptedKubectl shell;
        KubeInformer<KubeJob> informer(shell.api, KubeResources::jobs({}));
        KubeInformer<KubeJob>::Sync sync = informer.sync(true);
        QVERIFY2(sync.ok, qPrintable(sync.error));
        const auto keys = [](const QVector<KubeJob> &jobs) {
            QStringList out;
            for (const KubeJob &job : jobs)
                out << job.namespaceName + u'/' + job.name;
            return out;
        };
        QCOMPARE(keys(sync.objects), (QStringList{QStringLiteral("default/done-ok"), QStringLiteral("default/fails"),
                                                  QStringLiteral("default/serve-eval"), QStringLiteral("default/too-big"),
                                                  QStringLiteral("ml-research/train-llm")}));
        QCOMPARE(shell.runs.last().last(), QStringLiteral("/apis/batch/v1/jobs?limit=5000"));
        QVERIFY(shell.watches[0].last().startsWith(QLatin1String("/apis/batch/v1/jobs?watch=1")));

        // watch-job created and started; the failed Job deleted.
        const QString file = QStringLiteral("standin_raw_job_watch.jsonl");
        shell.write(watchLine(0, file) + watchLine(1, file) + watchLine(2, file));
        sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.eventsApplied, 3);
        QCOMPARE(sync.pagesRead, 0);
        QCOMPARE(keys(sync.objects), (QStringList{QStringLiteral("default/done-ok"), QStringLiteral("default/serve-eval"),
                                                  QStringLiteral("default/too-big"), QStringLiteral("default/watch-job"),
                                                  QStringLiteral("ml-research/train-llm")}));
        const KubeJob &created = sync.objects[3];
        QCOMPARE(created.active, 1);
        QCOMPARE(created.image, QStringLiteral("busybox"));
        QCOMPARE(created.command, QStringLiteral("sleep 0.3"));
        QCOMPARE(shell.watchQuery().queryItemValue(QStringLiteral("resourceVersion")), QStringLiteral("59"));
    }

    void aWatchOfAnotherKindIsRefused()
    {
        ScriptedKubectl shell;
        KubeInformer<KubeJob> informer(shell.api, KubeResources::jobs({}));
        QVERIFY(informer.sync(true).ok);
        shell.write(watchLine(0)); // a pod's event on the Jobs' watch
        const KubeInformer<KubeJob>::Sync sync = informer.sync(true);
        QVERIFY(sync.ok);
        QCOMPARE(sync.warning, QStringLiteral("the Job watch sent what Strata cannot read (a Job watch event holds a "
                                              "Pod, not a Job); the Jobs were listed again"));
        QCOMPARE(sync.pagesRead, 1);
    }

    void anInvalidNamespaceIsRefused()
    {
        ScriptedKubectl shell;
        PodInformer informer = podInformer(shell, QStringLiteral("-n x"));
        const PodInformer::Sync sync = informer.sync(true);
        QVERIFY(!sync.ok);
        QCOMPARE(sync.errorKind, ErrorKind::InvalidRequest);
        QCOMPARE(shell.runs.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestKubeInformer)
#include "tst_kube_informer.moc"
