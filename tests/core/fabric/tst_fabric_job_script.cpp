// FabricJobScript: what reaches the cluster for a fabric test. sbatch's arguments refuse what
// would not be safe to pass; the batch script, run by bash with stand-ins for Slurm's scontrol
// and srun, hands every rank the probe exactly as shipped, with the rank's environment.
#include "executable_file.h"
#include "fabric/fabric_job_script.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

FabricRequest request()
{
    FabricRequest r;
    r.nodes = {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"), QStringLiteral("gpu-node03")};
    r.tag = QStringLiteral("0123abcd-ef45-6789-abcd-ef0123456789");
    r.outputDirectory = QStringLiteral("/home/op/.cache/strata/fabric/run-0123abcd-ef4");
    return r;
}

} // namespace

class TestFabricJobScript : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // `squeue -h -t all -j IDS -o "%i %T %r"` as Slurm 22.05 and 24.11 print it (the first
    // line from CI's lab, its gpu-node03 drained): a job kept from a node Slurm cannot use is
    // told from one that waits its turn.
    void jobStates()
    {
        const auto states = FabricJobScript::parseJobStates("79 PENDING ReqNodeNotAvail, UnavailableNodes:gpu-node03\n"
                                                            "80 PENDING Resources\n"
                                                            "81 RUNNING None\n"
                                                            "82 COMPLETED None\n"
                                                            "83 PENDING ReqNodeNotAvail, Reserved for maintenance\n"
                                                            "84 PENDING ReqNodeNotAvailable\n"
                                                            "85 CANCELLED ReqNodeNotAvail, UnavailableNodes:gpu-node03\n"
                                                            "x9 PENDING Resources\n"
                                                            "86 CONFIGURING None");
        QCOMPARE(states.size(), 8);
        QCOMPARE(states.value(QStringLiteral("79")).state, JobState::Pending);
        QCOMPARE(states.value(QStringLiteral("79")).reason, QStringLiteral("ReqNodeNotAvail, UnavailableNodes:gpu-node03"));
        QVERIFY(states.value(QStringLiteral("79")).waitsForUnavailableNode);
        QVERIFY(!states.value(QStringLiteral("80")).waitsForUnavailableNode);
        QCOMPARE(states.value(QStringLiteral("81")).state, JobState::Running);
        QCOMPARE(states.value(QStringLiteral("82")).word, QStringLiteral("COMPLETED"));
        QVERIFY(states.value(QStringLiteral("83")).waitsForUnavailableNode);
        QVERIFY(!states.value(QStringLiteral("84")).waitsForUnavailableNode); // another word
        QVERIFY(!states.value(QStringLiteral("85")).waitsForUnavailableNode); // ended: waits for nothing
        QVERIFY(!states.contains(QStringLiteral("x9")));
        QCOMPARE(states.value(QStringLiteral("86")).reason, QStringLiteral("None")); // the last line, no newline
    }

    void sbatchArguments()
    {
        FabricRequest r = request();
        r.partition = QStringLiteral("train");
        QString error;
        const QStringList argv = FabricJobScript::sbatchArguments(r, {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02")},
                                                                  FabricJobScript::reservationName(r.tag), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(argv, (QStringList{QStringLiteral("sbatch"), QStringLiteral("--parsable"), QStringLiteral("--job-name=strata-fabric"),
                                    QStringLiteral("--nodes=2"), QStringLiteral("--nodelist=gpu-node[01-02]"),
                                    QStringLiteral("--ntasks-per-node=1"), QStringLiteral("--exclusive"), QStringLiteral("--time=10"),
                                    QStringLiteral("--output=/home/op/.cache/strata/fabric/run-0123abcd-ef4/strata-fabric-%j.out"),
                                    QStringLiteral("--comment=strata:0123abcd-ef45-6789-abcd-ef0123456789"),
                                    QStringLiteral("--partition=train"), QStringLiteral("--reservation=strata-fabric-0123abcd-ef4")}));
        r.gpusPerNode = 8; // NCCL: one rank per GPU, all the node's GPUs
        const QStringList gpu = FabricJobScript::sbatchArguments(r, r.nodes, {}, &error);
        QVERIFY(gpu.contains(QStringLiteral("--ntasks-per-node=8")));
        QVERIFY(gpu.contains(QStringLiteral("--gres=gpu:8")));
    }

    void refused_data()
    {
        QTest::addColumn<QStringList>("group");
        QTest::addColumn<QString>("tag");
        QTest::addColumn<QString>("reservation");
        QTest::addColumn<QString>("outputDirectory");
        const QStringList two{QStringLiteral("a1"), QStringLiteral("a2")};
        const QString tag = request().tag, dir = request().outputDirectory;
        QTest::newRow("one node") << QStringList{QStringLiteral("a1")} << tag << QString() << dir;
        QTest::newRow("option as a node") << QStringList{QStringLiteral("a1"), QStringLiteral("--uid=0")} << tag << QString() << dir;
        QTest::newRow("command in a node") << QStringList{QStringLiteral("a1"), QStringLiteral("$(id)")} << tag << QString() << dir;
        QTest::newRow("tag with a space") << two << QStringLiteral("ab cd") << QString() << dir;
        QTest::newRow("reservation option") << two << tag << QStringLiteral("--x") << dir;
        QTest::newRow("relative directory") << two << tag << QString() << QStringLiteral("out");
        QTest::newRow("directory with %") << two << tag << QString() << QStringLiteral("/tmp/%u");
        QTest::newRow("directory with a line break") << two << tag << QString() << QStringLiteral("/tmp/a\nb");
    }

    void refused()
    {
        QFETCH(QStringList, group);
        QFETCH(QString, tag);
        QFETCH(QString, reservation);
        QFETCH(QString, outputDirectory);
        FabricRequest r = request();
        r.tag = tag;
        r.outputDirectory = outputDirectory;
        QString error;
        QVERIFY(FabricJobScript::sbatchArguments(r, group, reservation, &error).isEmpty());
        QVERIFY(!error.isEmpty());
    }

    void reservationScripts()
    {
        const FabricRequest r = request();
        QCOMPARE(FabricJobScript::createReservationScript(r, 35),
                 QStringLiteral("scontrol create reservation ReservationName=strata-fabric-0123abcd-ef4 StartTime=now Duration=35 "
                                "Nodes='gpu-node[01-03]' Users=\"$(id -un)\" Flags=MAINT\n"));
        QCOMPARE(FabricJobScript::deleteReservationCommand(QStringLiteral("strata-fabric-0123abcd-ef4")),
                 (QStringList{QStringLiteral("scontrol"), QStringLiteral("delete"), QStringLiteral("ReservationName=strata-fabric-0123abcd-ef4")}));
    }

    // The batch script under bash, with scontrol and srun stand-ins: srun runs its command as
    // two ranks (SLURM_PROCID 0 and 1); a python3 stand-in saves what each rank was given.
    void batchScriptHandsEveryRankTheProbe()
    {
        const QByteArray probe = FabricJobScript::probeSource();
        QVERIFY(probe.contains("@@strata-fabric"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bin = dir.filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(writeExecutable(bin + QStringLiteral("/scontrol"),
                        "#!/bin/sh\ncase \"$2\" in\nhostnames) printf 'gpu-node01\\ngpu-node02\\n' ;;\n"
                        "node) echo \"NodeName=$3 Arch=x86_64 CoresPerSocket=48\"; echo \"   NodeAddr=10.1.0.7 NodeHostName=$3 Version=22.05.8\" ;;\nesac\n"));
        QVERIFY(writeExecutable(bin + QStringLiteral("/srun"),
                        "#!/bin/bash\nwhile [ \"${1#--}\" != \"$1\" ]; do shift; done\n"
                        "for r in 0 1; do SLURM_PROCID=$r SLURM_NTASKS=2 SLURM_LOCALID=0 \"$@\" || exit; done\n"));
        QVERIFY(writeExecutable(bin + QStringLiteral("/python3"),
                        "#!/bin/sh\n[ \"$1\" = -c ] || exit 9\n"
                        // The batch script's free-port pick (no RANK yet): a port.
                        "[ -n \"$RANK\" ] || { echo 41234; exit 0; }\nprintf '%s' \"$2\" > \"$OUT/probe.$RANK\"\n"
                        "echo \"$RANK $WORLD_SIZE $LOCAL_RANK $MASTER_ADDR $MASTER_PORT $STRATA_FABRIC_SIZES $STRATA_FABRIC_ITERS $STRATA_FABRIC_BACKEND\" > \"$OUT/env.$RANK\"\n"));
        FabricRequest r = request();
        r.tool = FabricToolChoice::TorchProbe;
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), bin + QStringLiteral(":/usr/bin:/bin"));
        env.insert(QStringLiteral("OUT"), dir.path());
        env.insert(QStringLiteral("SLURM_JOB_ID"), QStringLiteral("4242"));
        env.insert(QStringLiteral("SLURM_JOB_NODELIST"), QStringLiteral("gpu-node[01-02]"));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("bash"), {QStringLiteral("-s")});
        QVERIFY(bash.waitForStarted());
        bash.write(FabricJobScript::batchScript(r, probe).toUtf8());
        bash.closeWriteChannel();
        QVERIFY(bash.waitForFinished(20000));
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
        for (const char *rank : {"0", "1"}) {
            QFile given(dir.filePath(QStringLiteral("probe.") + QLatin1String(rank)));
            QVERIFY(given.open(QIODevice::ReadOnly));
            QCOMPARE(given.readAll(), probe.trimmed()); // $(...) drops the final newline only
            QFile e(dir.filePath(QStringLiteral("env.") + QLatin1String(rank)));
            QVERIFY(e.open(QIODevice::ReadOnly));
            QCOMPARE(e.readAll().trimmed(), QByteArray(rank) + " 2 0 10.1.0.7 41234 65536,1048576,8388608 5 auto");
        }
    }
};

QTEST_GUILESS_MAIN(TestFabricJobScript)
#include "tst_fabric_job_script.moc"
