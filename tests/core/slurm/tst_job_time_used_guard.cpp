// Issue 33: "Time used" went back by 3 s after a submit, the listing of the refresh after it
// having been asked for before the one shown. Within a session a job's time never goes back
// for the same run; a requeued run (another start time) starts again; unknown stays unknown.
#include "slurm/job_time_used_guard.h"

#include <QTest>

using namespace strata;

namespace {

Job running(const QString &id, qint64 startTime, qint64 timeUsed)
{
    Job j;
    j.id = id;
    j.setState(QStringLiteral("RUNNING"));
    j.startTime = startTime;
    j.timeUsedSeconds = timeUsed;
    return j;
}

} // namespace

class TestJobTimeUsedGuard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void neverGoesBackForTheSameRun_data()
    {
        QTest::addColumn<QVector<qint64>>("listed");   // timeUsedSeconds listed by each refresh
        QTest::addColumn<QVector<qint64>>("shown");
        QTest::newRow("forward") << QVector<qint64>{10, 20, 30} << QVector<qint64>{10, 20, 30};
        QTest::newRow("older listing after a submit") << QVector<qint64>{40, 37, 47} << QVector<qint64>{40, 40, 47};
        QTest::newRow("unknown stays unknown") << QVector<qint64>{40, -1, 45} << QVector<qint64>{40, -1, 45};
    }
    void neverGoesBackForTheSameRun()
    {
        QFETCH(QVector<qint64>, listed);
        QFETCH(QVector<qint64>, shown);
        JobTimeUsedGuard guard;
        for (qsizetype i = 0; i < listed.size(); ++i) {
            QVector<Job> jobs{running(QStringLiteral("7"), 1000, listed[i])};
            guard.apply(jobs);
            QCOMPARE(jobs.first().timeUsedSeconds, shown[i]);
        }
    }

    void aNewRunStartsAgain()
    {
        JobTimeUsedGuard guard;
        QVector<Job> jobs{running(QStringLiteral("7"), 1000, 600)};
        guard.apply(jobs);
        // Requeued and started again: its own clock, from its new start.
        jobs = {running(QStringLiteral("7"), 2000, 5)};
        guard.apply(jobs);
        QCOMPARE(jobs.first().timeUsedSeconds, 5);
    }

    void jobsNotListedAreForgotten()
    {
        JobTimeUsedGuard guard;
        QVector<Job> jobs{running(QStringLiteral("7"), 1000, 600), running(QStringLiteral("8"), 1000, 50)};
        guard.apply(jobs);
        jobs = {running(QStringLiteral("8"), 1000, 40)};
        guard.apply(jobs);
        QCOMPARE(jobs.first().timeUsedSeconds, 50);
        // 7 was not listed in between: what it had is gone (ids are reused after a restart).
        jobs = {running(QStringLiteral("7"), 1000, 3)};
        guard.apply(jobs);
        QCOMPARE(jobs.first().timeUsedSeconds, 3);
    }
};

QTEST_GUILESS_MAIN(TestJobTimeUsedGuard)
#include "tst_job_time_used_guard.moc"
