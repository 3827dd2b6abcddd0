// SqueueFollower against the lab's real squeue (fixture strata_lab, and strata_lab_2411 for
// Slurm 24.11) over the lab's real sshd: the login node draws the marker and squeue --iterate
// lists at its interval, framed as SqueueIterationSplitter expects; a held job with a hostile
// name (newlines, empty lines, a forged record end) is read back exactly in every listing; a
// change shows within one interval; a polling ClusterSession takes its job lists from it (but
// right after its own submit), and ends the remote squeue when it stops polling.

#include "lab_profile.h"
#include "model/cluster_snapshot.h"
#include "session/cluster_session.h"
#include "slurm/slurm_source.h"
#include "slurm/squeue_follower.h"
#include "slurm/squeue_parser.h"
#include "ssh/ssh_options.h"
#include "ssh/ssh_remote_shell.h"

#include <QElapsedTimer>
#include <QTest>

using namespace strata;

namespace {

const QString kHostileName = QStringLiteral("follow me\n\nJobId=1 <<strata:0000000000000000>>\n\n\x1f" "end");

CommandResult runOn(RemoteShell &shell, const QStringList &argv)
{
    QFuture<CommandResult> f = shell.run(argv);
    f.waitForFinished();
    return f.result();
}

const Job *findJob(const QVector<Job> &jobs, const QString &id)
{
    for (const Job &j : jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

} // namespace

class TestSqueueFollower : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_profile = LabProfile::fromDirectory(LabProfile::directory(), &error);
        QVERIFY2(!m_profile.name.isEmpty(), qPrintable(error));
        m_shell = std::make_shared<SshRemoteShell>(SshOptions::fromProfile(m_profile));
        const CommandResult r = runOn(*m_shell, {QStringLiteral("sbatch"), QStringLiteral("--parsable"), QStringLiteral("--hold"),
                                                 QStringLiteral("-J"), kHostileName, QStringLiteral("--wrap"), QStringLiteral("sleep 600")});
        QVERIFY2(r.ok(), qPrintable(r.errorText()));
        m_heldJob = QString::fromUtf8(r.stdoutData).trimmed().section(QLatin1Char(';'), 0, 0);
        QVERIFY2(!m_heldJob.isEmpty() && m_heldJob.at(0).isDigit(), qPrintable(m_heldJob));
    }

    void cleanupTestCase()
    {
        if (!m_heldJob.isEmpty())
            runOn(*m_shell, {QStringLiteral("scancel"), m_heldJob});
    }

    void listsAtItsIntervalAndShowsAChange()
    {
        SqueueFollower follower(*m_shell, 1);
        // The first listing takes as long as one squeue; then one a second.
        SqueueFollower::Taken first = follower.takeNewest(60000);
        QCOMPARE(int(first.status), int(SqueueFollower::Taken::Status::Listing));
        QVERIFY(first.marker.startsWith("<<strata:"));
        QCOMPARE(first.marker.size(), 27);
        QVERIFY2(first.listing.messages.isEmpty(), first.listing.messages.constData());
        const SqueueParseResult parsed = SqueueParser::parse(first.listing.records, first.marker);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        const Job *held = findJob(parsed.jobs, m_heldJob);
        QVERIFY2(held, qPrintable(QStringLiteral("job %1 not listed").arg(m_heldJob)));
        QCOMPARE(held->name, kHostileName);
        QCOMPARE(held->state, QStringLiteral("PENDING"));
        QCOMPARE(held->reason, QStringLiteral("JobHeldUser"));

        // The same command, read once, lists the same jobs (nothing else changes them here but
        // the lab's own running work, which may end between the two reads).
        const QByteArray onceMarker("<<strata:1234567890abcdef>>");
        const CommandResult once = runOn(*m_shell, {QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-a"),
                                                    QStringLiteral("-r"), QStringLiteral("--states=all"), QStringLiteral("-O"),
                                                    SqueueParser::formatArgument(onceMarker)});
        QVERIFY2(once.ok(), qPrintable(once.errorText()));
        const SqueueParseResult onceParsed = SqueueParser::parse(once.stdoutData, onceMarker);
        const Job *heldOnce = findJob(onceParsed.jobs, m_heldJob);
        QVERIFY(heldOnce);
        QCOMPARE(heldOnce->name, held->name);
        QCOMPARE(heldOnce->submitTime, held->submitTime);
        QCOMPARE(heldOnce->partition, held->partition);
        QCOMPARE(heldOnce->user, held->user);

        // Listings keep coming, one a second (squeue's sleep plus its answer).
        const int before = follower.listingsRead();
        QElapsedTimer clock;
        clock.start();
        QTRY_VERIFY_WITH_TIMEOUT(follower.listingsRead() >= before + 3, 15000);
        qInfo("3 listings in %lld ms", clock.elapsed());
        SqueueFollower::Taken later = follower.takeNewest(10000);
        QCOMPARE(int(later.status), int(SqueueFollower::Taken::Status::Listing));
        QVERIFY(later.skipped >= 1);
        QCOMPARE(later.marker, first.marker);
        const SqueueParseResult laterParsed = SqueueParser::parse(later.listing.records, later.marker);
        const Job *stillHeld = findJob(laterParsed.jobs, m_heldJob);
        QVERIFY(stillHeld);
        QCOMPARE(stillHeld->name, kHostileName);

        // A change: released and held again shows within an interval or two; cancelled, gone.
        const CommandResult cancelled = runOn(*m_shell, {QStringLiteral("scancel"), m_heldJob});
        QVERIFY2(cancelled.ok(), qPrintable(cancelled.errorText()));
        clock.restart();
        bool gone = false;
        while (!gone && clock.elapsed() < 20000) {
            SqueueFollower::Taken next = follower.takeNewest(5000);
            QCOMPARE(int(next.status), int(SqueueFollower::Taken::Status::Listing));
            const SqueueParseResult nextParsed = SqueueParser::parse(next.listing.records, next.marker);
            const Job *j = findJob(nextParsed.jobs, m_heldJob);
            gone = !j || j->state == QLatin1String("CANCELLED");
        }
        QVERIFY2(gone, "the cancelled job was still pending in the listings 20 s later");
        qInfo("the cancel showed after %lld ms", clock.elapsed());
        m_heldJob.clear();
        QVERIFY(!follower.hasEnded());
    }

    void pollingSessionTakesItsJobsFromTheFollower()
    {
        ClusterProfile profile = m_profile;
        profile.refreshIntervalSeconds = 1;
        ClusterSession session(profile);
        const auto *slurm = dynamic_cast<const SlurmSource *>(session.orchestrator());
        QVERIFY(slurm);
        int snapshots = 0;
        QString failed;
        connect(&session, &ClusterSession::snapshotReady, this, [&](const SnapshotPtr &s) {
            ++snapshots;
            const SourceStatus *st = s->source(SourceKind::Slurm);
            if (!st || !st->ok)
                failed = st ? st->error : QStringLiteral("no slurm source");
        });
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(snapshots >= 4 || !failed.isEmpty(), 90000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QVERIFY2(slurm->followedRefreshes() >= 2, qPrintable(QString::number(slurm->followedRefreshes())));

        // Its own submit shows on the refresh right after it (a squeue read once for it).
        JobSubmission job;
        job.name = QStringLiteral("follower-held");
        job.script = QStringLiteral("#!/bin/sh\nsleep 600\n");
        job.extraArguments = {QStringLiteral("--hold")};
        QFuture<ActionResult> submitted = session.submit(job);
        QTRY_VERIFY_WITH_TIMEOUT(submitted.isFinished(), 60000);
        QVERIFY2(submitted.result().ok, qPrintable(submitted.result().message));
        const QString id = submitted.result().jobId;
        QTRY_VERIFY_WITH_TIMEOUT(session.latest() && session.latest()->job(id), 30000);
        QCOMPARE(session.latest()->job(id)->name, QStringLiteral("follower-held"));
        // And it stays in the listings the follower brings after.
        const int followed = slurm->followedRefreshes();
        QTRY_VERIFY_WITH_TIMEOUT(slurm->followedRefreshes() >= followed + 2, 30000);
        QVERIFY(session.latest()->job(id));
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QFuture<ActionResult> cancelled = session.cancel(id);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.isFinished(), 60000);
        QVERIFY2(cancelled.result().ok, qPrintable(cancelled.result().message));

        // Polling stopped: the login node's squeue --iterate ends with the channel.
        // (This lab's: its SLURM_CONF in the process's environment; the other release's lab may
        // be running the same test.)
        const auto iterating = [this] {
            QFuture<CommandResult> f = m_shell->runScript(
                "for p in $(pgrep -f 'squeue -h -a -r --states=all --iterate='); do\n"
                "  tr '\\0' '\\n' </proc/$p/environ 2>/dev/null | grep -qxF \"SLURM_CONF=$SLURM_CONF\" && exit 0\n"
                "done; exit 1\n");
            f.waitForFinished();
            return f.result().ran() && f.result().exitStatus == 0;
        };
        QVERIFY(iterating());
        session.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!iterating(), 15000);
    }

private:
    ClusterProfile m_profile;
    std::shared_ptr<SshRemoteShell> m_shell;
    QString m_heldJob;
};

QTEST_GUILESS_MAIN(TestSqueueFollower)
#include "tst_squeue_follower.moc"
