// The burn-in dialog as an operator meets it (issue 33): the nodes the scheduler would not start
// a job on are left out and named with why, and the tests, duration and backend picked for a
// cluster come back the next time. Against a synthetic cluster served by a real ClusterSession.

#include "burnin_controller.h"
#include "cluster_view.h"
#include "dialogs/burnin_dialog.h"
#include "main_window.h"
#include "models/node_table_model.h"
#include "offline_remote_shell.h"
#include "synthetic_cluster.h"
#include "synthetic_orchestrator.h"

#include "profile/profile_store.h"
#include "session/cluster_session.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

ClusterProfile syntheticProfile(const QString &name)
{
    ClusterProfile p;
    p.name = name;
    p.sshHost = QStringLiteral("127.0.0.1");
    p.refreshIntervalSeconds = 3600;
    return p;
}

// Four nodes of 8 GPUs, idle; gpu-node02 drained, gpu-node03 down, gpu-node04 not launched.
ClusterSnapshot fleet()
{
    SyntheticClusterOptions o;
    o.nodes = 4;
    o.gpusPerNode = 8;
    o.jobs = 0;
    o.busyFraction = 0;
    o.seed = 7;
    o.missingMetricsFraction = 0;
    ClusterSnapshot s = SyntheticCluster::generate(o);
    for (Node &n : s.nodes) {
        n.stateFlags.clear();
        n.reason.clear();
        n.power = PowerState::Launched;
        n.state = QStringLiteral("idle");
        n.gpusAllocated = 0;
        n.cpusAllocated = 0;
        for (Gpu &g : n.gpus)
            g.jobId.clear();
    }
    s.nodes[1].state = QStringLiteral("drained");
    s.nodes[1].stateFlags = QStringList{QStringLiteral("DRAIN")};
    s.nodes[1].reason = QStringLiteral("bad fan");
    s.nodes[2].state = QStringLiteral("down");
    s.nodes[2].reason = QStringLiteral("Not responding");
    s.nodes[3].state = QStringLiteral("idle~");
    s.nodes[3].power = PowerState::PoweredDown;
    s.finalize();
    return s;
}

} // namespace

class TestBurninDialog : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileStore> m_store;
    std::unique_ptr<MainWindow> m_window;

    void connectAs(const QString &profileName)
    {
        auto orchestrator = std::make_unique<SyntheticOrchestrator>(fleet());
        m_window->adoptSession(std::make_unique<ClusterSession>(syntheticProfile(profileName),
                                                                std::make_shared<OfflineRemoteShell>(), std::move(orchestrator)));
        QTRY_COMPARE(m_window->clusterView()->nodeModel()->rowCount(), 4);
    }

    BurninDialog *openDialog(const QStringList &nodes)
    {
        QWidget *w = m_window->burnin()->launch(StackElement::node(nodes.first()), nodes);
        return qobject_cast<BurninDialog *>(w);
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
        // Nothing of a run survives the test: its files live in the temporary folder, and a
        // started burn-in fails at once (no agent file, and the shell reaches nothing).
        m_window->burnin()->setHistoryPath(m_dir.filePath(QStringLiteral("history.sqlite")));
        m_window->burnin()->setResumeFilePath(m_dir.filePath(QStringLiteral("running.json")));
        m_window->burnin()->setAgentPath(m_dir.filePath(QStringLiteral("no-such-strata-burn")));
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        m_window.reset();
    }

    void unavailableNodesAreLeftOutWithTheirReason()
    {
        connectAs(QStringLiteral("lab"));
        const QStringList all{QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"), QStringLiteral("gpu-node03"),
                              QStringLiteral("gpu-node04")};
        BurninDialog *dialog = openDialog(all);
        QVERIFY(dialog);
        // The drained and the down node are not asked for: the job would pend on them forever.
        const BurninRequest request = dialog->request();
        QCOMPARE(request.nodes, QStringList({QStringLiteral("gpu-node01"), QStringLiteral("gpu-node04")}));
        QCOMPARE(request.gpusByNode.value(QStringLiteral("gpu-node01")), 8);
        QVERIFY(!request.gpusByNode.contains(QStringLiteral("gpu-node02")));
        QCOMPARE(dialog->leftOut().keys(), QStringList({QStringLiteral("gpu-node02"), QStringLiteral("gpu-node03")}));
        QCOMPARE(dialog->leftOut().value(QStringLiteral("gpu-node02")), QStringLiteral("drained (reason: bad fan)"));
        QCOMPARE(dialog->leftOut().value(QStringLiteral("gpu-node03")), QStringLiteral("down (reason: Not responding)"));
        const QString warning = dialog->findChild<QLabel *>(QStringLiteral("burninWarning"))->text();
        QVERIFY2(warning.contains(QStringLiteral("gpu-node02 is left out: drained (reason: bad fan).")), qPrintable(warning));
        QVERIFY2(warning.contains(QStringLiteral("gpu-node03 is left out: down (reason: Not responding).")), qPrintable(warning));
        // Not launched is not refused: the scheduler launches it, and the dialog says it takes time.
        QVERIFY2(warning.contains(QStringLiteral("gpu-node04 is not launched yet")), qPrintable(warning));
        const QString target = dialog->findChild<QLabel *>(QStringLiteral("burninNodes"))->text();
        QVERIFY2(target.contains(QStringLiteral("left out: gpu-node[02-03]")), qPrintable(target));
        QVERIFY2(dialog->summary().contains(QStringLiteral("gpu-node[01,04] (16 GPUs)")), qPrintable(dialog->summary()));
        QVERIFY(dialog->findChild<QPushButton *>(QStringLiteral("startBurnin"))->isEnabled());
        dialog->reject();
    }

    void onlyUnavailableNodesCannotStart()
    {
        connectAs(QStringLiteral("lab"));
        BurninDialog *dialog = openDialog({QStringLiteral("gpu-node02")});
        QVERIFY(dialog);
        QVERIFY(dialog->request().nodes.isEmpty());
        QVERIFY(!dialog->findChild<QPushButton *>(QStringLiteral("startBurnin"))->isEnabled());
        dialog->reject();
    }

    void choicesComeBackPerCluster()
    {
        connectAs(QStringLiteral("lab/a"));
        BurninDialog *first = openDialog({QStringLiteral("gpu-node01")});
        QVERIFY(first);
        // The defaults before anything was picked.
        QCOMPARE(first->request().durationSeconds, 60);
        QCOMPARE(first->request().backend, QStringLiteral("cuda"));
        first->setTests({QStringLiteral("hbm"), QStringLiteral("p2p")});
        first->setDurationSeconds(300);
        first->setBackend(QStringLiteral("cpu"));
        first->setDrainOnFail(true);
        first->accept();
        QTRY_VERIFY(m_window->findChildren<BurninDialog *>().isEmpty()); // deleted on close

        BurninDialog *second = openDialog({QStringLiteral("gpu-node01")});
        QVERIFY(second);
        QCOMPARE(second->request().durationSeconds, 300);
        QCOMPARE(second->request().backend, QStringLiteral("cpu"));
        QCOMPARE(second->request().tests, QStringList({QStringLiteral("hbm"), QStringLiteral("p2p")}));
        QCOMPARE(second->findChild<QSpinBox *>(QStringLiteral("duration"))->value(), 300);
        QCOMPARE(second->findChild<QComboBox *>(QStringLiteral("backend"))->currentData().toString(), QStringLiteral("cpu"));
        // Draining is asked afresh every time: never a remembered default.
        QVERIFY(!second->request().drainOnFail);
        second->reject();

        // Another cluster keeps its own (here: none yet).
        m_window->closeSession();
        connectAs(QStringLiteral("other"));
        BurninDialog *third = openDialog({QStringLiteral("gpu-node01")});
        QVERIFY(third);
        QCOMPARE(third->request().durationSeconds, 60);
        QCOMPARE(third->request().backend, QStringLiteral("cuda"));
        third->reject();
        QCOMPARE(QSettings().value(BurninController::settingsGroup(QStringLiteral("lab/a")) + QStringLiteral("/durationSeconds")).toInt(), 300);
    }
};

QTEST_MAIN(TestBurninDialog)
#include "tst_burnin_dialog.moc"
