// ClusterSession::readHistory on a Kubernetes cluster: the records come from kube-state-metrics'
// series in Prometheus (MetricsSource::readKubeWorkloadRecords), never from the orchestrator's
// accounting. A canned Prometheus answers the contract's instant queries with the lab's captures
// (tests/data/kubernetes/ksm) and the history's util range with the lab's DCGM answer: the
// workloads are the captured ones, a running workload the latest snapshot also lists is not
// doubled, one KSM has not seen yet is added; no KSM series -> NoAccounting with its sentence; a
// refused query fails the read with its kind; no Prometheus -> SourceUnsupported.
#include "../prometheus/canned_http_server.h"
#include "offline_remote_shell.h"
#include "session/cluster_session.h"
#include "synthetic_orchestrator.h"

#include "prometheus/kube_workload_history.h"
#include "prometheus/kube_workload_history_reader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>
#include <QUrlQuery>

using namespace strata;
using strata::test::CannedHttpServer;

namespace {

QByteArray capture(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/kubernetes/ksm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("capture %s missing", qPrintable(name));
    return file.readAll();
}

HistoryPeriod capturedPeriod()
{
    const QJsonObject p = QJsonDocument::fromJson(capture(QStringLiteral("period.json"))).object();
    return {QDateTime::fromSecsSinceEpoch(p.value("start").toInteger(), Qt::UTC),
            QDateTime::fromSecsSinceEpoch(p.value("end").toInteger(), Qt::UTC)};
}

const QByteArray kEmptyVector = R"({"status":"success","data":{"resultType":"vector","result":[]}})";
const QByteArray kEmptyMatrix = R"({"status":"success","data":{"resultType":"matrix","result":[]}})";

enum class Ksm { Captured, NotScraped, Refused, Relabelled };

// The canned Prometheus: the contract's queries (by their exact PromQL), the history's util range.
CannedHttpServer::Response answer(const CannedHttpServer::Request &request, Ksm ksm)
{
    // A GET's query string, or a POST's form.
    const qsizetype mark = request.target.indexOf('?');
    const QUrlQuery form(QString::fromUtf8(mark >= 0 ? request.target.mid(mark + 1) : request.body));
    const QString query = form.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded);
    const bool range = request.target.startsWith("/api/v1/query_range");
    const HistoryPeriod p = capturedPeriod();
    const QStringList files{"gpus", "start", "end", "seen", "phase", "owner", "rsowner", "jobowner"};
    // Scraped without honor_labels: 37 pod series carry exported_namespace (the lab's never do).
    if (query == KubeWorkloadHistory::relabelledProbe(p.seconds()))
        return {200, "application/json",
                ksm == Ksm::Relabelled
                    ? QByteArray(R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1796648208,"37"]}]}})")
                    : kEmptyVector};
    for (KubeWorkloadHistory::Query q : KubeWorkloadHistory::all()) {
        if (query != KubeWorkloadHistory::promql(q, p.seconds(), 60))
            continue;
        if (ksm == Ksm::NotScraped)
            return {200, "application/json", kEmptyVector};
        if (ksm == Ksm::Refused && q == KubeWorkloadHistory::Query::Seen)
            return {400, "application/json",
                    "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error at char 80\"}"};
        return {200, "application/json", capture(files[int(q)] + QStringLiteral(".json"))};
    }
    if (range && query.contains(QLatin1String("avg_over_time(DCGM_FI_DEV_GPU_UTIL")))
        return {200, "application/json", capture(QStringLiteral("dcgm_util_history.json"))};
    if (request.target.startsWith("/api/v1/alerts"))
        return {200, "application/json", R"({"status":"success","data":{"alerts":[]}})"};
    return {200, "application/json", range ? kEmptyMatrix : kEmptyVector};
}

// A synthetic Kubernetes cluster: its accounting must never be asked.
class KubeOrchestrator : public SyntheticOrchestrator
{
public:
    using SyntheticOrchestrator::SyntheticOrchestrator;
    OrchestratorKind kind() const override { return OrchestratorKind::Kubernetes; }
    QFuture<AccountingAnswer> readJobRecords(const HistoryPeriod &) override
    {
        ++m_accountingReads;
        AccountingAnswer a;
        a.error = QStringLiteral("asked the orchestrator");
        a.errorKind = ErrorKind::SourceUnsupported;
        return QtFuture::makeReadyFuture(a);
    }
    int m_accountingReads = 0;
};

Job runningJob(const QString &id, qint64 start)
{
    Job j;
    j.id = id;
    j.name = id.section(QLatin1Char('/'), -1);
    j.setState(QStringLiteral("RUNNING"));
    j.nodes = {QStringLiteral("kube-gpu-02")};
    j.gpusRequested = 1;
    j.startTime = start;
    return j;
}

// The latest refresh: long-run (KSM has it) and fresh (started after KSM's last scrape) run.
ClusterSnapshot cluster()
{
    ClusterSnapshot s;
    s.clusterName = QStringLiteral("kube-history");
    for (const char *name : {"kube-gpu-01", "kube-gpu-02", "kube-gpu-03", "kube-gpu-04"}) {
        Node n;
        n.name = QString::fromLatin1(name);
        n.instanceType = QStringLiteral("p5.48xlarge");
        s.nodes << n;
    }
    const qint64 start = capturedPeriod().start.toSecsSinceEpoch();
    s.jobs << runningJob(QStringLiteral("ml-team/long-run"), start + 36)
           << runningJob(QStringLiteral("ml-team/fresh"), start + 200);
    s.finalize();
    return s;
}

struct Fixture
{
    std::unique_ptr<CannedHttpServer> prometheus;
    KubeOrchestrator *orchestrator = nullptr;
    std::unique_ptr<ClusterSession> session;
};

std::unique_ptr<Fixture> fixture(std::optional<Ksm> ksm)
{
    auto f = std::make_unique<Fixture>();
    ClusterProfile profile;
    profile.name = QStringLiteral("kube-history");
    profile.sshHost = QStringLiteral("127.0.0.1");
    profile.orchestrator = OrchestratorKind::Kubernetes;
    if (ksm) {
        const Ksm mode = *ksm;
        f->prometheus = std::make_unique<CannedHttpServer>([mode](const CannedHttpServer::Request &r) { return answer(r, mode); });
        if (!f->prometheus->listen())
            qFatal("the canned Prometheus could not listen");
        profile.prometheusUrl = f->prometheus->url();
    }
    f->orchestrator = new KubeOrchestrator(cluster());
    f->session = std::make_unique<ClusterSession>(profile, std::make_shared<OfflineRemoteShell>(),
                                                  std::unique_ptr<OrchestratorSource>(f->orchestrator));
    return f;
}

HistoryAnswer read(ClusterSession &session)
{
    QSignalSpy ready(&session, &ClusterSession::snapshotReady);
    session.refreshNow();
    if (!ready.wait(10000))
        qFatal("no snapshot");
    QFuture<HistoryAnswer> future = session.readHistory(capturedPeriod());
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, 10000) || future.resultCount() != 1)
        qFatal("readHistory did not answer");
    return future.result();
}

const JobRecord *find(const QVector<JobRecord> &records, const QString &id)
{
    for (const JobRecord &r : records)
        if (r.id == id)
            return &r;
    return nullptr;
}

} // namespace

class TestKubeReadHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void workloadsFromKubeStateMetrics();
    void kubeStateMetricsNotScraped();
    void refusedQueryFailsTheRead();
    void relabelledKubeStateMetricsIsSaid();
    void noPrometheus();
};

void TestKubeReadHistory::workloadsFromKubeStateMetrics()
{
    auto f = fixture(Ksm::Captured);
    const HistoryAnswer a = read(*f->session);
    QCOMPARE(f->orchestrator->m_accountingReads, 0);
    QCOMPARE(a.accountingError, QString());
    QVERIFY2(a.accountingCommand.startsWith(QLatin1String("kube-state-metrics through Prometheus: 9 instant queries")),
             qPrintable(a.accountingCommand));
    QCOMPARE(a.skippedRows, 0);
    QCOMPARE(a.warnings.size(), 1); // the short-lived pod's end, said
    QStringList ids;
    for (const JobRecord &r : a.records)
        ids << r.id;
    ids.sort();
    // long-run once (KSM's record, still running), fresh added from the snapshot.
    QCOMPARE(ids, (QStringList{"ml-team/Deployment/infer", "ml-team/flaky-train", "ml-team/fresh", "ml-team/long-run",
                               "ml-team/train-pair", "research/solo-probe"}));
    const JobRecord *longRun = find(a.records, "ml-team/long-run");
    QCOMPARE(longRun->pods.size(), 1);
    QCOMPARE(longRun->instanceType, QStringLiteral("p5.48xlarge"));
    QCOMPARE(find(a.records, "ml-team/fresh")->pods.size(), 0);
    // Efficiency on the pods' own series.
    const JobRecord *pair = find(a.records, "ml-team/train-pair");
    QCOMPARE(pair->efficiency.basis, JobEfficiency::Basis::Exact);
    QVERIFY2(qAbs(pair->efficiency.utilMeanPercent - 40) <= 3, qPrintable(QString::number(pair->efficiency.utilMeanPercent)));
    QCOMPARE(a.metricsError, QString());
}

void TestKubeReadHistory::kubeStateMetricsNotScraped()
{
    auto f = fixture(Ksm::NotScraped);
    const HistoryAnswer a = read(*f->session);
    QCOMPARE(a.accountingErrorKind, ErrorKind::NoAccounting);
    QCOMPARE(a.accountingError,
             QStringLiteral("kube-state-metrics is not scraped by this Prometheus: finished workloads cannot be read"));
    QCOMPARE(a.accountingError, KubeWorkloadHistoryReader::notScrapedError());
    // The workloads running now are still shown, from the snapshot.
    QCOMPARE(a.records.size(), 2);
    QCOMPARE(f->orchestrator->m_accountingReads, 0);
}

void TestKubeReadHistory::refusedQueryFailsTheRead()
{
    auto f = fixture(Ksm::Refused);
    const HistoryAnswer a = read(*f->session);
    QCOMPARE(a.accountingErrorKind, ErrorKind::CommandFailed);
    QVERIFY2(a.accountingError.startsWith(QLatin1String("kube-state-metrics history unavailable (ksm-seen): ")),
             qPrintable(a.accountingError));
    QCOMPARE(a.records.size(), 2); // the running ones only: none of KSM's half-read
}

void TestKubeReadHistory::relabelledKubeStateMetricsIsSaid()
{
    auto f = fixture(Ksm::Relabelled);
    const HistoryAnswer a = read(*f->session);
    QCOMPARE(a.accountingErrorKind, ErrorKind::SourceUnsupported);
    QVERIFY2(a.accountingError.startsWith(QLatin1String("kube-state-metrics is scraped without honor_labels: 37 of its pod "
                                                        "series")),
             qPrintable(a.accountingError));
    QVERIFY(a.accountingError.contains(QLatin1String("honorLabels: true")));
    QCOMPARE(a.records.size(), 2); // the running ones only: nothing grouped under the exporter's pod
}

void TestKubeReadHistory::noPrometheus()
{
    auto f = fixture(std::nullopt);
    const HistoryAnswer a = read(*f->session);
    QCOMPARE(a.accountingErrorKind, ErrorKind::SourceUnsupported);
    QVERIFY2(a.accountingError.startsWith(QLatin1String("no Prometheus in the profile")), qPrintable(a.accountingError));
    QCOMPARE(f->orchestrator->m_accountingReads, 0);
}

QTEST_MAIN(TestKubeReadHistory)
#include "tst_kube_read_history.moc"
