// KubeJobParser on kubectl's `get jobs -A -o json` and the API's JobList from the lab stand-in, and on Jobs written
// from the API reference (DeadlineExceeded, suspended, work queue, Indexed, being deleted).
#include "kube_test_data.h"
#include "kubernetes/kube_job_parser.h"

#include <QTest>

using namespace strata;

class TestKubeJobParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void job_data();
    void job();
    void unusableDocuments();
};

void TestKubeJobParser::job_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("finishedCondition");
    QTest::addColumn<QString>("finishedReason");
    QTest::addColumn<int>("parallelism");
    QTest::addColumn<int>("completions"); // -1: unset
    QTest::addColumn<int>("active");
    QTest::addColumn<int>("succeeded");
    QTest::addColumn<int>("failed");
    QTest::addColumn<int>("gpusPerPod");
    QTest::addColumn<bool>("suspended");
    QTest::addColumn<bool>("indexed");
    QTest::addColumn<bool>("deleting");
    QTest::addColumn<qint64>("activeDeadlineSeconds");

    const QString s = QStringLiteral("standin_jobs.json");
    const QString r = QStringLiteral("reference_jobs.json");
    QTest::newRow("stand-in indexed, running") << s << "ml-research/train-llm" << "" << "" << 2 << 2 << 2 << 0 << 0 << 8
                                               << false << true << false << qint64(0);
    QTest::newRow("stand-in complete") << s << "default/done-ok" << "Complete" << "CompletionsReached" << 1 << 1 << 0 << 1
                                       << 0 << 1 << false << false << false << qint64(0);
    QTest::newRow("stand-in backoff") << s << "default/fails" << "Failed" << "BackoffLimitExceeded" << 1 << 1 << 0 << 0
                                      << 2 << 0 << false << false << false << qint64(0);
    QTest::newRow("stand-in pending pod") << s << "default/too-big" << "" << "" << 1 << 1 << 1 << 0 << 0 << 16 << false
                                          << false << false << qint64(0);
    // The API's own JobList (`kubectl get --raw /apis/batch/v1/jobs`, what a refresh reads): the same.
    const QString a = QStringLiteral("standin_raw_jobs.json");
    QTest::newRow("API list, indexed, running") << a << "ml-research/train-llm" << "" << "" << 2 << 2 << 2 << 0 << 0 << 8
                                                << false << true << false << qint64(0);
    QTest::newRow("API list, backoff") << a << "default/fails" << "Failed" << "BackoffLimitExceeded" << 1 << 1 << 0 << 0
                                       << 2 << 0 << false << false << false << qint64(0);
    QTest::newRow("deadline") << r << "research/deadline" << "Failed" << "DeadlineExceeded" << 1 << 1 << 0 << 0 << 1
                              << 1 << false << false << false << qint64(600);
    QTest::newRow("suspended") << r << "research/paused" << "" << "" << 1 << 1 << 0 << 0 << 0 << 1 << true << false
                               << false << qint64(0);
    QTest::newRow("work queue") << r << "research/queue-workers" << "" << "" << 3 << -1 << 0 << 0 << 0 << 2 << false
                                << false << false << qint64(0);
    QTest::newRow("indexed sweep done") << r << "research/sweep" << "Complete" << "CompletionsReached" << 2 << 4 << 0 << 4
                                        << 0 << 1 << false << true << false << qint64(0);
    QTest::newRow("being deleted") << r << "research/stopping" << "" << "" << 1 << 1 << 1 << 0 << 0 << 2 << false
                                   << false << true << qint64(0);
}

void TestKubeJobParser::job()
{
    QFETCH(QString, file);
    QFETCH(QString, key);
    const KubeJobParseResult result = KubeJobParser::parse(kubeTestData(file));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const auto it = std::find_if(result.jobs.cbegin(), result.jobs.cend(), [&](const KubeJob &j) { return j.key() == key; });
    QVERIFY2(it != result.jobs.cend(), qPrintable(key));
    QTEST(it->finishedCondition, "finishedCondition");
    QTEST(it->finishedReason, "finishedReason");
    QTEST(it->parallelism, "parallelism");
    QFETCH(int, completions);
    QCOMPARE(it->completions.value_or(-1), completions);
    QTEST(it->active, "active");
    QTEST(it->succeeded, "succeeded");
    QTEST(it->failed, "failed");
    QTEST(it->gpusPerPod, "gpusPerPod");
    QTEST(it->suspended, "suspended");
    QTEST(it->indexed, "indexed");
    QTEST(it->deleting, "deleting");
    QTEST(it->activeDeadlineSeconds, "activeDeadlineSeconds");
    QVERIFY(!it->uid.isEmpty());
    QVERIFY(it->createdAt > 1700000000);
    if (!it->finishedCondition.isEmpty()) {
        QVERIFY(it->finishedAt >= it->startedAt);
        QVERIFY(!it->finishedMessage.isEmpty());
    }
}

void TestKubeJobParser::unusableDocuments()
{
    QVERIFY(KubeJobParser::parse(kubeTestData(QStringLiteral("standin_nodes.json"))).error.isEmpty() == false);
    QVERIFY(KubeJobParser::parse(kubeTestData(QStringLiteral("errors/status_409_job.json"))).error.contains(
        QStringLiteral("already exists")));
    QVERIFY(KubeJobParser::parse("[1,2]").error.contains(QStringLiteral("expected a JobList")));
}

QTEST_GUILESS_MAIN(TestKubeJobParser)
#include "tst_kube_job_parser.moc"
