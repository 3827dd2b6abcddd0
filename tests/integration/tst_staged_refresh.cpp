// The first refresh of a session against the lab (fixture strata_lab, and strata_lab_2411 for
// Slurm 24.11) comes in stages: ClusterSession publishes the nodes and partitions as soon as
// they are read (partialSnapshotReady), then the whole snapshot with the jobs (snapshotReady),
// never the other way round; the independent Slurm reads ran side by side on channels of the
// one SSH connection; and the pending backlog is read at a lower rate than the rest.

#include "lab_profile.h"
#include "model/cluster_snapshot.h"
#include "session/cluster_session.h"
#include "slurm/slurm_source.h"
#include "ssh/ssh_remote_shell.h"

#include <QElapsedTimer>

#include <QSignalSpy>
#include <QTest>

using namespace strata;

class TestStagedRefresh : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_profile = LabProfile::fromDirectory(LabProfile::directory(), &error);
        QVERIFY2(!m_profile.name.isEmpty(), qPrintable(error));
        m_profile.refreshIntervalSeconds = 3600; // the test asks for each refresh
        // A held job, so the whole snapshot has one job the partial one must not show yet.
        ClusterSession submitter(m_profile);
        JobSubmission job;
        job.name = QStringLiteral("staged-refresh-held");
        job.script = QStringLiteral("#!/bin/sh\nsleep 600\n");
        job.extraArguments = {QStringLiteral("--hold")};
        QFuture<ActionResult> submitted = submitter.submit(job);
        QTRY_VERIFY_WITH_TIMEOUT(submitted.isFinished(), 60000);
        QVERIFY2(submitted.result().ok, qPrintable(submitted.result().message));
        m_heldJob = submitted.result().jobId;
        QVERIFY(!m_heldJob.isEmpty());
    }

    void cleanupTestCase()
    {
        if (m_heldJob.isEmpty())
            return;
        ClusterSession canceller(m_profile);
        QFuture<ActionResult> cancelled = canceller.cancel(m_heldJob);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.isFinished(), 60000);
        QVERIFY2(cancelled.result().ok, qPrintable(cancelled.result().message));
    }

    void nodesAndPartitionsBeforeJobs()
    {
        ClusterSession session(m_profile);
        QStringList order;
        SnapshotPtr partial, whole;
        QElapsedTimer clock;
        qint64 partialMs = -1, wholeMs = -1;
        connect(&session, &ClusterSession::partialSnapshotReady, this, [&](const SnapshotPtr &s) {
            order << QStringLiteral("partial");
            partial = s;
            partialMs = clock.elapsed();
        });
        connect(&session, &ClusterSession::snapshotReady, this, [&](const SnapshotPtr &s) {
            order << QStringLiteral("whole");
            whole = s;
            wholeMs = clock.elapsed();
        });
        clock.start();
        session.refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(whole, 90000);
        QCOMPARE(order, QStringList({QStringLiteral("partial"), QStringLiteral("whole")}));
        qInfo("connect and first refresh: nodes and partitions after %lld ms, whole snapshot after %lld ms",
              partialMs, wholeMs);

        const SourceStatus *slurm = whole->source(SourceKind::Slurm);
        QVERIFY(slurm);
        QVERIFY2(slurm->ok, qPrintable(slurm->error));
        // The partial snapshot: the lab's nodes (four, eight GPUs each, one Gpu per index) and
        // partitions, exactly as the whole one has them, and no job yet.
        QCOMPARE(partial->nodes.size(), 4);
        QCOMPARE(partial->nodes.size(), whole->nodes.size());
        for (int i = 0; i < partial->nodes.size(); ++i) {
            const Node &n = partial->nodes[i];
            QCOMPARE(n.name, whole->nodes[i].name);
            QCOMPARE(n.gpuCount, 8);
            QCOMPARE(n.gpus.size(), 8);
            QCOMPARE(n.gpus[7].index, 7);
            QCOMPARE(n.gpuModel, whole->nodes[i].gpuModel);
            QVERIFY(!n.gpuModel.isEmpty());
        }
        QVERIFY(!partial->partitions.isEmpty());
        QCOMPARE(partial->partitions.size(), whole->partitions.size());
        for (int i = 0; i < partial->partitions.size(); ++i) {
            QCOMPARE(partial->partitions[i].name, whole->partitions[i].name);
            QCOMPARE(partial->partitions[i].totalGpus, whole->partitions[i].totalGpus);
            QVERIFY(partial->partitions[i].totalGpus > 0);
        }
        QVERIFY(partial->jobs.isEmpty());
        const SourceStatus *partialSlurm = partial->source(SourceKind::Slurm);
        QVERIFY(partialSlurm && partialSlurm->ok);
        // The whole one has the jobs, the held one among them.
        const Job *held = whole->job(m_heldJob);
        QVERIFY2(held, qPrintable(QStringLiteral("job %1 not in the snapshot").arg(m_heldJob)));
        QCOMPARE(held->state, QStringLiteral("PENDING"));
        QCOMPARE(held->name, QStringLiteral("staged-refresh-held"));
        QCOMPARE(held->user, m_profile.sshUser);

        // Partitions, node list, job list and the running jobs' details were read side by side.
        const auto *ssh = dynamic_cast<const SshRemoteShell *>(session.shell().get());
        QVERIFY(ssh);
        QVERIFY2(ssh->mostChannelsAtOnce() >= 3, qPrintable(QString::number(ssh->mostChannelsAtOnce())));

        // Later refreshes publish whole snapshots only. The pending backlog is read at a lower
        // rate: within kPendingReadIntervalMs the next refresh reads the other states only and
        // keeps the pending jobs it has (the held one still there, still pending).
        const auto *slurmSource = dynamic_cast<const SlurmSource *>(session.orchestrator());
        QVERIFY(slurmSource);
        QCOMPARE(slurmSource->pendingReads(), 1);
        QElapsedTimer sinceFirst;
        sinceFirst.start();
        QSignalSpy partials(&session, &ClusterSession::partialSnapshotReady);
        whole.reset();
        session.refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(whole, 90000);
        QCOMPARE(partials.size(), 0);
        QVERIFY(whole->job(m_heldJob));
        QCOMPARE(whole->job(m_heldJob)->state, QStringLiteral("PENDING"));
        if (sinceFirst.elapsed() < SlurmSource::kPendingReadIntervalMs - 5000)
            QCOMPARE(slurmSource->pendingReads(), 1);
        else
            qWarning("the second refresh came too late to check that it skipped the pending jobs");

        // A job submitted through the session is pending: the next refresh reads the backlog.
        // Counted before submitting: the refresh the session starts after the action may have
        // read the backlog by the time the test sees the submit finish.
        const int readsBefore = slurmSource->pendingReads();
        JobSubmission second;
        second.name = QStringLiteral("staged-refresh-second");
        second.script = QStringLiteral("#!/bin/sh\nsleep 600\n");
        second.extraArguments = {QStringLiteral("--hold")};
        QFuture<ActionResult> submitted = session.submit(second);
        QTRY_VERIFY_WITH_TIMEOUT(submitted.isFinished(), 60000);
        QVERIFY2(submitted.result().ok, qPrintable(submitted.result().message));
        const QString secondId = submitted.result().jobId;
        // The session refreshes after an action by itself; wait for a snapshot with the job.
        QTRY_VERIFY_WITH_TIMEOUT(session.latest() && session.latest()->job(secondId), 90000);
        QVERIFY(slurmSource->pendingReads() > readsBefore);
        QCOMPARE(session.latest()->job(secondId)->state, QStringLiteral("PENDING"));
        QVERIFY(session.latest()->job(m_heldJob));
        QFuture<ActionResult> cancelled = session.cancel(secondId);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.isFinished(), 60000);
        QVERIFY2(cancelled.result().ok, qPrintable(cancelled.result().message));
    }

private:
    ClusterProfile m_profile;
    QString m_heldJob;
};

QTEST_GUILESS_MAIN(TestStagedRefresh)
#include "tst_staged_refresh.moc"
