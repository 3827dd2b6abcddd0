// `strata burnin` end to end through the real Slurm lab with the agent's CPU backend: two nodes,
// a planted bit flip on one, results parsed and judged, stored in SQLite, the faulty node
// drained with a precise reason and the healthy one left alone. The same through the SSH
// transport (--direct): the lab's login node reaches each node over the lab's real sshd.

#include "../integration/cli_lab.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QFile>
#include <QTemporaryDir>

using namespace strata::lab;

class TestCliBurnin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_lab.load(&error), qPrintable(error));
        QVERIFY2(m_history.isValid(), "no temporary directory");
    }
    void cleanup() { m_lab.restore(); }

    void injectedBitflipDrainsOnlyTheFaultyNode()
    {
        m_lab.rememberDrained(QStringLiteral("gpu-node01")); // only if the test fails
        m_lab.rememberDrained(QStringLiteral("gpu-node02"));
        const QString history = m_history.filePath(QStringLiteral("burnin.sqlite"));
        const Run r = m_lab.strata(QStringLiteral("burnin"),
                                   {QStringLiteral("--nodes"), QStringLiteral("gpu-node[01-02]"),
                                    QStringLiteral("--tests"), QStringLiteral("gemm,hbm"),
                                    QStringLiteral("--duration"), QStringLiteral("2s"),
                                    QStringLiteral("--backend"), QStringLiteral("cpu"),
                                    QStringLiteral("--inject"), QStringLiteral("gpu-node02=bitflip:3"),
                                    QStringLiteral("--drain-on-fail"), QStringLiteral("--history"), history,
                                    QStringLiteral("--format"), QStringLiteral("json")},
                                   100000);
        QVERIFY2(r.finished, "strata burnin did not finish");
        QCOMPARE(r.exitCode, 1); // one GPU failed
        const QJsonObject verdict = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(!verdict.isEmpty(), r.err.constData());
        QCOMPARE(verdict.value(QLatin1String("passed")).toBool(), false);
        QCOMPARE(verdict.value(QLatin1String("failedNodes")).toArray(), QJsonArray{QStringLiteral("gpu-node02")});
        QCOMPARE(verdict.value(QLatin1String("drained")).toArray(), QJsonArray{QStringLiteral("gpu-node02")});

        int gpusSeen = 0;
        for (const QJsonValue &v : verdict.value(QLatin1String("gpus")).toArray()) {
            const QJsonObject g = v.toObject();
            ++gpusSeen;
            QCOMPARE(g.value(QLatin1String("backend")).toString(), QStringLiteral("cpu"));
            const bool faulty = g.value(QLatin1String("node")).toString() == QLatin1String("gpu-node02")
                && g.value(QLatin1String("gpu")).toInt() == 3;
            const QString reasons = g.value(QLatin1String("reasons")).toVariant().toStringList().join(QLatin1Char('\n'));
            QVERIFY2(g.value(QLatin1String("passed")).toBool() == !faulty, qPrintable(reasons));
            if (faulty)
                QVERIFY2(reasons.contains(QLatin1String("mismatch")), qPrintable(reasons));
        }
        QCOMPARE(gpusSeen, 16); // 8 simulated GPUs per lab node, as their GRES says

        // Slurm: the faulty node drained with a reason naming GPU and test, the other untouched.
        const QString node2 = m_lab.slurmOut(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("node"), QStringLiteral("gpu-node02"), QStringLiteral("-o")});
        QVERIFY2(node2.contains(QLatin1String("DRAIN")), qPrintable(node2));
        QVERIFY2(node2.contains(QLatin1String("Reason=strata burn-in: gpu-node02 GPU 3")), qPrintable(node2));
        const QString node1 = m_lab.slurmOut(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("node"), QStringLiteral("gpu-node01"), QStringLiteral("-o")});
        QVERIFY2(!node1.contains(QLatin1String("DRAIN")), qPrintable(node1));

        // History: one row per GPU and test, the faulty GPU's gemm a fail.
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
            db.setDatabaseName(history);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT node, gpu_index, test, verdict FROM burnin_results")));
            int rows = 0, failedGemm = 0;
            while (q.next()) {
                ++rows;
                if (q.value(0).toString() == QLatin1String("gpu-node02") && q.value(1).toInt() == 3
                    && q.value(2).toString() == QLatin1String("gemm") && q.value(3).toString() == QLatin1String("fail"))
                    ++failedGemm;
            }
            QCOMPARE(rows, 32);
            QCOMPARE(failedGemm, 1);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("check"));
    }

    // --direct: no Slurm job; the login node starts the agent on each node over SSH (its own
    // ssh client, told by --node-ssh how to reach "gpu-node01": the lab's sshd, key and known
    // host key), detached, and the console follows the files and the processes.
    void directOverSshJudgesEachNode()
    {
        const QString login = m_lab.env(QStringLiteral("STRATA_LAB_SSH")); // user@host:port
        const QString host = login.section(QLatin1Char('@'), 1).section(QLatin1Char(':'), 0, 0);
        const QString port = login.section(QLatin1Char(':'), -1);
        QVERIFY2(!host.isEmpty() && port.toInt() > 0, qPrintable(login));
        // In the lab directory: the 24.11 login node runs in a chroot that sees it at the same path.
        const QString config = labDir() + QStringLiteral("/burnin-node-ssh.config");
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QStringLiteral("Host *\n  HostName %1\n  Port %2\n  User %3\n  IdentityFile %4\n  UserKnownHostsFile %5\n"
                                   "  HostKeyAlias [%1]:%2\n  StrictHostKeyChecking yes\n  BatchMode yes\n")
                        .arg(host, port, login.section(QLatin1Char('@'), 0, 0), m_lab.env(QStringLiteral("STRATA_LAB_SSH_IDENTITY")),
                             m_lab.env(QStringLiteral("STRATA_LAB_SSH_KNOWN_HOSTS")))
                        .toUtf8());
        }
        const QString history = m_history.filePath(QStringLiteral("direct.sqlite"));
        const Run r = m_lab.strata(QStringLiteral("burnin"),
                                   {QStringLiteral("--nodes"), QStringLiteral("gpu-node[01-02]"), QStringLiteral("--direct"),
                                    QStringLiteral("--node-ssh"), QStringLiteral("ssh -F ") + config,
                                    QStringLiteral("--tests"), QStringLiteral("gemm"), QStringLiteral("--duration"), QStringLiteral("2s"),
                                    QStringLiteral("--backend"), QStringLiteral("cpu"),
                                    QStringLiteral("--inject"), QStringLiteral("gpu-node01=bitflip:5"),
                                    QStringLiteral("--history"), history, QStringLiteral("--format"), QStringLiteral("json")},
                                   90000);
        QVERIFY2(r.finished, "strata burnin --direct did not finish");
        QVERIFY2(r.exitCode == 1, r.err.constData()); // one GPU failed
        const QJsonObject verdict = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(!verdict.isEmpty(), r.err.constData());
        QVERIFY2(verdict.value(QLatin1String("jobId")).toString().startsWith(QLatin1String("ssh")), r.out.constData());
        QCOMPARE(verdict.value(QLatin1String("failedNodes")).toArray(), QJsonArray{QStringLiteral("gpu-node01")});
        QCOMPARE(verdict.value(QLatin1String("drained")).toArray(), QJsonArray{});
        int gpusSeen = 0;
        for (const QJsonValue &v : verdict.value(QLatin1String("gpus")).toArray()) {
            const QJsonObject g = v.toObject();
            ++gpusSeen;
            QCOMPARE(g.value(QLatin1String("backend")).toString(), QStringLiteral("cpu"));
            const bool faulty = g.value(QLatin1String("node")).toString() == QLatin1String("gpu-node01")
                && g.value(QLatin1String("gpu")).toInt() == 5;
            QCOMPARE(g.value(QLatin1String("passed")).toBool(), !faulty);
            // Every GEMM result names the engine that computed it.
            const QJsonObject gemm = g.value(QLatin1String("tests")).toArray().first().toObject();
            QCOMPARE(gemm.value(QLatin1String("test")).toString(), QStringLiteral("gemm"));
            QCOMPARE(gemm.value(QLatin1String("engine")).toString(), QStringLiteral("cpu"));
        }
        QCOMPARE(gpusSeen, 16);
        // No scheduler was involved: no burn-in job in Slurm.
        QCOMPARE(m_lab.slurmOut(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-n"), QStringLiteral("strata-burnin")}).trimmed(),
                 QString());
    }

    void directNodeThatIsNoHostNameIsRefused()
    {
        // A node name reaches the login node's ssh command line: one that could be read as an
        // option never gets there.
        const Run r = m_lab.strata(QStringLiteral("burnin"), {QStringLiteral("--nodes"), QStringLiteral("-oProxyCommand=true"),
                                                              QStringLiteral("--direct"), QStringLiteral("--backend"), QStringLiteral("cpu")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("is not a host name"), r.err.constData());
    }

    // --attach JOB: the console follows a run it did not start (or lost), finding the run's own
    // result directory from the job's StdOut, and judges it like the launch did.
    void attachFindsTheRunByItsJob()
    {
        const QStringList common{QStringLiteral("--nodes"), QStringLiteral("gpu-node01"), QStringLiteral("--tests"), QStringLiteral("gemm"),
                                 QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--format"), QStringLiteral("json")};
        const Run launched = m_lab.strata(QStringLiteral("burnin"), common + QStringList{QStringLiteral("--duration"), QStringLiteral("2s")}, 100000);
        QVERIFY2(launched.exitCode == 0, launched.err.constData());
        const QJsonObject first = QJsonDocument::fromJson(launched.out).object();
        const QString job = first.value(QLatin1String("jobId")).toString();
        QVERIFY2(!job.isEmpty(), launched.out.constData());
        const Run attached = m_lab.strata(QStringLiteral("burnin"), common + QStringList{QStringLiteral("--attach"), job}, 100000);
        QVERIFY2(attached.exitCode == 0, attached.err.constData());
        const QJsonObject again = QJsonDocument::fromJson(attached.out).object();
        QCOMPARE(again.value(QLatin1String("jobId")).toString(), job);
        QCOMPARE(again.value(QLatin1String("passed")).toBool(), true);
        // The same figures: the same files were read, not an earlier run's of the same job id.
        QCOMPARE(again.value(QLatin1String("gpus")).toArray().size(), 8);
        QCOMPARE(again.value(QLatin1String("gpus")), first.value(QLatin1String("gpus")));

        const Run unknown = m_lab.strata(QStringLiteral("burnin"), common + QStringList{QStringLiteral("--attach"), QStringLiteral("987654")}, 60000);
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("cannot find where burn-in job 987654 writes its results"), unknown.err.constData());
    }

    void unknownNodeIsRefused()
    {
        const Run r = m_lab.strata(QStringLiteral("burnin"), {QStringLiteral("--nodes"), QStringLiteral("no-such-node"),
                                                              QStringLiteral("--backend"), QStringLiteral("cpu")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no node \"no-such-node\""), r.err.constData());
    }

private:
    CliLab m_lab;
    QTemporaryDir m_history;
};

QTEST_GUILESS_MAIN(TestCliBurnin)
#include "tst_cli_burnin.moc"
