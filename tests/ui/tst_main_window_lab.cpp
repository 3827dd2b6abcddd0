// The window against the lab (lab/lab up: real Slurm over real SSH): a profile typed into
// the dialog, the host-key prompt on first connect (an empty known_hosts copy), 4 nodes and
// 32 GPUs, a node's GPU history from Prometheus, a job submitted from the dialog, its GPUs highlighted once it runs, cancel, drain
// and resume. Needs STRATA_LAB_DIR; the fixture starts the lab.

#include "charts/gpu_time_series_chart.h"
#include "cluster_view.h"
#include "dialogs/drain_dialog.h"
#include "dialogs/host_key_dialog.h"
#include "dialogs/profile_dialog.h"
#include "dialogs/submit_job_dialog.h"
#include "lab_profile.h"
#include "main_window.h"
#include "models/job_table_model.h"
#include "models/node_table_model.h"
#include "views/connections_panel.h"
#include "views/gpu_heatmap_view.h"
#include "views/heatmap_panel.h"
#include "views/log_panel.h"
#include "views/node_detail_pane.h"
#include "views/stack_overview_view.h"
#include "views/table_page.h"

#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QTest>

using namespace strata;

namespace {

constexpr int kTimeoutMs = 30000;

template <typename T>
T *waitForDialog(QWidget *parent, int timeoutMs = kTimeoutMs)
{
    // The visible one: an earlier dialog of the same kind may still await its deleteLater.
    T *dialog = nullptr;
    const bool found = QTest::qWaitFor([&] {
        for (T *candidate : parent->findChildren<T *>())
            if (candidate->isVisible())
                dialog = candidate;
        return dialog != nullptr;
    }, timeoutMs);
    return found ? dialog : nullptr;
}

} // namespace

class TestMainWindowLab : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ClusterProfile m_lab;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;
    QString m_jobId;

    ClusterView *view() const { return m_window->clusterView(); }
    Node node(const QString &name) const
    {
        const int row = view()->nodeModel()->rowForKey(name);
        return row < 0 ? Node{} : view()->nodeModel()->node(row);
    }
    const Job *job(const QString &id) const
    {
        const SnapshotPtr s = view()->snapshot();
        return s ? s->job(id) : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QString error;
        m_lab = LabProfile::fromDirectory(LabProfile::directory(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // First contact: a known_hosts that does not know the lab yet.
        const QString knownHosts = m_dir.filePath(QStringLiteral("known_hosts"));
        QFile empty(knownHosts);
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        m_lab.knownHostsFile = knownHosts;
        m_store = std::make_unique<ProfileStore>(m_dir.filePath(QStringLiteral("clusters.json")));
        m_window = std::make_unique<MainWindow>(m_store.get());
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase()
    {
        // Leave the shared lab as we found it even when a step failed halfway.
        if (m_window && m_window->session()) {
            if (!m_jobId.isEmpty())
                m_window->session()->cancel(m_jobId);
            m_window->session()->resume({QStringLiteral("gpu-node04")});
            QTest::qWait(1000);
        }
        m_window.reset();
    }

    void addTheLabInTheProfileDialog()
    {
        m_window->action(QStringLiteral("actionAddProfile"))->trigger();
        auto *dialog = waitForDialog<ProfileDialog>(m_window.get());
        QVERIFY(dialog);
        QTest::keyClicks(dialog->field(QStringLiteral("name")), m_lab.name);
        QTest::keyClicks(dialog->field(QStringLiteral("sshHost")), m_lab.sshHost);
        auto *port = dialog->findChild<QSpinBox *>(QStringLiteral("sshPort"));
        port->setValue(m_lab.sshPort);
        QTest::keyClicks(dialog->field(QStringLiteral("sshUser")), m_lab.sshUser);
        QTest::keyClicks(dialog->field(QStringLiteral("identityFile")), m_lab.identityFile);
        QTest::keyClicks(dialog->field(QStringLiteral("knownHostsFile")), m_lab.knownHostsFile);
        dialog->findChild<QSpinBox *>(QStringLiteral("refreshInterval"))->setValue(2);
        auto *environment = dialog->findChild<QTableWidget *>(QStringLiteral("remoteEnvironment"));
        for (const auto &pair : m_lab.remoteEnvironment) {
            const int row = environment->rowCount();
            environment->insertRow(row);
            environment->setItem(row, 0, new QTableWidgetItem(pair.first));
            environment->setItem(row, 1, new QTableWidgetItem(pair.second));
        }
        QTest::keyClicks(dialog->field(QStringLiteral("prometheusUrl")), m_lab.prometheusUrl);
        QVERIFY2(dialog->validationError().isEmpty(), qPrintable(dialog->validationError()));
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Save), Qt::LeftButton);
        QTRY_COMPARE(m_window->profiles().size(), 1);
        const ClusterProfile saved = m_window->profiles().first();
        QCOMPARE(saved.sshTarget(), m_lab.sshTarget());
        QCOMPARE(saved.remoteEnvironment, m_lab.remoteEnvironment);
    }

    void firstConnectAsksAboutTheHostKey()
    {
        m_window->connections()->selectProfile(m_lab.name);
        m_window->action(QStringLiteral("actionConnect"))->trigger();
        auto *dialog = waitForDialog<HostKeyDialog>(m_window.get());
        QVERIFY2(dialog, qPrintable(m_window->log()->text()));
        const QString fingerprint = dialog->findChild<QLabel *>(QStringLiteral("fingerprint"))->text();
        QVERIFY2(fingerprint.startsWith(QStringLiteral("SHA256:")), qPrintable(fingerprint));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("trust")), Qt::LeftButton);
        QFile knownHosts(m_lab.knownHostsFile);
        QTRY_VERIFY_WITH_TIMEOUT(knownHosts.size() > 0, kTimeoutMs);
    }

    void fourNodesAndThirtyTwoGpus()
    {
        QTRY_COMPARE_WITH_TIMEOUT(view()->nodeModel()->rowCount(), 4, kTimeoutMs);
        int gpus = 0;
        QStringList names;
        for (int row = 0; row < 4; ++row) {
            gpus += view()->nodeModel()->node(row).gpuCount;
            names << view()->nodeModel()->key(row);
        }
        QCOMPARE(gpus, 32);
        names.sort();
        QCOMPARE(names, QStringList({"gpu-node01", "gpu-node02", "gpu-node03", "gpu-node04"}));
        QVERIFY(view()->overview()->totalsText().contains(QStringLiteral("<b>32</b> GPUs")));
        // Nodes come with the staged first refresh's partial snapshot; the source turns "ok" with
        // the whole one (until then it still shows the host-key failure of the previous test).
        QTRY_COMPARE_WITH_TIMEOUT(m_window->connections()->sourceTree()->topLevelItem(0)->text(1), QStringLiteral("ok"),
                                  kTimeoutMs);
    }

    void nodeChartShowsPrometheusHistory()
    {
        view()->select(StackElement::node(QStringLiteral("gpu-node01")));
        GpuTimeSeriesChart *chart = view()->nodeDetail()->chart();
        QTRY_VERIFY2_WITH_TIMEOUT(chart->seriesCount() == 8, qPrintable(chart->message()), kTimeoutMs);
        QVERIFY(chart->message().isEmpty());
    }

    void submitAJobFromTheDialog()
    {
        view()->tabs()->setCurrentWidget(view()->nodesPage());
        QVERIFY(view()->nodesPage()->selectKey(QStringLiteral("gpu-node04")));
        m_window->action(QStringLiteral("actionSubmit"))->trigger();
        auto *dialog = waitForDialog<SubmitJobDialog>(m_window.get());
        QVERIFY(dialog);
        dialog->useTemplate(QStringLiteral("sleep"));
        dialog->findChild<QLineEdit *>(QStringLiteral("jobName"))->setText(QStringLiteral("strata-ui-test"));
        dialog->findChild<QSpinBox *>(QStringLiteral("gpusPerNode"))->setValue(2);
        dialog->findChild<QSpinBox *>(QStringLiteral("timeLimit"))->setValue(5);
        QCOMPARE(dialog->submission().nodeList, QStringList{QStringLiteral("gpu-node04")});
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("submit")), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(m_window->log()->text().contains(QStringLiteral("Submitted batch job")),
                                  qPrintable(m_window->log()->text().right(900)), kTimeoutMs);
        const auto match = QRegularExpression(QStringLiteral("Submitted batch job (\\d+)")).match(m_window->log()->text());
        QVERIFY(match.hasMatch());
        m_jobId = match.captured(1);
        QTRY_VERIFY_WITH_TIMEOUT(view()->jobModel()->rowForKey(m_jobId) >= 0, kTimeoutMs);
        QCOMPARE(job(m_jobId)->name, QStringLiteral("strata-ui-test"));
    }

    void theRunningJobLightsUpItsGpus()
    {
        QVERIFY(!m_jobId.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(job(m_jobId) && job(m_jobId)->isRunning() && !job(m_jobId)->gpus.isEmpty(), kTimeoutMs);
        view()->tabs()->setCurrentWidget(view()->jobsPage());
        QVERIFY(view()->jobsPage()->selectKey(m_jobId));
        const Job *j = job(m_jobId);
        QCOMPARE(j->nodes, QStringList{QStringLiteral("gpu-node04")});
        const QVector<int> held = j->gpus.value(QStringLiteral("gpu-node04"));
        QCOMPARE(held.size(), 2);
        const Relations &r = view()->heatmap()->view()->relations();
        for (int g : held)
            QVERIFY(r.hasGpu(QStringLiteral("gpu-node04"), g));
        QCOMPARE(r.gpuCount(), 2);
        QCOMPARE(r.nodes, QSet<QString>{QStringLiteral("gpu-node04")});
    }

    void cancelTheJob()
    {
        QVERIFY(view()->jobsPage()->selectKey(m_jobId));
        m_window->action(QStringLiteral("actionCancel"))->trigger();
        auto *box = waitForDialog<QMessageBox>(m_window.get());
        QVERIFY(box);
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirm")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!job(m_jobId) || !job(m_jobId)->isRunning(), kTimeoutMs);
        m_jobId.clear();
    }

    void drainAndResumeANode()
    {
        view()->tabs()->setCurrentWidget(view()->nodesPage());
        QVERIFY(view()->nodesPage()->selectKey(QStringLiteral("gpu-node04")));
        m_window->action(QStringLiteral("actionDrain"))->trigger();
        auto *drain = waitForDialog<DrainDialog>(m_window.get());
        QVERIFY(drain);
        drain->setReason(QStringLiteral("strata ui test"));
        QTest::mouseClick(drain->findChild<QPushButton *>(QStringLiteral("drain")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(node(QStringLiteral("gpu-node04")).isDrained(), kTimeoutMs);
        QCOMPARE(node(QStringLiteral("gpu-node04")).reason, QStringLiteral("strata ui test"));

        QVERIFY(view()->nodesPage()->selectKey(QStringLiteral("gpu-node04")));
        m_window->action(QStringLiteral("actionResume"))->trigger();
        auto *box = waitForDialog<QMessageBox>(m_window.get());
        QVERIFY(box);
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirm")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!node(QStringLiteral("gpu-node04")).isDrained(), kTimeoutMs);
    }
};

QTEST_MAIN(TestMainWindowLab)
#include "tst_main_window_lab.moc"
