// FabricTestWindow on a login node whose Slurm refuses the reservation (this machine as the
// "login node": LocalRemoteShell, with an scontrol first in PATH that answers as Slurm does for
// busy nodes; the real refusal is in lab_fabric_isolation's lab): Start runs the runner with
// the window's choices, the failure is said in the window, the fields come back for a retry,
// nothing is left running.
#include "executable_file.h"
#include "burnin/burnin_history.h"
#include "fabric/fabric_test_runner.h"
#include "local_remote_shell.h"
#include "views/fabric_test_window.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

class TestFabricTestWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("HOME", m_home.path().toUtf8());
        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral("bin"))));
        QVERIFY(writeExecutable(m_home.filePath(QStringLiteral("bin/scontrol")),
                                "#!/bin/sh\necho 'Error creating the reservation: Requested nodes are busy' >&2\nexit 1\n"));
        qputenv("PATH", m_home.filePath(QStringLiteral("bin")).toUtf8() + ':' + qgetenv("PATH"));
    }

    void aReservationThatCannotBeMadeIsSaid()
    {
        FabricRequest request;
        request.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
        request.gpusPerNode = 8;
        auto *runner = new FabricTestRunner(std::make_shared<LocalRemoteShell>());
        auto *window = new FabricTestWindow(runner, request, QStringLiteral("the nodes' instance type is unknown"));
        window->setAttribute(Qt::WA_DeleteOnClose, false);
        window->show();
        QCOMPARE(window->backendBox()->currentData().toString(), QStringLiteral("auto"));
        window->backendBox()->setCurrentIndex(window->backendBox()->findData(QStringLiteral("gloo")));
        QSignalSpy ended(window, &FabricTestWindow::ended);
        QTest::mouseClick(window->startButton(), Qt::LeftButton);
        QVERIFY(!window->startButton()->isEnabled());
        QVERIFY2(ended.wait(30000), qPrintable(window->stageText()));
        QVERIFY2(window->verdictText().startsWith(QStringLiteral("The test did not finish: creating the maintenance reservation strata-fabric-")),
                 qPrintable(window->verdictText()));
        QVERIFY2(window->verdictText().contains(QStringLiteral("Requested nodes are busy")), qPrintable(window->verdictText()));
        QVERIFY(window->isFinished());
        QVERIFY(window->startButton()->isEnabled());
        QVERIFY(!runner->isRunning());
        QCOMPARE(runner->request().backend, QStringLiteral("gloo"));
        QCOMPARE(runner->request().gpusPerNode, 0); // gloo: one rank per node
        QCOMPARE(window->rounds()->rowCount(), 0);  // no round ran
        delete window;
    }

    // Nodes that cannot run jobs (MainWindow::openFabricTest passes fabricNodesRefusal): the
    // window says why and Start stays off, so nothing reaches the cluster.
    void nodesThatCannotRunJobsAreRefused()
    {
        FabricRequest request;
        request.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node03")};
        auto *runner = new FabricTestRunner(std::make_shared<LocalRemoteShell>());
        FabricTestWindow window(runner, request, QStringLiteral("the nodes' instance type is unknown"));
        window.show();
        window.refuseStart(QStringLiteral("gpu-node03 is drained (Kill task failed): Slurm starts no job there"));
        QVERIFY(!window.startButton()->isEnabled());
        QCOMPARE(window.verdictText(), QStringLiteral("The test cannot start: gpu-node03 is drained (Kill task failed): Slurm starts no job there"));
        window.start(); // as a stray click or shortcut would
        QVERIFY(!runner->isRunning());
        QVERIFY(!window.startButton()->isEnabled());
    }

    // The "Against the fleet" column: a finished group's figure against earlier groups of the
    // same instance type in the history file, beside the floor's "ok"; the run is recorded.
    // The runner's signals are sent here as a run on a cluster sends them.
    void aGroupIsJudgedAgainstTheFleet()
    {
        const QString path = m_home.filePath(QStringLiteral("fleet.sqlite"));
        {
            BurninHistory history;
            QCOMPARE(history.open(path), QString());
            QVector<FabricHistoryRecord> earlier;
            for (double busbw : {320.0, 318.0, 325.0, 322.0, 316.0}) {
                FabricHistoryRecord r;
                r.runId = QStringLiteral("earlier-%1").arg(busbw);
                r.time = QDateTime::currentDateTimeUtc().addDays(-1);
                r.instanceType = QStringLiteral("p5.48xlarge");
                r.nodeCount = 2;
                r.tool = QStringLiteral("nccl-tests");
                r.backend = QStringLiteral("nccl");
                r.op = QStringLiteral("all_reduce");
                r.largestMessageBytes = qint64(1) << 30;
                r.busbwGBps = busbw;
                r.nodes = {QStringLiteral("gpu-node07"), QStringLiteral("gpu-node08")};
                earlier << r;
            }
            QCOMPARE(history.recordFabric(earlier), QString());
        }
        FabricRequest request;
        request.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")};
        auto *runner = new FabricTestRunner(std::make_shared<LocalRemoteShell>());
        FabricTestWindow window(runner, request, QStringLiteral("floor 200 GB/s given"));
        window.setFleetHistory(path, QStringLiteral("p5.48xlarge"));
        QSignalSpy ended(&window, &FabricTestWindow::ended);
        Q_EMIT runner->roundStarted(1, {request.nodes}, {QStringLiteral("101")});
        FabricGroupResult result;
        result.nodes = request.nodes;
        result.jobId = QStringLiteral("101");
        result.tool = FabricTool::NcclTests;
        result.backend = QStringLiteral("nccl");
        result.ranks = 16;
        for (const auto &[bytes, busbw] : {std::pair<qint64, double>{qint64(1) << 20, 40.0}, {qint64(1) << 30, 240.0}}) {
            FabricSample sample;
            sample.bytes = bytes;
            sample.seconds = 1e-4;
            sample.busbwGBps = busbw;
            sample.ranks = 16;
            result.samples << sample;
        }
        Q_EMIT runner->groupFinished(1, result, false);
        QCOMPARE(window.rounds()->item(0, 5)->text(), QStringLiteral("ok")); // the floor's verdict stands
        FabricVerdict verdict;
        verdict.kind = FabricVerdictKind::MeetsExpectation;
        verdict.explanation = QStringLiteral("240 GB/s, floor 200 GB/s");
        Q_EMIT runner->finished(verdict);
        QCOMPARE(ended.size(), 1);
        QCOMPARE(window.rounds()->horizontalHeaderItem(6)->text(), QStringLiteral("Against the fleet"));
        QTRY_VERIFY2(window.fleetText(0).startsWith(QStringLiteral("OUTLIER: outlier, robust z -")), qPrintable(window.fleetText(0)));
        QVERIFY2(window.fleetText(0).contains(QStringLiteral("below the fleet's median 320.0 (75 %, 5 peers)")), qPrintable(window.fleetText(0)));
        QVERIFY(window.verdictText().startsWith(QStringLiteral("meets-expectation")));

        BurninHistory history;
        QCOMPARE(history.open(path), QString());
        FabricHistoryRecord next;
        next.runId = QStringLiteral("next");
        next.instanceType = QStringLiteral("p5.48xlarge");
        next.nodeCount = 2;
        next.tool = QStringLiteral("nccl-tests");
        next.backend = QStringLiteral("nccl");
        next.op = QStringLiteral("all_reduce");
        next.largestMessageBytes = qint64(1) << 30;
        QVector<FabricHistoryRecord> peers;
        QCOMPARE(history.fabricPeers(next, &peers), QString());
        QCOMPARE(peers.size(), 6); // this run's group recorded
        QCOMPARE(peers.last().busbwGBps, 240.0);
        QCOMPARE(peers.last().latencyMicroseconds, 100.0);
        QCOMPARE(peers.last().nodes, request.nodes);
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestFabricTestWindow)
#include "tst_fabric_test_window.moc"
