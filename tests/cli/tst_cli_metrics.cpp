// GPU observability end to end: the lab's real Slurm and Prometheus, the DCGM exporter stand-in
// following Slurm's GRES, and `strata snapshot` joining them. Then each injected fault shows
// as its finding, and a stopped Prometheus shows as "metrics unavailable" with Slurm data kept.

#include "../integration/cli_lab.h"

using namespace strata::lab;

class TestCliMetrics : public QObject
{
    Q_OBJECT

    QJsonObject snapshot() const { return m_lab.snapshot(); }

    static QJsonArray gpusOf(const QJsonObject &s, const QString &node)
    {
        return findById(s.value(QLatin1String("nodes")).toArray(), QStringLiteral("name"), node).value(QLatin1String("gpus")).toArray();
    }

    bool hasFinding(const QJsonObject &s, const QString &node, int gpu, const QString &codePrefix) const
    {
        for (const QJsonValue &v : s.value(QLatin1String("findings")).toArray()) {
            const QJsonObject f = v.toObject();
            if (f.value(QLatin1String("node")).toString() == node && f.value(QLatin1String("code")).toString().startsWith(codePrefix)
                && (gpu < 0 || f.value(QLatin1String("gpu")).toInt(-1) == gpu))
                return true;
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_lab.load(&error), qPrintable(error));
    }
    void cleanup()
    {
        m_lab.labCommand({QStringLiteral("fault"), QStringLiteral("clear")});
        m_lab.restore();
    }

    void fourGpuJobShowsFourBusyGpus()
    {
        const QString id = m_lab.submit({QStringLiteral("--name"), QStringLiteral("util-check"), QStringLiteral("--nodelist"), QStringLiteral("gpu-node03"),
                                         QStringLiteral("--gpus-per-node"), QStringLiteral("4"), QStringLiteral("--wrap"), QStringLiteral("sleep 300")});
        QVERIFY(!id.isEmpty());
        QJsonObject s;
        // The stand-in polls Slurm every 2 s and Prometheus scrapes every 2 s.
        QVERIFY2(CliLab::waitUntil(40000, [&] {
                     s = snapshot();
                     int busy = 0;
                     for (const QJsonValue &g : gpusOf(s, QStringLiteral("gpu-node03")))
                         busy += g.toObject().value(QLatin1String("util")).toDouble(0) > 50 ? 1 : 0;
                     return busy == 4;
                 }),
                 "gpu-node03 never showed 4 busy GPUs");
        const Placement placement = m_lab.scontrolPlacement(id);
        const QVector<int> held = placement.value(QStringLiteral("gpu-node03"));
        QCOMPARE(held.size(), 4);
        for (const QJsonValue &v : gpusOf(s, QStringLiteral("gpu-node03"))) {
            const QJsonObject g = v.toObject();
            const int index = g.value(QLatin1String("index")).toInt();
            const bool mine = held.contains(index);
            QVERIFY2((g.value(QLatin1String("util")).toDouble() > 50) == mine, qPrintable(QStringLiteral("GPU %1").arg(index)));
            QCOMPARE(g.value(QLatin1String("job")).toString(), mine ? id : QString());
            QVERIFY(!g.value(QLatin1String("uuid")).toString().isEmpty());
        }
        // Nothing else is busy.
        for (const QString &node : {QStringLiteral("gpu-node01"), QStringLiteral("gpu-node02"), QStringLiteral("gpu-node04")})
            for (const QJsonValue &g : gpusOf(s, node))
                QVERIFY2(g.toObject().value(QLatin1String("util")).toDouble() < 5, qPrintable(node));
        const QJsonObject job = findById(s.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), id);
        QVERIFY2(job.value(QLatin1String("gpuUtilMean")).toDouble(0) > 50 || job.value(QLatin1String("gpuUtilMean")).isNull(),
                 "job utilisation is not that of busy GPUs");
    }

    void injectedFaultsBecomeFindings_data()
    {
        QTest::addColumn<QStringList>("fault");
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("gpu");
        QTest::addColumn<QString>("code");
        QTest::newRow("xid 79") << QStringList{"gpu-node02", "3", "xid", "79"} << "gpu-node02" << 3 << "xid-79";
        QTest::newRow("hot") << QStringList{"gpu-node01", "5", "hot", "95"} << "gpu-node01" << 5 << "gpu-temp-high";
        QTest::newRow("remap failure") << QStringList{"gpu-node04", "0", "remap-failure"} << "gpu-node04" << 0 << "row-remap-failure";
        QTest::newRow("uncorrectable rows") << QStringList{"gpu-node04", "2", "uncorrectable", "3"} << "gpu-node04" << 2 << "remapped-rows-uncorrectable";
        QTest::newRow("missing GPU") << QStringList{"gpu-node03", "6", "missing"} << "gpu-node03" << 6 << "gpu-missing";
        QTest::newRow("exporter down") << QStringList{"gpu-node02", "exporter-down"} << "gpu-node02" << -1 << "exporter-down";
    }
    void injectedFaultsBecomeFindings()
    {
        QFETCH(QStringList, fault);
        QFETCH(QString, node);
        QFETCH(int, gpu);
        QFETCH(QString, code);
        const Run r = m_lab.labCommand(QStringList{QStringLiteral("fault")} + fault);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject s;
        QVERIFY2(CliLab::waitUntil(30000, [&] { s = snapshot(); return hasFinding(s, node, gpu, code); }),
                 qPrintable(QStringLiteral("no %1 finding for %2 GPU %3 in:\n%4").arg(code, node).arg(gpu)
                                .arg(QString::fromUtf8(QJsonDocument(s.value(QLatin1String("findings")).toArray()).toJson()))));
    }

    void prometheusDownKeepsSlurmData()
    {
        m_lab.rememberStopped(QStringLiteral("prometheus"));
        QCOMPARE(m_lab.labCommand({QStringLiteral("stop"), QStringLiteral("prometheus")}).exitCode, 0);
        const Run r = m_lab.strata(QStringLiteral("snapshot"), {QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 1); // a configured source failed
        QVERIFY2(r.err.contains("metrics unavailable"), r.err.constData());
        const QJsonObject s = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(s.value(QLatin1String("nodes")).toArray().size(), 4);
        QCOMPARE(s.value(QLatin1String("metricsAvailable")).toBool(), false);
        const QJsonObject prometheus = findById(s.value(QLatin1String("sources")).toArray(), QStringLiteral("source"), QStringLiteral("prometheus"));
        QCOMPARE(prometheus.value(QLatin1String("ok")).toBool(), false);
        const QJsonObject slurm = findById(s.value(QLatin1String("sources")).toArray(), QStringLiteral("source"), QStringLiteral("slurm"));
        QCOMPARE(slurm.value(QLatin1String("ok")).toBool(), true);
        for (const QJsonValue &g : gpusOf(s, QStringLiteral("gpu-node01")))
            QVERIFY(g.toObject().value(QLatin1String("util")).isNull()); // missing, never 0
    }

private:
    CliLab m_lab;
};

QTEST_GUILESS_MAIN(TestCliMetrics)
#include "tst_cli_metrics.moc"
