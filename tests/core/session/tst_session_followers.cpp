// What the session offers the window instead of a shell or an HTTP client of its own (issue 24):
// a job's output from the orchestrator that runs it (SlurmSource: the stdout file through a
// JobOutputFollower; KubernetesSource: kubectl logs -f through a KubeLogFollower) and a
// metric's history from the metrics source. The followers run for real over a RemoteShell that
// runs sh on this machine (LocalProcessShell), as the login node would.

#include "kubernetes/kube_log_follower.h"
#include "kubernetes/kubernetes_source.h"
#include "model/gpu_catalog.h"
#include "model/job.h"
#include "prometheus/prometheus_metric_history.h"
#include "session/cluster_session.h"
#include "slurm/job_output_follower.h"
#include "slurm/slurm_source.h"

#include "../kubernetes/local_process_shell.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

Job jobWithOutput(const QString &id, const QString &stdoutPath)
{
    Job job;
    job.id = id;
    job.stdoutPath = stdoutPath;
    return job;
}

} // namespace

class TestSessionFollowers : public QObject
{
    Q_OBJECT
private:
    std::shared_ptr<LocalProcessShell> m_shell;

private Q_SLOTS:
    void initTestCase()
    {
        m_shell = std::make_shared<LocalProcessShell>(QProcessEnvironment::systemEnvironment(), 10000);
    }

    void slurmFollowsTheJobsOutputFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("slurm-42.out"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("epoch 1 loss 2.31\n");
        file.close();

        ClusterSession session(ClusterProfile{}, m_shell, std::make_unique<SlurmSource>(m_shell, GpuCatalog::builtIn()));
        std::unique_ptr<OutputFollower> follower = session.followOutput(jobWithOutput(QStringLiteral("42"), path));
        QVERIFY(follower);
        QVERIFY(qobject_cast<JobOutputFollower *>(follower.get()));
        QCOMPARE(follower->label(), path);
        QString text;
        connect(follower.get(), &OutputFollower::appended, this, [&](const QString &t) { text += t; });
        follower->start();
        QTRY_COMPARE_WITH_TIMEOUT(text, QStringLiteral("epoch 1 loss 2.31\n"), 5000);
        QCOMPARE(follower->progress(), QStringLiteral("18 bytes \u2014 following"));
        follower->stop();

        // A job without an output path has nothing to follow.
        QVERIFY(!session.followOutput(jobWithOutput(QStringLiteral("43"), QString())));
    }

    void kubernetesFollowsThePodsLog()
    {
        KubernetesSource source(m_shell, GpuCatalog::builtIn());
        // Before a refresh has listed bare pods, an id names a Job (kubectl logs -f job/...).
        std::unique_ptr<OutputFollower> follower = source.followOutput(jobWithOutput(QStringLiteral("ml/train"), QString()));
        QVERIFY(follower);
        QVERIFY(qobject_cast<KubeLogFollower *>(follower.get()));
        QCOMPARE(follower->label(), QStringLiteral("kubectl logs -f job ml/train"));
        // Not "namespace/name": no pod or Job to follow.
        QVERIFY(!source.followOutput(jobWithOutput(QStringLiteral("train"), QString())));
    }

    void kubeLogFollowerHandsOnAStreamAndEnds()
    {
        // The log streamed by the shell as it comes (here sh instead of kubectl logs -f).
        KubeLogFollower follower(m_shell, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("printf 'line 1\\nline 2\\n'")},
                                 QStringLiteral("a test log"));
        QString text;
        connect(&follower, &OutputFollower::appended, this, [&](const QString &t) { text += t; });
        QSignalSpy ended(&follower, &OutputFollower::progressed);
        follower.start();
        QVERIFY(ended.wait(5000));
        QCOMPARE(text, QStringLiteral("line 1\nline 2\n"));
        QVERIFY(follower.ended());
        QCOMPARE(follower.received(), 14);
        QCOMPARE(follower.progress(), QStringLiteral("14 bytes \u2014 ended"));
    }

    void metricHistoryComesFromTheProfilesPrometheus()
    {
        ClusterSession without(ClusterProfile{}, m_shell, std::make_unique<SlurmSource>(m_shell, GpuCatalog::builtIn()));
        QCOMPARE(without.metricHistory(), nullptr);

        ClusterProfile profile;
        profile.prometheusUrl = QStringLiteral("http://127.0.0.1:9");
        ClusterSession with(profile, m_shell, std::make_unique<SlurmSource>(m_shell, GpuCatalog::builtIn()));
        MetricHistory *history = with.metricHistory();
        QVERIFY(dynamic_cast<PrometheusMetricHistory *>(history));
        QCOMPARE(with.metricHistory(), history); // one for the session's life
    }
};

QTEST_GUILESS_MAIN(TestSessionFollowers)
#include "tst_session_followers.moc"
