// Burn-in from the window against the lab (real Slurm over real SSH, the agent's CPU backend):
// launched from the Nodes context menu on two selected nodes, its dialog, the live view per
// GPU, the verdicts and the report with its exports, the history in the node pane; then a
// second run followed by a fresh window after the first one closed mid-run (re-attach after a
// restart), which makes the node's history two runs long. Needs STRATA_LAB_DIR; the fixture
// starts the lab. With STRATA_BURNIN_SCREENSHOTS=DIR it also saves the dialog, the live view
// and the report as PNGs there (the README's screenshots).

#include "burnin_controller.h"
#include "charts/burnin_history_panel.h"
#include "cluster_view.h"
#include "dialogs/burnin_dialog.h"
#include "lab_profile.h"
#include "main_window.h"
#include "models/burnin_live_model.h"
#include "models/node_table_model.h"
#include "views/burnin_window.h"
#include "views/log_panel.h"
#include "views/node_detail_pane.h"

#include "burnin/burnin_resume_file.h"
#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QMessageBox>
#include <QTest>

using namespace strata;

namespace {

constexpr int kRunTimeoutMs = 150000;

void saveScreenshot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("STRATA_BURNIN_SCREENSHOTS");
    if (dir.isEmpty())
        return;
    QTest::qWait(300); // charts lay themselves out on the next turn of the event loop
    widget->grab().save(dir + QLatin1Char('/') + name);
}

} // namespace

class TestBurninWindowLab : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ClusterProfile m_lab;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;
    QStringList m_jobs;

    ClusterView *view() const { return m_window->clusterView(); }
    BurninController *burnin() const { return m_window->burnin(); }

    void openWindow()
    {
        m_window = std::make_unique<MainWindow>(m_store.get());
        m_window->resize(1280, 800);
        burnin()->setHistoryPath(m_dir.filePath(QStringLiteral("burnin.sqlite")));
        burnin()->setResumeFilePath(m_dir.filePath(QStringLiteral("burnin-running.json")));
        burnin()->setAgentPath(QStringLiteral(STRATA_BINARY_DIR "/burnin/strata-burn"));
        burnin()->setPollIntervalMs(500);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->adoptSession(std::make_unique<ClusterSession>(m_lab));
        QTRY_COMPARE_WITH_TIMEOUT(view()->nodeModel()->rowCount(), 4, 30000);
    }

    BurninWindow *onlyWindow() const
    {
        const QList<BurninWindow *> windows = burnin()->windows();
        return windows.size() == 1 ? windows.first() : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        QString error;
        m_lab = LabProfile::fromDirectory(LabProfile::directory(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_store = std::make_unique<ProfileStore>(m_dir.filePath(QStringLiteral("clusters.json")));
        openWindow();
    }

    void cleanupTestCase()
    {
        // Leave the shared lab as we found it even when a step failed halfway.
        if (m_window && m_window->session()) {
            for (const QString &job : std::as_const(m_jobs))
                m_window->session()->cancel(job);
            QTest::qWait(1000);
        }
        m_window.reset();
    }

    void selectionsStandForTheirNodes()
    {
        const SnapshotPtr s = view()->snapshot();
        QCOMPARE(BurninController::nodesFor(s, StackElement::partition(QStringLiteral("inference")), {}),
                 (QStringList{QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04")}));
        QCOMPARE(BurninController::nodesFor(s, StackElement::partition(QStringLiteral("train")), {}).size(), 4);
        QCOMPARE(BurninController::nodesFor(s, StackElement::gpuOf(QStringLiteral("gpu-node02"), 5), {}),
                 QStringList{QStringLiteral("gpu-node02")});
        const QStringList two{QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
        QCOMPARE(BurninController::nodesFor(s, StackElement::node(QStringLiteral("gpu-node02")), two), two);
        QCOMPARE(BurninController::nodesFor(s, StackElement::node(QStringLiteral("gpu-node03")), two),
                 QStringList{QStringLiteral("gpu-node03")});
        QCOMPARE(BurninController::nodesFor(s, StackElement::job(QStringLiteral("1")), {}), QStringList{});
    }

    void launchFromTheContextMenuAndSeeVerdicts()
    {
        const QStringList two{QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
        Q_EMIT view()->contextMenuRequested(StackElement::node(QStringLiteral("gpu-node01")), two, QPoint(200, 200));
        QMenu *menu = nullptr;
        QTRY_VERIFY((menu = m_window->findChild<QMenu *>(QStringLiteral("contextMenu"))) != nullptr);
        QAction *action = menu->findChild<QAction *>(QStringLiteral("contextBurnin"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Burn-in 2 nodes…"));
        QVERIFY(action->isEnabled());
        action->trigger();
        menu->close();

        BurninDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = m_window->findChild<BurninDialog *>()) != nullptr && dialog->isVisible());
        dialog->setTests({QStringLiteral("gemm"), QStringLiteral("hbm")});
        dialog->findChild<QSpinBox *>(QStringLiteral("duration"))->setValue(2);
        dialog->setBackend(QStringLiteral("cpu"));
        QCOMPARE(dialog->findChild<QCheckBox *>(QStringLiteral("drainOnFail"))->isChecked(), false);
        const BurninRequest request = dialog->request();
        QCOMPARE(request.nodes, two);
        QCOMPARE(request.gpusByNode.value(QStringLiteral("gpu-node02")), 8);
        QCOMPARE(request.backend, QStringLiteral("cpu"));
        QCOMPARE(request.durationSeconds, 2);
        QVERIFY2(dialog->summary().startsWith(QLatin1String("Runs gemm, hbm for 2 s each on every GPU of gpu-node[01-02] (16 GPUs) "
                                                            "through one exclusive Slurm job (one agent per node), with the CPU backend")),
                 qPrintable(dialog->summary()));
        QVERIFY(dialog->summary().contains(QLatin1String("Nothing is drained")));
        saveScreenshot(dialog, QStringLiteral("lab-burnin-dialog.png"));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("startBurnin")), Qt::LeftButton);

        BurninWindow *window = nullptr;
        QTRY_VERIFY((window = onlyWindow()) != nullptr);
        BurninLiveModel *live = window->liveModel();
        QCOMPARE(live->rowCount(), 16); // every expected GPU from the start, waiting
        QTRY_VERIFY2_WITH_TIMEOUT(!window->jobId().isEmpty(), qPrintable(window->stateText()), 60000);
        m_jobs << window->jobId();
        // Figures arrive while the run goes on, row by row.
        const auto running = [&] {
            for (const BurninLiveGpu &g : live->state().gpus())
                if (g.tflops && *g.tflops > 0 && g.verdict != BurninLiveGpu::Verdict::Waiting)
                    return true;
            return false;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(running() || window->isFinished(), qPrintable(window->stateText()), kRunTimeoutMs);
        if (!window->isFinished())
            saveScreenshot(window, QStringLiteral("lab-burnin-live.png"));
        QTRY_VERIFY2_WITH_TIMEOUT(window->isFinished(), qPrintable(window->stateText() + m_window->log()->text().right(800)), kRunTimeoutMs);

        // The verdicts: every simulated GPU passed, in the live view and the report.
        for (int row = 0; row < live->rowCount(); ++row) {
            const QModelIndex verdict = live->index(row, BurninLiveModel::VerdictColumn);
            QCOMPARE(verdict.data().toString(), QStringLiteral("pass"));
            QVERIFY(live->index(row, BurninLiveModel::TflopsColumn).data().toString() != QStringLiteral("–"));
            QCOMPARE(live->index(row, BurninLiveModel::TempColumn).data().toString(), QStringLiteral("–")); // no telemetry on cpu
        }
        const BurninReport &report = window->report();
        QVERIFY2(report.passed, qPrintable(report.problems.join(QLatin1Char('\n'))));
        QCOMPARE(report.gpus.size(), 16);
        QCOMPARE(report.jobId, window->jobId());
        for (const BurninReportGpu &g : report.gpus) {
            QCOMPARE(g.backend, QStringLiteral("cpu"));
            QCOMPARE(g.tests.size(), 2);
            for (const BurninReportTest &t : g.tests) {
                QVERIFY(t.figure && *t.figure > 0);
                QCOMPARE(t.peers, 16);
                QVERIFY2(*t.pctOfPeers > 50, qPrintable(QString::number(*t.pctOfPeers)));
            }
        }
        QCOMPARE(window->tabs()->currentIndex(), 1);
        QCOMPARE(window->reportTable()->rowCount(), 16);
        QCOMPARE(window->reportTable()->item(0, 3)->text(), QStringLiteral("pass"));
        QVERIFY(window->stateText().startsWith(QLatin1String("Passed")));
        saveScreenshot(window, QStringLiteral("lab-burnin-report.png"));

        const QString json = m_dir.filePath(QStringLiteral("report.json"));
        const QString html = m_dir.filePath(QStringLiteral("report.html"));
        QCOMPARE(window->exportJson(json), QString());
        QCOMPARE(window->exportHtml(html), QString());
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(jsonFile.readAll()).object();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.burnin-report/1"));
        QCOMPARE(o.value(QLatin1String("gpus")).toArray().size(), 16);
        QCOMPARE(o.value(QLatin1String("passed")).toBool(), true);
        QFile htmlFile(html);
        QVERIFY(htmlFile.open(QIODevice::ReadOnly));
        const QByteArray page = htmlFile.readAll();
        QVERIFY(page.contains("<td class=\"l\">gpu-node02</td><td>7</td>"));
        QVERIFY(!page.contains("http"));
        // Finished: nothing left to re-attach.
        QVector<BurninActiveRun> running_;
        QCOMPARE(BurninResumeFile(burnin()->resumeFilePath()).load(&running_), QString());
        QVERIFY(running_.isEmpty());
        window->close();
    }

    void historyInTheNodePane()
    {
        view()->select(StackElement::node(QStringLiteral("gpu-node01")));
        BurninHistoryPanel *panel = view()->nodeDetail()->burninHistory();
        QTRY_COMPARE_WITH_TIMEOUT(panel->trends().size(), 8, 10000);
        QCOMPARE(panel->runCount(), 1);
        QCOMPARE(panel->seriesCount(), 8);
        for (const BurninGpuTrend &t : panel->trends()) {
            QCOMPARE(t.node, QStringLiteral("gpu-node01"));
            QVERIFY(t.points.first().tflops && *t.points.first().tflops > 0);
            QVERIFY(t.points.first().bandwidthGBps && *t.points.first().bandwidthGBps > 0);
            QVERIFY(!t.tflopsChangePct); // one run: no trend yet
        }
        QVERIFY2(panel->summaryText().startsWith(QLatin1String("1 run of gpu-node01 stored")), qPrintable(panel->summaryText()));
    }

    void reattachAfterARestart()
    {
        BurninRequest request;
        request.nodes = {QStringLiteral("gpu-node01")};
        request.tests = {QStringLiteral("gemm"), QStringLiteral("hbm")};
        request.durationSeconds = 4;
        request.backend = QStringLiteral("cpu");
        request.gpusByNode = {{QStringLiteral("gpu-node01"), 8}};
        BurninWindow *first = burnin()->start(request);
        QVERIFY(first);
        QTRY_VERIFY2_WITH_TIMEOUT(!first->jobId().isEmpty(), qPrintable(first->stateText()), 60000);
        const QString job = first->jobId();
        m_jobs << job;
        QVector<BurninActiveRun> running;
        QCOMPARE(BurninResumeFile(burnin()->resumeFilePath()).load(&running), QString());
        QCOMPARE(running.size(), 1);
        QCOMPARE(running.first().jobId, job);
        QCOMPARE(running.first().profile, m_lab.name);

        // The window goes away while the job runs, and a new one connects to the same cluster.
        m_window.reset();
        openWindow();
        BurninWindow *again = nullptr;
        QTRY_VERIFY((again = onlyWindow()) != nullptr);
        QCOMPARE(again->jobId(), job);
        QVERIFY(m_window->log()->text().contains(QStringLiteral("Re-attaching to burn-in job %1 on gpu-node01").arg(job)));
        QTRY_VERIFY2_WITH_TIMEOUT(again->isFinished(), qPrintable(again->stateText() + m_window->log()->text().right(800)), kRunTimeoutMs);
        QVERIFY2(again->report().passed, qPrintable(again->report().problems.join(QLatin1Char('\n'))));
        // The CPU backend has no datasheet figure: the pass says what it was judged against (issue 33).
        QVERIFY2(again->stateText().startsWith(QLatin1String("Passed: every GPU consistent with its peers")),
                 qPrintable(again->stateText()));
        QCOMPARE(again->report().gpus.size(), 8);
        QCOMPARE(BurninResumeFile(burnin()->resumeFilePath()).load(&running), QString());
        QVERIFY(running.isEmpty());

        // Two runs of gpu-node01 now: a trend per GPU.
        view()->select(StackElement::node(QStringLiteral("gpu-node01")));
        BurninHistoryPanel *panel = view()->nodeDetail()->burninHistory();
        QTRY_COMPARE_WITH_TIMEOUT(panel->runCount(), 2, 10000);
        QCOMPARE(panel->trends().size(), 8);
        for (const BurninGpuTrend &t : panel->trends()) {
            QCOMPARE(t.points.size(), 2);
            QVERIFY(t.tflopsChangePct.has_value());
            QVERIFY(t.bandwidthChangePct.has_value());
            QCOMPARE(t.points.last().jobId, job);
        }
        QVERIFY2(panel->summaryText().startsWith(QLatin1String("2 runs of gpu-node01 stored")), qPrintable(panel->summaryText()));

        // The same history on its own, wider than the dock: memory bandwidth this time.
        BurninHistoryPanel wide;
        wide.resize(720, 380);
        wide.setFigure(BurninHistoryPanel::Figure::Bandwidth);
        wide.setHistoryPath(burnin()->historyPath());
        wide.showNode(QStringLiteral("gpu-node01"));
        wide.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wide));
        QTRY_COMPARE_WITH_TIMEOUT(wide.runCount(), 2, 10000);
        QCOMPARE(wide.seriesCount(), 8);
        saveScreenshot(&wide, QStringLiteral("lab-burnin-history.png"));
    }

    // Cancel asks first, Enter keeps the run, and a cancelled run says so instead of "FAILED ...
    // 0 of 0 GPUs" (issue 33).
    void cancelAsksAndSaysCancelled()
    {
        BurninRequest request;
        request.nodes = {QStringLiteral("gpu-node02")};
        request.tests = {QStringLiteral("gemm"), QStringLiteral("hbm")};
        request.durationSeconds = 60;
        request.backend = QStringLiteral("cpu");
        request.gpusByNode = {{QStringLiteral("gpu-node02"), 8}};
        BurninWindow *window = burnin()->start(request);
        QVERIFY(window);
        QTRY_VERIFY2_WITH_TIMEOUT(!window->jobId().isEmpty(), qPrintable(window->stateText()), 60000);
        m_jobs << window->jobId();
        auto *cancel = window->findChild<QPushButton *>(QStringLiteral("cancelBurnin"));
        QVERIFY(cancel);
        QTRY_VERIFY(cancel->isEnabled());
        const auto confirmBox = [window]() -> QMessageBox * {
            for (QMessageBox *b : window->findChildren<QMessageBox *>(QStringLiteral("confirmCancelBurnin")))
                if (b->isVisible())
                    return b;
            return nullptr;
        };
        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_VERIFY(confirmBox());
        QMessageBox *first = confirmBox();
        QCOMPARE(first->defaultButton()->objectName(), QStringLiteral("keep"));
        QTest::keyClick(first, Qt::Key_Return);
        QTRY_VERIFY(!confirmBox());
        QVERIFY(cancel->isEnabled());
        QVERIFY(!window->isFinished());

        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_VERIFY(confirmBox());
        QTest::mouseClick(confirmBox()->findChild<QPushButton *>(QStringLiteral("confirm")), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(window->stateText().startsWith(QLatin1String("Cancelled after ")), qPrintable(window->stateText()),
                                  kRunTimeoutMs);
        QVERIFY2(!window->stateText().contains(QLatin1String("FAILED")), qPrintable(window->stateText()));
    }
};

QTEST_MAIN(TestBurninWindowLab)
#include "tst_burnin_window_lab.moc"
