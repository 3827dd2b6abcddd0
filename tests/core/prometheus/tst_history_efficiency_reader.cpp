// MetricsSource::readEfficiency (HistoryEfficiencyReader) against a canned Prometheus: one
// query_range per metric per chunk, never one per job; the answers reach the records; a
// failing server and a profile without Prometheus are errors in the answer, not a hang.
#include "canned_http_server.h"

#include "prometheus/metrics_source.h"
#include "profile/cluster_profile.h"

#include <QTest>
#include <QUrlQuery>

using namespace strata;
using strata::test::CannedHttpServer;

namespace {

constexpr qint64 kStart = 1'796'083'200; // 2026-12-01T00:00:00Z

template <typename T>
T wait(QFuture<T> future, int timeoutMs = 15000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!future.isFinished() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!future.isFinished())
        qFatal("future did not finish within %d ms", timeoutMs);
    return future.result();
}

// Every step of the asked range, n1 GPU 0: util 80, memory 1234, power 250 (the documented
// matrix format).
CannedHttpServer::Response answer(const CannedHttpServer::Request &request)
{
    const QUrlQuery q(QUrl(QString::fromUtf8(request.target)).query());
    const QString promql = q.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded);
    const qint64 start = q.queryItemValue(QStringLiteral("start")).toLongLong();
    const qint64 end = q.queryItemValue(QStringLiteral("end")).toLongLong();
    const qint64 step = q.queryItemValue(QStringLiteral("step")).toLongLong();
    const char *value = promql.contains(QStringLiteral("GPU_UTIL")) ? "80" : promql.contains(QStringLiteral("FB_USED")) ? "1234" : "250";
    QByteArray values;
    for (qint64 t = start; step > 0 && t <= end; t += step)
        values += (values.isEmpty() ? "" : ",") + QByteArray("[") + QByteArray::number(t) + ",\"" + value + "\"]";
    return {200, "application/json",
            R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"Hostname":"n1","gpu":"0"},"values":[)"
                + values + "]}]}}"};
}

QVector<JobRecord> records()
{
    QVector<JobRecord> r(2);
    r[0].id = QStringLiteral("1");
    r[0].started = QDateTime::fromSecsSinceEpoch(kStart + 600, Qt::UTC);
    r[0].ended = QDateTime::fromSecsSinceEpoch(kStart + 1800, Qt::UTC);
    r[0].nodes = {QStringLiteral("n1")};
    r[0].gpus = 1;
    r[0].gpuIndicesByNode.insert(QStringLiteral("n1"), {0});
    r[1] = r[0];
    r[1].id = QStringLiteral("2");
    r[1].gpuIndicesByNode.clear(); // one of n1's GPUs, which one unknown
    return r;
}

HistoryPeriod period(qint64 seconds)
{
    return HistoryPeriod{QDateTime::fromSecsSinceEpoch(kStart, Qt::UTC),
                         QDateTime::fromSecsSinceEpoch(kStart + seconds, Qt::UTC)};
}

} // namespace

class TestHistoryEfficiencyReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void threeQueriesFillTheRecords()
    {
        CannedHttpServer server(&answer);
        QVERIFY(server.listen());
        ClusterProfile profile;
        profile.prometheusUrl = server.url();
        MetricsSource source(profile);
        const HistoryEfficiencyAnswer a = wait(source.readEfficiency(records(), period(3600), nullptr));
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        QCOMPARE(a.stepSeconds, qint64(60));
        QCOMPARE(a.chunks, 1);
        QCOMPARE(server.requests().size(), 3); // one per metric, whatever the number of jobs
        QCOMPARE(a.queries.size(), 3);
        QVERIFY(a.bytes > 0);
        QCOMPARE(a.records.size(), 2);
        const JobEfficiency &e = a.records[0].efficiency;
        QCOMPARE(e.basis, JobEfficiency::Basis::Indices);
        QCOMPARE(e.utilMeanPercent, 80.0);
        QCOMPARE(e.memPeakMiB, 1234.0);
        QCOMPARE(e.powerMeanW, 250.0);
        QVERIFY(qAbs(e.gpuHoursMeasured - 20.0 / 60.0) < 1e-9);
        QCOMPARE(a.records[1].efficiency.basis, JobEfficiency::Basis::Unattributable);
        for (const CannedHttpServer::Request &r : server.requests())
            QVERIFY2(r.target.startsWith("/api/v1/query_range?"), r.target.constData());
    }

    void chunksOneAfterAnother()
    {
        // 30 days at 30-minute steps on an unknown cluster (64 GPUs assumed) with an answer
        // budget of 32,000 points: 500 points a chunk, 1,440 points in 3 chunks of 3 queries.
        CannedHttpServer server(&answer);
        QVERIFY(server.listen());
        ClusterProfile profile;
        profile.prometheusUrl = server.url();
        MetricsSource::Options options;
        options.history.maxPointsPerAnswer = 32000;
        MetricsSource source(profile, options);
        const HistoryEfficiencyAnswer a = wait(source.readEfficiency(records(), period(30 * 86400), nullptr));
        QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
        QCOMPARE(a.stepSeconds, qint64(1800));
        QCOMPARE(a.chunks, 3);
        QCOMPARE(server.requests().size(), 9);
        // Job 1 ran 20 minutes, inside one 30-minute step: that step, weighted by the 2/3 of it
        // the job held, gives the same GPU-hours as the 1-minute grid.
        const JobEfficiency &e = a.records[0].efficiency;
        QCOMPARE(e.basis, JobEfficiency::Basis::Indices);
        QCOMPARE(e.utilMeanPercent, 80.0);
        QVERIFY(qAbs(e.gpuHoursMeasured - 20.0 / 60.0) < 1e-9);
    }

    void cancelStopsBeforeTheNextChunk()
    {
        CannedHttpServer server(&answer);
        QVERIFY(server.listen());
        ClusterProfile profile;
        profile.prometheusUrl = server.url();
        MetricsSource::Options options;
        options.history.maxPointsPerAnswer = 32000; // 3 chunks, as above
        MetricsSource source(profile, options);
        QFuture<HistoryEfficiencyAnswer> future = source.readEfficiency(records(), period(30 * 86400), nullptr);
        future.cancel(); // the first chunk's queries are out already
        QDeadlineTimer deadline(15000);
        while (!future.isFinished() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY(future.isFinished());
        QVERIFY(future.isCanceled());
        QTest::qWait(300); // nothing more is sent once the first chunk's answers are in
        QCOMPARE(server.requests().size(), 3);
    }

    void serverErrorIsTheAnswersError()
    {
        CannedHttpServer server([](const CannedHttpServer::Request &) {
            return CannedHttpServer::Response{503, "application/json",
                                              R"({"status":"error","errorType":"unavailable","error":"TSDB not ready"})"};
        });
        QVERIFY(server.listen());
        ClusterProfile profile;
        profile.prometheusUrl = server.url();
        MetricsSource source(profile);
        const HistoryEfficiencyAnswer a = wait(source.readEfficiency(records(), period(3600), nullptr));
        QVERIFY2(a.error.startsWith(QStringLiteral("GPU history unavailable: ")), qPrintable(a.error));
        QVERIFY2(a.error.contains(QStringLiteral("TSDB not ready")), qPrintable(a.error));
        QVERIFY(a.errorKind != ErrorKind::None);
        QCOMPARE(a.records[0].efficiency.basis, JobEfficiency::Basis::None);
        QCOMPARE(a.records[0].efficiency.why, a.error);
    }

    void noPrometheusInTheProfile()
    {
        MetricsSource source(ClusterProfile{});
        const HistoryEfficiencyAnswer a = wait(source.readEfficiency(records(), period(3600), nullptr));
        QCOMPARE(a.errorKind, ErrorKind::SourceUnsupported);
        QCOMPARE(a.records.size(), 2);
        QCOMPARE(a.records[0].efficiency.basis, JobEfficiency::Basis::None);
        QVERIFY(a.records[0].efficiency.why.startsWith(QStringLiteral("no Prometheus URL in the profile")));
    }
};

QTEST_GUILESS_MAIN(TestHistoryEfficiencyReader)
#include "tst_history_efficiency_reader.moc"
