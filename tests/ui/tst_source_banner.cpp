// Honest staleness: while a source fails, the banner over the views says which source, why,
// and how old the data shown from it is; the status bar gives the age of the oldest data shown
// (not the time the snapshot was merged, which a failing Slurm renews every interval).

#include "cluster_view.h"
#include "main_window.h"
#include "offline_remote_shell.h"
#include "synthetic_cluster.h"
#include "synthetic_orchestrator.h"
#include "views/source_banner.h"

#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

ClusterSnapshot smallCluster()
{
    SyntheticClusterOptions o;
    o.nodes = 4;
    o.gpusPerNode = 8;
    o.jobs = 8;
    o.seed = 5;
    return SyntheticCluster::generate(o);
}

SourceStatus source(SourceKind name, bool ok, const QDateTime &lastSuccess, const QString &error = {})
{
    SourceStatus s;
    s.source = name;
    s.configured = true;
    s.ok = ok;
    s.stale = !ok && lastSuccess.isValid();
    s.error = error;
    s.lastSuccess = lastSuccess;
    s.lastAttempt = QDateTime::currentDateTimeUtc();
    return s;
}

const QString kSlurmDown = QStringLiteral("slurm_load_jobs error: Unable to contact slurm controller (connect failure)");

} // namespace

class TestSourceBanner : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;

    QString statusText() const
    {
        return m_window->findChild<QLabel *>(QStringLiteral("statusCluster"))->text();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void init()
    {
        m_store = std::make_unique<ProfileStore>(m_dir.filePath(QStringLiteral("clusters.json")));
        m_window = std::make_unique<MainWindow>(m_store.get());
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() { m_window.reset(); }

    void failingSchedulerShowsTheBannerWithTheAgeOfItsData()
    {
        ClusterProfile profile;
        profile.name = QStringLiteral("synthetic");
        profile.sshHost = QStringLiteral("127.0.0.1");
        profile.refreshIntervalSeconds = 3600; // refreshed on demand
        auto orchestrator = std::make_unique<SyntheticOrchestrator>(smallCluster());
        SyntheticOrchestrator *synthetic = orchestrator.get();
        m_window->adoptSession(std::make_unique<ClusterSession>(profile, std::make_shared<OfflineRemoteShell>(),
                                                                std::move(orchestrator)));
        ClusterSession *session = m_window->session();
        QTRY_VERIFY_WITH_TIMEOUT(session->latest() && !session->latest()->nodes.isEmpty(), 5000);
        SourceBanner *banner = m_window->sourceBanner();
        QVERIFY(banner->isHidden());
        QTRY_COMPARE_WITH_TIMEOUT(statusText(), QStringLiteral("synthetic \u00b7 data from just now"), 3000);
        const QDateTime goodAt = session->latest()->source(SourceKind::Slurm)->lastSuccess;
        QVERIFY(goodAt.isValid());

        // slurmctld goes away; the login node still answers. The data shown ages from goodAt.
        synthetic->setSchedulerFailure(kSlurmDown);
        QTest::qWait(3200);
        session->refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(!session->latest()->source(SourceKind::Slurm)->ok, 5000);
        const SnapshotPtr failed = session->latest();
        QCOMPARE(failed->source(SourceKind::Slurm)->lastSuccess, goodAt);
        QVERIFY(failed->source(SourceKind::Ssh)->ok);
        QVERIFY(failed->takenAt.secsTo(QDateTime::currentDateTimeUtc()) < 2); // merged just now
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 3000);
        const QString text = banner->text();
        QVERIFY2(text.startsWith(QStringLiteral("Slurm is failing (command failed): ") + kSlurmDown), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("SSH")), qPrintable(text)); // one line: only Slurm fails
        const QRegularExpressionMatch age = QRegularExpression(QStringLiteral("its data from (\\d+) s ago \\((\\d\\d:\\d\\d:\\d\\d) UTC\\)")).match(text);
        QVERIFY2(age.hasMatch(), qPrintable(text));
        QVERIFY2(age.captured(1).toInt() >= 3 && age.captured(1).toInt() <= 6, qPrintable(text));
        QCOMPARE(age.captured(2), goodAt.toString(QStringLiteral("HH:mm:ss")));
        // The status bar: the oldest data shown (Slurm's), not "just now".
        const QRegularExpressionMatch status = QRegularExpression(QStringLiteral("^synthetic \u00b7 data from (\\d+) s ago \\(Slurm failing\\)$")).match(statusText());
        QVERIFY2(status.hasMatch(), qPrintable(statusText()));
        QVERIFY(status.captured(1).toInt() >= 3);
        // The age keeps counting between refreshes.
        const int before = age.captured(1).toInt();
        QTRY_VERIFY_WITH_TIMEOUT(QRegularExpression(QStringLiteral("its data from (\\d+) s ago")).match(banner->text()).captured(1).toInt() > before, 3000);

        // Slurm answers again: the banner goes, the status bar is fresh.
        synthetic->setSchedulerFailure({});
        session->refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isHidden(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(statusText(), QStringLiteral("synthetic \u00b7 data from just now"), 3000);
    }

    void transportFailureNamesItsKind()
    {
        ClusterProfile profile;
        profile.name = QStringLiteral("synthetic");
        profile.sshHost = QStringLiteral("127.0.0.1");
        profile.refreshIntervalSeconds = 3600;
        auto orchestrator = std::make_unique<SyntheticOrchestrator>(smallCluster());
        SyntheticOrchestrator *synthetic = orchestrator.get();
        m_window->adoptSession(std::make_unique<ClusterSession>(profile, std::make_shared<OfflineRemoteShell>(),
                                                                std::move(orchestrator)));
        ClusterSession *session = m_window->session();
        QTRY_VERIFY_WITH_TIMEOUT(session->latest() && !session->latest()->nodes.isEmpty(), 5000);
        const QString timeout = QStringLiteral("command timed out after 4 s");
        synthetic->setTransportFailure(ErrorKind::Timeout, timeout);
        session->refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(m_window->sourceBanner()->isVisible(), 5000);
        const QString text = m_window->sourceBanner()->text();
        // Both the login node and Slurm behind it: the kind says what happened, typed, not guessed.
        QVERIFY2(text.startsWith(QStringLiteral("SSH (login node) is failing (timed out): %1 \u2014 showing its data from ").arg(timeout)),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\nSlurm is failing (timed out): %1").arg(timeout)), qPrintable(text));
    }

    void bannerNamesEachFailingSourceWithItsAge()
    {
        auto snapshot = std::make_shared<ClusterSnapshot>(smallCluster());
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const QDateTime sevenMinutesAgo = now.addSecs(-7 * 60 - 5);
        snapshot->sources = {source(SourceKind::Ssh, true, now),
                             source(SourceKind::Slurm, false, sevenMinutesAgo, kSlurmDown),
                             source(SourceKind::Prometheus, false, {}, QStringLiteral("HTTP 503 from http://prom:9090"))};
        m_window->showSnapshot(snapshot);
        SourceBanner *banner = m_window->sourceBanner();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 3000);
        QCOMPARE(banner->text(),
                 QStringLiteral("Slurm is failing: %1 \u2014 showing its data from 7 min ago (%2 UTC).\n"
                                "Prometheus is failing: HTTP 503 from http://prom:9090 \u2014 no data from it yet.")
                     .arg(kSlurmDown, sevenMinutesAgo.toString(QStringLiteral("HH:mm:ss"))));
        QCOMPARE(statusText(), QStringLiteral("synthetic \u00b7 data from 7 min ago (Slurm failing)"));
        // The banner sits over the views, above the cluster's tabs.
        QVERIFY(banner->mapTo(m_window.get(), QPoint(0, 0)).y() < m_window->clusterView()->mapTo(m_window.get(), QPoint(0, 0)).y());
    }

    void sourcesNotConfiguredOrWorkingShowNoBanner()
    {
        auto snapshot = std::make_shared<ClusterSnapshot>(smallCluster());
        const QDateTime now = QDateTime::currentDateTimeUtc();
        SourceStatus prometheus; // the profile has none: not a failure
        prometheus.source = SourceKind::Prometheus;
        snapshot->sources = {source(SourceKind::Ssh, true, now.addSecs(-30)),
                             source(SourceKind::Slurm, true, now.addSecs(-90)), prometheus};
        m_window->showSnapshot(snapshot);
        QTest::qWait(50);
        QVERIFY(m_window->sourceBanner()->isHidden());
        QCOMPARE(statusText(), QStringLiteral("synthetic \u00b7 data from 90 s ago"));
    }
};

QTEST_MAIN(TestSourceBanner)
#include "tst_source_banner.moc"
