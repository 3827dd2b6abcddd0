// FabricTestWindow on a login node whose Slurm refuses the reservation (this machine as the
// "login node": LocalRemoteShell, with an scontrol first in PATH that answers as Slurm does for
// busy nodes; the real refusal is in lab_fabric_isolation's lab): Start runs the runner with
// the window's choices, the failure is said in the window, the fields come back for a retry,
// nothing is left running.
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
        QFile scontrol(m_home.filePath(QStringLiteral("bin/scontrol")));
        QVERIFY(scontrol.open(QIODevice::WriteOnly));
        scontrol.write("#!/bin/sh\necho 'Error creating the reservation: Requested nodes are busy' >&2\nexit 1\n");
        scontrol.close();
        QVERIFY(scontrol.setPermissions(scontrol.permissions() | QFileDevice::ExeOwner));
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

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestFabricTestWindow)
#include "tst_fabric_test_window.moc"
