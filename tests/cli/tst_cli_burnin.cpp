// `strata burnin` end to end through the real Slurm lab with the agent's CPU backend: two nodes,
// a planted bit flip on one, results parsed and judged, stored in SQLite, the faulty node
// drained with a precise reason and the healthy one left alone.

#include "../integration/cli_lab.h"

#include <QSqlDatabase>
#include <QSqlQuery>
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
            QCOMPARE(g.value(QLatin1String("passed")).toBool(), !faulty);
            if (faulty) {
                const QString reasons = g.value(QLatin1String("reasons")).toVariant().toStringList().join(QLatin1Char('\n'));
                QVERIFY2(reasons.contains(QLatin1String("mismatch")), qPrintable(reasons));
            }
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
