// FabricTestRunner with its Slurm transport over a login node that is this machine
// (LocalRemoteShell), with stand-ins for Slurm's scontrol, sbatch, squeue and scancel first in PATH
// that answer as Slurm does and log what they were asked. What it proves: a job kept pending by a
// node Slurm cannot use (ReqNodeNotAvail, as CI's lab once showed for a drained gpu-node03 for six
// minutes) ends the run after the grace, saying which node; a job that only waits its turn is never
// given up on; either way the job is cancelled and Strata's reservation deleted, in that order. The
// whole run through the real slurmctld is lab_fabric_isolation.
#include "executable_file.h"
#include "fabric/fabric_slurm_transport.h"
#include "fabric/fabric_test_runner.h"
#include "local_remote_shell.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

class TestFabricTestRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("HOME", m_home.path().toUtf8());
        const QString bin = m_home.filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        const QByteArray log = "echo \"$(basename \"$0\") $*\" >>\"$HOME/slurm.log\"\n";
        QVERIFY(writeExecutable(bin + QStringLiteral("/scontrol"),
                        "#!/bin/sh\n" + log +
                            "[ \"$1\" = create ] && echo \"Reservation created: $3\" | sed "
                            "'s/ReservationName=//'\nexit 0\n"));
        QVERIFY(writeExecutable(bin + QStringLiteral("/sbatch"),
                        "#!/bin/sh\n" + log + "cat >/dev/null\necho 'Submitted batch job 4242'\n"));
        QVERIFY(writeExecutable(bin + QStringLiteral("/squeue"), "#!/bin/sh\ncat \"$HOME/squeue.txt\"\n"));
        QVERIFY(writeExecutable(bin + QStringLiteral("/scancel"), "#!/bin/sh\n" + log));
        qputenv("PATH", bin.toUtf8() + ':' + qgetenv("PATH"));
    }

    void init() { QFile::remove(m_home.filePath(QStringLiteral("slurm.log"))); }

    void aJobKeptFromAnUnusableNodeEndsTheRun()
    {
        // ReqNodeNotAvail that clears before the grace (a node that missed a ping) starts the
        // clock again: the run gives up only after a whole grace of it.
        setSqueue("4242 PENDING ReqNodeNotAvail, UnavailableNodes:gpu-node03\n");
        FabricTestRunner runner(slurmTransport(1500));
        QSignalSpy failed(&runner, &FabricTestRunner::failed);
        QSignalSpy finished(&runner, &FabricTestRunner::finished);
        QSignalSpy stages(&runner, &FabricTestRunner::stageChanged);
        runner.start(request());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_home.filePath(QStringLiteral("slurm.log"))) &&
                                     log().contains(QStringLiteral("sbatch ")),
                                 10000);
        QTest::qWait(1000);
        setSqueue("4242 PENDING Resources\n");
        // Seen by a poll (on a loaded machine polls come late): only then is the clock reset.
        QTRY_VERIFY_WITH_TIMEOUT(stages.count() > 0 && stages.last().first().toString() == QStringLiteral("round 1: 4242 pending (Resources)"),
                                 10000);
        QCOMPARE(failed.count(), 0);
        QElapsedTimer clock;
        clock.start();
        setSqueue("4242 PENDING ReqNodeNotAvail, UnavailableNodes:gpu-node03\n");
        QVERIFY(failed.wait(10000));
        QVERIFY2(clock.elapsed() >= 1400, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(finished.count(), 0);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.startsWith(QStringLiteral("job 4242 waited ")), qPrintable(message));
        QVERIFY2(
            message.contains(QStringLiteral("(ReqNodeNotAvail, UnavailableNodes:gpu-node03): a "
                                            "node of the test is drained, down or not responding")),
            qPrintable(message));
        QVERIFY(!runner.isRunning());
        expectCleanup(runner);
    }

    void aJobWaitingItsTurnIsFollowedUntilCancelled()
    {
        setSqueue("4242 PENDING Resources\n");
        FabricTestRunner runner(slurmTransport(300));
        QSignalSpy failed(&runner, &FabricTestRunner::failed);
        QSignalSpy stages(&runner, &FabricTestRunner::stageChanged);
        runner.start(request());
        QTRY_VERIFY_WITH_TIMEOUT(stages.count() > 0 &&
                                     stages.last().first().toString() ==
                                         QStringLiteral("round 1: 4242 pending (Resources)"),
                                 10000);
        QTest::qWait(1500); // five graces
        QVERIFY(runner.isRunning());
        QCOMPARE(failed.count(), 0);
        runner.cancel();
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.first().first().toString(), QStringLiteral("cancelled"));
        expectCleanup(runner);
    }

private:
    // Slurm's transport through this machine's shell, polling every 50 ms.
    static std::unique_ptr<FabricTransport> slurmTransport(int unavailableNodeGraceMs)
    {
        auto transport =
            std::make_unique<FabricSlurmTransport>(std::make_shared<LocalRemoteShell>());
        transport->setPollIntervalMs(50);
        transport->setUnavailableNodeGraceMs(unavailableNodeGraceMs);
        return transport;
    }

    static FabricRequest request()
    {
        FabricRequest r;
        r.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"),
                   QStringLiteral("gpu-node03"), QStringLiteral("gpu-node04")};
        r.backend = QStringLiteral("gloo");
        return r;
    }

    void setSqueue(const QByteArray &text)
    {
        QFile f(m_home.filePath(QStringLiteral("squeue.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

    QString log() const
    {
        QFile f(m_home.filePath(QStringLiteral("slurm.log")));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

    // The reservation created over the four nodes, one job submitted in it, then the job
    // cancelled before the reservation is deleted.
    void expectCleanup(const FabricTestRunner &runner)
    {
        const QString name = runner.reservation();
        QVERIFY2(name.startsWith(QStringLiteral("strata-fabric-")), qPrintable(name));
        const QStringList lines = log().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines.at(0).startsWith(
                     QStringLiteral("scontrol create reservation ReservationName=%1 ").arg(name)) &&
                     lines.at(0).contains(QStringLiteral(" Nodes=gpu-node[01-04] ")) &&
                     lines.at(0).endsWith(QStringLiteral(" Flags=MAINT")),
                 qPrintable(lines.at(0)));
        QVERIFY2(lines.at(1).startsWith(QStringLiteral("sbatch ")) &&
                     lines.at(1).contains(QStringLiteral("--reservation=%1").arg(name)),
                 qPrintable(lines.at(1)));
        QCOMPARE(lines.at(2), QStringLiteral("scancel 4242"));
        QCOMPARE(lines.at(3), QStringLiteral("scontrol delete ReservationName=%1").arg(name));
    }

    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestFabricTestRunner)
#include "tst_fabric_test_runner.moc"
