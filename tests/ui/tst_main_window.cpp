// The window against a synthetic cluster served through a real ClusterSession (with a
// SyntheticOrchestrator in place of Slurm over SSH): profiles, connect, selection and
// highlighting, every action through its dialog, the host-key prompt, layout memory.

#include "charts/gpu_time_series_chart.h"
#include "cpu_hog.h"
#include "cluster_view.h"
#include "dialogs/drain_dialog.h"
#include "dialogs/host_key_dialog.h"
#include "dialogs/profile_dialog.h"
#include "dialogs/submit_job_dialog.h"
#include "main_window.h"
#include "models/job_table_model.h"
#include "models/node_table_model.h"
#include "models/snapshot_filter_proxy_model.h"
#include "offline_remote_shell.h"
#include "synthetic_cluster.h"
#include "synthetic_orchestrator.h"
#include "views/connections_panel.h"
#include "views/fleet_map_panel.h"
#include "views/fleet_map_view.h"
#include "views/gpu_heatmap_view.h"
#include "views/heatmap_panel.h"
#include "views/layer_panel.h"
#include "views/job_detail_pane.h"
#include "views/log_panel.h"
#include "views/node_detail_pane.h"
#include "views/stack_overview_view.h"
#include "views/table_page.h"

#include "session/cluster_session.h"
#include "profile/profile_store.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTemporaryDir>
#include <QPointer>
#include <QTest>

using namespace strata;

namespace {

ClusterProfile syntheticProfile()
{
    ClusterProfile p;
    p.name = QStringLiteral("synthetic");
    p.sshHost = QStringLiteral("127.0.0.1");
    p.refreshIntervalSeconds = 3600; // tests refresh on demand
    return p;
}

ClusterSnapshot labLikeCluster()
{
    SyntheticClusterOptions o;
    o.nodes = 4;
    o.gpusPerNode = 8;
    o.jobs = 8;
    o.busyFraction = 0.5;
    o.seed = 5;
    o.missingMetricsFraction = 0;
    return SyntheticCluster::generate(o);
}

template <typename T>
T *waitForDialog(QWidget *parent)
{
    // The visible one: an earlier dialog of the same kind may still await its deleteLater.
    T *dialog = nullptr;
    const bool found = QTest::qWaitFor([&] {
        for (T *candidate : parent->findChildren<T *>())
            if (candidate->isVisible())
                dialog = candidate;
        return dialog != nullptr;
    }, 5000);
    return found ? dialog : nullptr;
}

QPushButton *buttonNamed(QWidget *dialog, const QString &objectName)
{
    return dialog->findChild<QPushButton *>(objectName);
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;
    SyntheticOrchestrator *m_orchestrator = nullptr;
    std::shared_ptr<OfflineRemoteShell> m_shell;

    void connectSynthetic(ClusterSnapshot state, const QString &unknownKey = {})
    {
        auto orchestrator = std::make_unique<SyntheticOrchestrator>(std::move(state));
        m_orchestrator = orchestrator.get();
        m_orchestrator->setUnknownHostKey(unknownKey);
        m_shell = std::make_shared<OfflineRemoteShell>();
        m_window->adoptSession(std::make_unique<ClusterSession>(syntheticProfile(), m_shell, std::move(orchestrator)));
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

    void cleanup()
    {
        m_window.reset();
        QFile::remove(m_dir.filePath(QStringLiteral("clusters.json")));
    }

    void addProfileThroughTheDialog()
    {
        m_window->action(QStringLiteral("actionAddProfile"))->trigger();
        auto *dialog = waitForDialog<ProfileDialog>(m_window.get());
        QVERIFY(dialog);
        QPushButton *save = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Save);
        QVERIFY(!save->isEnabled()); // no name, no host yet
        QTest::keyClicks(dialog->field(QStringLiteral("name")), QStringLiteral("lab"));
        QTest::keyClicks(dialog->field(QStringLiteral("sshHost")), QStringLiteral("127.0.0.1"));
        QTest::keyClicks(dialog->field(QStringLiteral("prometheusUrl")), QStringLiteral("http://127.0.0.1:19090"));
        QTest::keyClicks(dialog->field(QStringLiteral("prometheusToken")), QStringLiteral("s3cret-token"));
        QVERIFY(save->isEnabled());
        QTest::mouseClick(save, Qt::LeftButton);
        QTRY_COMPARE(m_window->profiles().size(), 1);
        QCOMPARE(m_window->profiles().first().name, QStringLiteral("lab"));
        QCOMPARE(m_window->connections()->profileList()->count(), 1);

        QString error;
        const QVector<ClusterProfile> stored = m_store->load(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(stored.size(), 1);
        QCOMPARE(stored.first().prometheusUrl, QStringLiteral("http://127.0.0.1:19090"));
        QFile file(m_store->path());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(!file.readAll().contains("s3cret-token"), "the token must never reach the profile file");
    }

    // Laptops and the smaller desktop screens are 1280x800: the window, with a cluster in it,
    // must fit one (its layouts once demanded 1031 px of height and ran off the screen).
    void fitsA1280x800Screen()
    {
        connectSynthetic(labLikeCluster());
        QTRY_COMPARE(m_window->clusterView()->nodeModel()->rowCount(), 4);
        QCoreApplication::processEvents();
        const QSize needed = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
        QString culprits;
        if (needed.height() > 800 || needed.width() > 1280) {
            const QList<QWidget *> widgets = m_window->findChildren<QWidget *>();
            for (QWidget *w : widgets) {
                if (w->isVisible() && w->minimumSizeHint().height() > 250)
                    culprits += QStringLiteral("\n  %1 %2: %3 px").arg(QString::fromLatin1(w->metaObject()->className()),
                                                                     w->objectName()).arg(w->minimumSizeHint().height());
            }
        }
        QVERIFY2(needed.height() <= 800 && needed.width() <= 1280,
                 qPrintable(QStringLiteral("needs %1x%2%3").arg(needed.width()).arg(needed.height()).arg(culprits)));
        QVERIFY(m_window->height() <= 800);
    }

    void connectShowsNodesAndGpus()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        QCOMPARE(view->jobModel()->rowCount(), 8);
        int gpus = 0;
        for (int row = 0; row < view->nodeModel()->rowCount(); ++row)
            gpus += int(view->nodeModel()->node(row).gpus.size());
        QCOMPARE(gpus, 32);
        QVERIFY(view->overview()->totalsText().contains(QStringLiteral("<b>32</b> GPUs")));
        QTRY_COMPARE(view->nodesPage()->countText(), QStringLiteral("4 nodes"));
        QTRY_VERIFY(m_window->connections()->sourceTree()->topLevelItemCount() >= 2);
        QCOMPARE(m_window->connections()->sourceTree()->topLevelItem(0)->text(1), QStringLiteral("ok"));
        // How the orchestrator was reached (OrchestratorPart::via) is the tooltip of its row.
        QStringList tips;
        for (int row = 0; row < m_window->connections()->sourceTree()->topLevelItemCount(); ++row)
            tips << m_window->connections()->sourceTree()->topLevelItem(row)->toolTip(1);
        QVERIFY2(tips.contains(QStringLiteral("Read from the synthetic cluster (a test stand-in)")), qPrintable(tips.join(u'|')));
    }

    void connectingSaysSoUntilTheFirstAnswer()
    {
        // Issue 33: the views said "Not connected." while the session was connecting.
        auto orchestrator = std::make_unique<SyntheticOrchestrator>(labLikeCluster());
        m_orchestrator = orchestrator.get();
        m_orchestrator->hold();
        m_shell = std::make_shared<OfflineRemoteShell>();
        m_window->adoptSession(std::make_unique<ClusterSession>(syntheticProfile(), m_shell, std::move(orchestrator)));
        ClusterView *view = m_window->clusterView();
        const QString connecting = QStringLiteral("Connecting to 127.0.0.1\u2026");
        const auto placeholders = [view] {
            return QStringList{view->heatmap()->view()->placeholder(), view->fleet()->view()->placeholder(),
                               view->overview()->gpuView()->placeholder()};
        };
        QCOMPARE(view->reach(), ClusterView::Reach::Connecting);
        QTRY_COMPARE(placeholders(), QStringList({connecting, connecting, connecting}));
        auto *status = m_window->findChild<QLabel *>(QStringLiteral("statusCluster"));
        QTRY_COMPARE(status->text(), QStringLiteral("synthetic \u00b7 connecting to 127.0.0.1\u2026"));
        QTest::qWait(300); // the views' clearing of the previous cluster lands meanwhile: still connecting
        QCOMPARE(placeholders(), QStringList({connecting, connecting, connecting}));
        QVERIFY(m_orchestrator->refreshCount() >= 1);

        // An error is an answer: the views no longer say "connecting", nor "no nodes".
        m_orchestrator->setTransportFailure(ErrorKind::ConnectFailed, QStringLiteral("connection refused"));
        m_orchestrator->release();
        const QString noAnswer = QStringLiteral("No answer from 127.0.0.1 yet: the bar above says why.");
        QTRY_COMPARE(placeholders(), QStringList({noAnswer, noAnswer, noAnswer}));
        QCOMPARE(view->reach(), ClusterView::Reach::Connected);

        m_orchestrator->setTransportFailure(ErrorKind::None, {});
        m_window->refresh();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        QCOMPARE(view->placeholderText(), QStringLiteral("The cluster reports no nodes.")); // not drawn: it has nodes

        m_window->closeSession();
        QCOMPARE(view->reach(), ClusterView::Reach::NotConnected);
        QTRY_COMPARE(placeholders(), QStringList({QStringLiteral("Not connected."), QStringLiteral("Not connected."),
                                                  QStringLiteral("Not connected.")}));
    }

    void selectingAJobHighlightsItsGpus()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->jobModel()->rowCount(), 8);
        const SnapshotPtr s = view->snapshot();
        const Job *running = nullptr;
        for (const Job &j : s->jobs)
            if (j.isRunning() && !j.gpus.isEmpty())
                running = &j;
        QVERIFY(running);
        view->tabs()->setCurrentWidget(view->jobsPage());
        QVERIFY(view->jobsPage()->selectKey(running->id));
        QCOMPARE(view->selection(), StackElement::job(running->id));

        GpuHeatmapView *heatmap = view->heatmap()->view();
        int highlighted = 0;
        for (auto it = running->gpus.cbegin(); it != running->gpus.cend(); ++it)
            for (int g : it.value()) {
                QVERIFY(heatmap->relations().hasGpu(it.key(), g));
                ++highlighted;
            }
        QCOMPARE(heatmap->relations().gpuCount(), highlighted);
        QCOMPARE(view->jobDetail()->jobId(), running->id);
        QVERIFY(view->jobDetail()->placementText().contains(running->nodes.first()));

        // On screen: the job's GPUs are outlined in the highlight colour, the others veiled.
        view->tabs()->setCurrentWidget(view->heatmap());
        QTest::qWait(50);
        const QImage image = heatmap->viewport()->grab().toImage();
        const QString node = running->gpus.firstKey();
        const int gpu = running->gpus.first().first();
        const QRect cell = heatmap->cellRect(node, gpu);
        const QColor highlight = heatmap->palette().color(QPalette::Highlight);
        QVERIFY(QColor(image.pixel(cell.left(), cell.center().y())) == highlight
                || QColor(image.pixel(cell.left() + 1, cell.center().y())) == highlight);
        int freeGpu = -1;
        const Node *n = s->node(node);
        for (const Gpu &g : n->gpus)
            if (!heatmap->relations().hasGpu(node, g.index))
                freeGpu = g.index;
        if (freeGpu >= 0) {
            const QRect other = heatmap->cellRect(node, freeGpu);
            QVERIFY(QColor(image.pixel(other.left() + 2, other.top() + 2)) != heatmap->palette().color(QPalette::Highlight));
        }
        // The overview's layers light up the job's nodes too.
        QCOMPARE(view->overview()->gpuView()->relations().nodes, QSet<QString>(running->nodes.cbegin(), running->nodes.cend()));
    }

    void pickingInTheOverviewRelatesTheOtherLayers()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        view->tabs()->setCurrentWidget(view->overview());
        QTableView *nodes = view->overview()->panel(StackElement::Layer::Node)->view();
        const QModelIndex first = nodes->model()->index(0, 0);
        QTest::mouseClick(nodes->viewport(), Qt::LeftButton, {}, nodes->visualRect(first).center());
        const QString name = first.data(SnapshotRowModel::KeyRole).toString();
        QCOMPARE(view->selection(), StackElement::node(name));
        QSet<QString> jobs;
        for (const Job &j : view->snapshot()->jobs)
            if (j.nodes.contains(name))
                jobs.insert(j.id);
        QCOMPARE(view->relations().jobs, jobs);
        QCOMPARE(view->overview()->gpuView()->relations().gpuCount(), 8);
        QVERIFY(view->overview()->relationText().contains(name));
        QCOMPARE(view->nodeDetail()->nodeName(), name);
    }

    void submitFromTheDialogAndSeeTheJob()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->jobModel()->rowCount(), 8);
        view->tabs()->setCurrentWidget(view->nodesPage());
        QVERIFY(view->nodesPage()->selectKey(QStringLiteral("gpu-node02")));
        QTRY_VERIFY(m_window->action(QStringLiteral("actionSubmit"))->isEnabled());
        m_window->action(QStringLiteral("actionSubmit"))->trigger();
        auto *dialog = waitForDialog<SubmitJobDialog>(m_window.get());
        QVERIFY(dialog);
        QVERIFY(dialog->templateNames().contains(QStringLiteral("sleep")));
        dialog->useTemplate(QStringLiteral("sleep"));
        QVERIFY(dialog->scriptEditor()->toPlainText().startsWith(QStringLiteral("#!")));
        QCOMPARE(dialog->submission().nodeList, QStringList{QStringLiteral("gpu-node02")});
        QTest::keyClicks(dialog->findChild<QLineEdit *>(QStringLiteral("jobName")), QStringLiteral("from-the-window"));
        QTest::mouseClick(buttonNamed(dialog, QStringLiteral("submit")), Qt::LeftButton);
        // The session refreshes after an action: the job appears without a manual refresh.
        QTRY_VERIFY_WITH_TIMEOUT(m_window->log()->text().contains(QStringLiteral("Submitted batch job")), 5000);
        QTRY_COMPARE(view->jobModel()->rowCount(), 9);
        bool found = false;
        for (int row = 0; row < view->jobModel()->rowCount(); ++row)
            found |= view->jobModel()->job(row).name == QStringLiteral("from-the-window");
        QVERIFY(found);
    }

    void drainAndResumeANode()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        view->tabs()->setCurrentWidget(view->nodesPage());
        QVERIFY(view->nodesPage()->selectKey(QStringLiteral("gpu-node03")));
        QTRY_VERIFY(m_window->action(QStringLiteral("actionDrain"))->isEnabled());
        m_window->action(QStringLiteral("actionDrain"))->trigger();
        auto *drain = waitForDialog<DrainDialog>(m_window.get());
        QVERIFY(drain);
        QPushButton *confirm = buttonNamed(drain, QStringLiteral("drain"));
        QVERIFY(!confirm->isEnabled()); // a reason is required
        drain->setReason(QStringLiteral("ui test"));
        QVERIFY(confirm->isEnabled());
        QTest::mouseClick(confirm, Qt::LeftButton);
        const auto node3 = [view] {
            const int row = view->nodeModel()->rowForKey(QStringLiteral("gpu-node03"));
            return row < 0 ? Node{} : view->nodeModel()->node(row);
        };
        QTRY_VERIFY_WITH_TIMEOUT(node3().isDrained(), 5000);
        QCOMPARE(node3().reason, QStringLiteral("ui test"));
        QTRY_VERIFY(m_window->log()->text().contains(QStringLiteral("drained: ui test")));
        // Still selected after the refresh, so Resume acts on it.
        QCOMPARE(view->nodesPage()->selectedKeys(), QStringList{QStringLiteral("gpu-node03")});

        m_window->action(QStringLiteral("actionResume"))->trigger();
        auto *box = waitForDialog<QMessageBox>(m_window.get());
        QVERIFY(box);
        QTest::mouseClick(buttonNamed(box, QStringLiteral("confirm")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!node3().isDrained(), 5000);
    }

    void cancelAJob()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->jobModel()->rowCount(), 8);
        const QString id = view->jobModel()->key(0);
        view->tabs()->setCurrentWidget(view->jobsPage());
        QVERIFY(view->jobsPage()->selectKey(id));
        m_window->action(QStringLiteral("actionCancel"))->trigger();
        QPointer<QMessageBox> first = waitForDialog<QMessageBox>(m_window.get());
        QVERIFY(first);
        // Enter picks the harmless button (issue 33): the job stays.
        QCOMPARE(first->defaultButton(), buttonNamed(first, QStringLiteral("keep")));
        QTest::keyClick(first, Qt::Key_Return);
        QTRY_VERIFY(!first || !first->isVisible());
        QTest::qWait(300);
        QCOMPARE(view->jobModel()->rowCount(), 8);
        QVERIFY(view->jobModel()->rowForKey(id) >= 0);

        m_window->action(QStringLiteral("actionCancel"))->trigger();
        auto *box = waitForDialog<QMessageBox>(m_window.get());
        QVERIFY(box);
        QVERIFY(box->text().contains(id));
        QTest::mouseClick(buttonNamed(box, QStringLiteral("confirm")), Qt::LeftButton);
        QTRY_COMPARE(view->jobModel()->rowCount(), 7);
        QCOMPARE(view->jobModel()->rowForKey(id), -1);
    }

    void unknownHostKeyAsksFirst()
    {
        const QString fingerprint = QStringLiteral("SHA256:Gx0WwnbuKSWAd3gtlzfOn8OqS1UQXr2YkYC71CtUG5E");
        connectSynthetic(labLikeCluster(), fingerprint);
        auto *dialog = waitForDialog<HostKeyDialog>(m_window.get());
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QLabel *>(QStringLiteral("fingerprint"))->text(), fingerprint);
        QCOMPARE(m_window->clusterView()->nodeModel()->rowCount(), 0); // nothing shown before trust
        const int before = m_orchestrator->refreshCount();
        m_orchestrator->setUnknownHostKey({}); // what trusting the key achieves on a real host
        QTest::mouseClick(buttonNamed(dialog, QStringLiteral("trust")), Qt::LeftButton);
        QCOMPARE(m_shell->trustedFingerprint(), fingerprint); // through RemoteShell, no cast
        QTRY_VERIFY(m_orchestrator->refreshCount() > before);
        QTRY_COMPARE(m_window->clusterView()->nodeModel()->rowCount(), 4);
    }

    void refusingTheHostKeyDisconnects()
    {
        connectSynthetic(labLikeCluster(), QStringLiteral("SHA256:refuse-me"));
        auto *dialog = waitForDialog<HostKeyDialog>(m_window.get());
        QVERIFY(dialog);
        QTest::mouseClick(buttonNamed(dialog, QStringLiteral("refuse")), Qt::LeftButton);
        QTRY_VERIFY(!m_window->session());
        QVERIFY(m_window->connections()->message().contains(QStringLiteral("Refused")));
    }

    void changedHostKeyIsRefusedAndExplained()
    {
        connectSynthetic(labLikeCluster());
        QTRY_COMPARE(m_window->clusterView()->nodeModel()->rowCount(), 4);
        // SshSession's own words, which name ssh-keygen: the explanation used to be looked for
        // in them and so never shown.
        m_orchestrator->setTransportFailure(ErrorKind::HostKeyChanged, QStringLiteral(
            "REFUSED: the host key of root@127.0.0.1:22022 has CHANGED (it now offers SHA256:new, which does "
            "not match /tmp/known_hosts). This can mean someone is intercepting the connection. If the host "
            "was really re-keyed, remove its old entry from /tmp/known_hosts (ssh-keygen -R) and connect again."));
        m_window->refresh();
        QTRY_VERIFY(m_window->connections()->problemsText().contains(QStringLiteral("has CHANGED")));
        QVERIFY(m_window->connections()->message().contains(QStringLiteral("ssh-keygen -R")));
        QVERIFY(m_window->connections()->message().contains(QStringLiteral("Strata refuses to connect")));
        QVERIFY(m_window->log()->text().contains(QStringLiteral("REFUSED")));
        QVERIFY(m_window->log()->text().contains(QStringLiteral("this may be an attack")));
        QVERIFY(!m_window->findChild<HostKeyDialog *>()); // a changed key is never offered for trust
        QCOMPARE(m_window->session()->latest()->source(SourceKind::Ssh)->errorKind, ErrorKind::HostKeyChanged);
        // The last good data stays on screen, marked stale.
        QCOMPARE(m_window->clusterView()->nodeModel()->rowCount(), 4);
        QTRY_VERIFY(m_window->connections()->sourceTree()->topLevelItem(0)->text(1).contains(QStringLiteral("stale")));
    }

    void encryptedKeyAsksForThePassphrase()
    {
        connectSynthetic(labLikeCluster());
        m_orchestrator->setTransportFailure(ErrorKind::PassphraseNeeded,
                                            QStringLiteral("identity /root/.ssh/id_ed25519 is protected by a passphrase"));
        m_window->refresh();
        auto *dialog = waitForDialog<QInputDialog>(m_window.get());
        QVERIFY(dialog);
        QCOMPARE(dialog->objectName(), QStringLiteral("passphraseDialog"));
        QCOMPARE(dialog->textEchoMode(), QLineEdit::Password);
        QCOMPARE(m_window->session()->latest()->source(SourceKind::Ssh)->errorKind, ErrorKind::PassphraseNeeded);
        // The answer goes to the session's shell, and the session tries again with it.
        m_orchestrator->setTransportFailure(ErrorKind::None, {});
        const int before = m_orchestrator->refreshCount();
        dialog->setTextValue(QStringLiteral("correct horse"));
        dialog->accept();
        QCOMPARE(m_shell->passphrase(), QStringLiteral("correct horse"));
        QTRY_VERIFY(m_orchestrator->refreshCount() > before);
        QTRY_COMPARE(m_window->clusterView()->nodeModel()->rowCount(), 4);
    }

    void theKindDecidesNeverTheWords()
    {
        // A failure whose text holds every word the window once looked for, but of another
        // kind: no passphrase prompt, no changed-key explanation, no host-key dialog.
        connectSynthetic(labLikeCluster());
        QTRY_COMPARE(m_window->clusterView()->nodeModel()->rowCount(), 4);
        m_orchestrator->setTransportFailure(ErrorKind::AuthenticationFailed, QStringLiteral(
            "the server refused the key: passphrase? the host key changed? ssh-keygen -R?"));
        m_window->refresh();
        QTRY_VERIFY(m_window->connections()->problemsText().contains(QStringLiteral("server refused the key")));
        QTest::qWait(100);
        QVERIFY(!m_window->findChild<QInputDialog *>(QStringLiteral("passphraseDialog")));
        QVERIFY(!m_window->findChild<HostKeyDialog *>());
        QVERIFY(!m_window->log()->text().contains(QStringLiteral("Strata refuses to connect")));
        QCOMPARE(m_window->session()->latest()->source(SourceKind::Ssh)->errorKind, ErrorKind::AuthenticationFailed);
    }

    void closingAsTheFailedSnapshotIsPreparedNeverCrashes()
    {
        // Issue 10: under parallel ctest this scenario died with SIGSEGV in sendPostedEvents.
        // The window (its view, its session) went while the pool still prepared the snapshot of
        // the failed refresh, and QFuture::then(context) posted the result to the freed view.
        // Repeated with every core busy, closing at the moment the dialog shows.
        const CpuHog hog;
        for (int round = 0; round < 30; ++round) {
            connectSynthetic(labLikeCluster());
            m_orchestrator->setTransportFailure(ErrorKind::PassphraseNeeded,
                                                QStringLiteral("identity /root/.ssh/id_ed25519 is protected by a passphrase"));
            m_window->refresh();
            QVERIFY(waitForDialog<QInputDialog>(m_window.get()));
            m_window.reset();
            QCoreApplication::processEvents();
            init();
        }
        QTest::qWait(50); // what the pool still finishes lands here, on live objects only
    }

    void keyboardReachesFilterAndRefresh()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTest::keyClick(m_window.get(), Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(view->jobsPage()->filterEdit()->hasFocus());
        QSignalSpy started(m_window->session(), &ClusterSession::refreshStarted);
        QTest::keyClick(m_window.get(), Qt::Key_F5);
        QTRY_VERIFY(started.count() >= 1);
        QTest::keyClick(m_window.get(), Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(view->tabs()->currentWidget(), view->nodesPage());
        // Every action has a shortcut and a menu entry.
        for (const char *name : {"actionSubmit", "actionCancel", "actionDrain", "actionResume",
                                 "actionRefresh", "actionFilter", "actionAddProfile", "actionConnect"}) {
            QAction *a = m_window->action(QString::fromLatin1(name));
            QVERIFY2(a && !a->shortcut().isEmpty(), name);
            QVERIFY2(!a->associatedObjects().isEmpty(), name);
        }
    }

    void switchingTabsKeepsTheSelection()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        // A click below the rows: the Nodes table has focus and no current row.
        QTest::keyClick(m_window.get(), Qt::Key_3, Qt::ControlModifier);
        QTableView *nodes = view->nodesPage()->view();
        QTest::mouseClick(nodes->viewport(), Qt::LeftButton, {}, QPoint(10, nodes->viewport()->height() - 5));
        QTRY_VERIFY(nodes->hasFocus());
        QVERIFY(!view->selection().isValid());

        QTest::keyClick(m_window.get(), Qt::Key_2, Qt::ControlModifier);
        GpuHeatmapView *heatmap = view->heatmap()->view();
        QTest::mouseClick(heatmap->viewport(), Qt::LeftButton, {}, heatmap->cellRect(QStringLiteral("gpu-node03"), 2).center());
        const StackElement picked = StackElement::gpuOf(QStringLiteral("gpu-node03"), 2);
        QCOMPARE(view->selection(), picked);
        QCOMPARE(view->nodeDetail()->nodeName(), QStringLiteral("gpu-node03"));

        // Every tab, twice, by its shortcut: focus lands in tables and filters, nothing is picked.
        for (int round = 0; round < 2; ++round)
            for (Qt::Key key : {Qt::Key_3, Qt::Key_4, Qt::Key_1, Qt::Key_5, Qt::Key_2, Qt::Key_3}) {
                QTest::keyClick(m_window.get(), key, Qt::ControlModifier);
                QCOMPARE(view->selection(), picked);
                QCOMPARE(view->nodeDetail()->nodeName(), QStringLiteral("gpu-node03"));
            }
        QCOMPARE(view->tabs()->currentWidget(), view->nodesPage());
        QVERIFY(nodes->hasFocus());
        // Tabbing through the Jobs page's filters into its table picks nothing either.
        QTest::keyClick(m_window.get(), Qt::Key_4, Qt::ControlModifier);
        QTableView *jobs = view->jobsPage()->view();
        for (int i = 0; i < 8 && !jobs->hasFocus(); ++i)
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QVERIFY(jobs->hasFocus());
        QCOMPARE(view->selection(), picked);

        // Choosing a row is picking: the arrow keys move and select it.
        QTest::keyClick(m_window.get(), Qt::Key_3, Qt::ControlModifier);
        QTest::keyClick(nodes, Qt::Key_Down);
        const QString chosen = nodes->currentIndex().data(SnapshotRowModel::KeyRole).toString();
        QVERIFY(!chosen.isEmpty());
        QCOMPARE(view->selection(), StackElement::node(chosen));
        QCOMPARE(view->nodeDetail()->nodeName(), chosen);
    }

    void unitsFollowThePreferences()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        NodeTableModel *nodes = view->nodeModel();
        QVERIFY(nodes->data(nodes->index(0, NodeTableModel::Temp)).toString().endsWith(QStringLiteral("°C")));
        DisplayPreferences p = m_window->preferences();
        p.temperatureUnit = DisplayPreferences::TemperatureUnit::Fahrenheit;
        m_window->setPreferences(p);
        QVERIFY(nodes->data(nodes->index(0, NodeTableModel::Temp)).toString().endsWith(QStringLiteral("°F")));
        QCOMPARE(DisplayPreferences::load(QSettings()).temperatureUnit, DisplayPreferences::TemperatureUnit::Fahrenheit);
        p.temperatureUnit = DisplayPreferences::TemperatureUnit::Celsius;
        m_window->setPreferences(p);
    }

    void layoutIsRemembered()
    {
        QTableView *jobs = m_window->clusterView()->jobsPage()->view();
        jobs->horizontalHeader()->resizeSection(JobTableModel::Name, 333);
        m_window->clusterView()->tabs()->setCurrentIndex(2);
        m_window->close();
        m_window = std::make_unique<MainWindow>(m_store.get());
        QCOMPARE(m_window->clusterView()->jobsPage()->view()->horizontalHeader()->sectionSize(JobTableModel::Name), 333);
        QCOMPARE(m_window->clusterView()->tabs()->currentIndex(), 2);
    }

    void metricsUnavailableWithoutPrometheus()
    {
        connectSynthetic(labLikeCluster());
        ClusterView *view = m_window->clusterView();
        QTRY_COMPARE(view->nodeModel()->rowCount(), 4);
        view->select(StackElement::node(QStringLiteral("gpu-node01")));
        QVERIFY(view->nodeDetail()->chart()->message().contains(QStringLiteral("Metrics unavailable")));
        QCOMPARE(view->nodeDetail()->gpuTable()->rowCount(), 8);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
