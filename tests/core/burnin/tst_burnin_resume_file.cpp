// BurninResumeFile: the running burn-ins kept for re-attaching, on a real file: round trip of
// the request, replace and remove, a missing file, a broken one.
#include "burnin/burnin_resume_file.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

BurninActiveRun run(const QString &profile, const QString &job)
{
    BurninActiveRun r;
    r.profile = profile;
    r.jobId = job;
    r.startedAt = QDateTime(QDate(2026, 12, 3), QTime(5, 30), Qt::UTC);
    r.request.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
    r.request.tests = {QStringLiteral("gemm"), QStringLiteral("p2p")};
    r.request.durationSeconds = 90;
    r.request.backend = QStringLiteral("cpu");
    r.request.gpusByNode = {{QStringLiteral("gpu-node01"), 8}, {QStringLiteral("gpu-node02"), 4}};
    r.request.drainOnFail = true;
    r.request.reservation = QStringLiteral("maint");
    r.request.outputDirectory = QStringLiteral(".cache/strata/burnin");
    return r;
}

} // namespace

class TestBurninResumeFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTripReplaceRemove()
    {
        QTemporaryDir dir;
        BurninResumeFile file(dir.filePath(QStringLiteral("sub/burnin-running.json")));
        QVector<BurninActiveRun> runs;
        QCOMPARE(file.load(&runs), QString()); // missing: empty, no error
        QVERIFY(runs.isEmpty());
        QCOMPARE(file.add(run(QStringLiteral("lab"), QStringLiteral("41"))), QString());
        QCOMPARE(file.add(run(QStringLiteral("lab"), QStringLiteral("42"))), QString());
        BurninActiveRun again = run(QStringLiteral("lab"), QStringLiteral("41"));
        again.request.durationSeconds = 5;
        QCOMPARE(file.add(again), QString()); // same job: replaced, not doubled
        QCOMPARE(file.add(run(QStringLiteral("other"), QStringLiteral("41"))), QString());
        QCOMPARE(file.load(&runs), QString());
        QCOMPARE(runs.size(), 3);
        const BurninActiveRun &r = runs[0];
        QCOMPARE(r.jobId, QStringLiteral("42"));
        QCOMPARE(r.profile, QStringLiteral("lab"));
        QCOMPARE(r.startedAt, QDateTime(QDate(2026, 12, 3), QTime(5, 30), Qt::UTC));
        QCOMPARE(r.request.nodes, run("", "").request.nodes);
        QCOMPARE(r.request.tests, (QStringList{QStringLiteral("gemm"), QStringLiteral("p2p")}));
        QCOMPARE(r.request.durationSeconds, 90);
        QCOMPARE(r.request.backend, QStringLiteral("cpu"));
        QCOMPARE(r.request.gpusByNode.value(QStringLiteral("gpu-node02")), 4);
        QCOMPARE(r.request.drainOnFail, true);
        QCOMPARE(r.request.reservation, QStringLiteral("maint"));
        QCOMPARE(r.request.outputDirectory, QStringLiteral(".cache/strata/burnin"));
        QCOMPARE(runs[1].jobId, QStringLiteral("41"));
        QCOMPARE(runs[1].profile, QStringLiteral("lab"));
        QCOMPARE(runs[1].request.durationSeconds, 5);

        QCOMPARE(file.remove(QStringLiteral("lab"), QStringLiteral("41")), QString());
        QCOMPARE(file.remove(QStringLiteral("lab"), QStringLiteral("999")), QString());
        QCOMPARE(file.load(&runs), QString());
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].jobId, QStringLiteral("42"));
        QCOMPARE(runs[1].profile, QStringLiteral("other"));
    }

    void brokenFileIsAnError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("burnin-running.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema\": \"something else\"}");
        f.close();
        QVector<BurninActiveRun> runs;
        QVERIFY(BurninResumeFile(path).load(&runs).contains(QLatin1String("is not strata.burnin-active/1")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{not json");
        f.close();
        QVERIFY(BurninResumeFile(path).load(&runs).contains(QLatin1String("is not JSON")));
        // A run without its job id or nodes is skipped, not followed blindly.
        QVERIFY(!BurninActiveRun::fromJson(QJsonObject{{QLatin1String("profile"), QStringLiteral("lab")}}));
    }
};

QTEST_GUILESS_MAIN(TestBurninResumeFile)
#include "tst_burnin_resume_file.moc"
