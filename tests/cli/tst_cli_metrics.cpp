// GPU observability end to end: the lab's real Slurm and Prometheus, the DCGM exporter stand-in
// following Slurm's GRES, and `strata snapshot` joining them, each lab node's exporter in another
// deployment style (lab/lib/prometheus.sh DCGM_STYLE: classic; GPU Operator with a pod-name
// Hostname; `hostname` with DCGM blank codes; a GPU in MIG mode). Then each injected fault shows
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
        // This lab's Slurm nodes' faults only (NAME:GPU_TYPE:GPUS:INSTANCE_TYPE each): the
        // Kubernetes tests plant theirs beside it.
        QStringList args{QStringLiteral("fault"), QStringLiteral("clear")};
        for (const QString &entry : m_lab.env(QStringLiteral("STRATA_LAB_NODES")).remove(QLatin1Char('"')).split(QLatin1Char(' '), Qt::SkipEmptyParts))
            args << entry.section(QLatin1Char(':'), 0, 0);
        m_lab.labCommand(args);
        m_lab.restore();
    }

    void fourGpuJobShowsFourBusyGpus()
    {
        const QString id = m_lab.submit({QStringLiteral("--name"), QStringLiteral("util-check"), QStringLiteral("--nodelist"), QStringLiteral("gpu-node03"),
                                         QStringLiteral("--gpus-per-node"), QStringLiteral("4"), QStringLiteral("--wrap"), QStringLiteral("sleep 300")});
        QVERIFY(!id.isEmpty());
        QJsonObject s;
        // The stand-in polls Slurm every 2 s and Prometheus scrapes every 2 s. The job's usage
        // window ends where the refresh began, the gauges where Prometheus answers them: on a
        // busy machine a snapshot can see the GPUs busy while the window's last point (seconds
        // earlier) still has them idle, so wait until both show the work.
        const auto windowMean = [&](const QJsonObject &snap) {
            const QJsonObject job = findById(snap.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), id);
            return job.value(QLatin1String("gpuUtilMean")).toDouble(-1);
        };
        const bool seen = CliLab::waitUntil(40000, [&] {
            s = snapshot();
            int busy = 0;
            for (const QJsonValue &g : gpusOf(s, QStringLiteral("gpu-node03")))
                busy += g.toObject().value(QLatin1String("util")).toDouble(0) > 50 ? 1 : 0;
            return busy == 4 && windowMean(s) >= 85;
        });
        QVERIFY2(seen, qPrintable(QStringLiteral("gpu-node03 never showed 4 busy GPUs with the job's window mean >= 85 (last mean %1)")
                                .arg(windowMean(s))));
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
        // The one-shot snapshot reads the job's usage window (it used to leave this null).
        const QJsonObject job = findById(s.value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), id);
        const QJsonValue mean = job.value(QLatin1String("gpuUtilMean"));
        QVERIFY2(mean.isDouble() && mean.toDouble() >= 85 && mean.toDouble() <= 100,
                 qPrintable(QStringLiteral("gpuUtilMean %1").arg(QString::fromUtf8(QJsonDocument(job).toJson()))));
        QVERIFY(job.value(QLatin1String("gpuUtilMin")).toDouble(0) >= 85);
        const QString basis = job.value(QLatin1String("gpuUtilBasis")).toString();
        QVERIFY2(basis == QLatin1String("window") || basis == QLatin1String("current"), qPrintable(basis));
        QVERIFY(!job.value(QLatin1String("efficiency")).toString().isEmpty());
    }

    // The case: GPUs busy for a while, one `strata snapshot`: the mean over the job's
    // window (query_range points since it started), not null, not the current reading.
    void jobUtilisationFromItsWindow()
    {
        const QString id = m_lab.submit({QStringLiteral("--name"), QStringLiteral("util-window"), QStringLiteral("--nodelist"), QStringLiteral("gpu-node01"),
                                         QStringLiteral("--gpus-per-node"), QStringLiteral("2"), QStringLiteral("--wrap"), QStringLiteral("sleep 300")});
        QVERIFY(!id.isEmpty());
        QJsonObject job;
        // Busy GPUs in Prometheus within seconds; a usage point at or after the job's start
        // (the query's step is 60 s, its last point "now") then makes the basis "window".
        QVERIFY2(CliLab::waitUntil(60000, [&] {
                     job = findById(snapshot().value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), id);
                     return job.value(QLatin1String("gpuUtilBasis")).toString() == QLatin1String("window")
                         && job.value(QLatin1String("gpuUtilMean")).toDouble(0) >= 85;
                 }),
                 qPrintable(QString::fromUtf8(QJsonDocument(job).toJson())));
        QVERIFY(job.value(QLatin1String("gpuUtilMean")).toDouble() <= 100);
        QVERIFY2(job.value(QLatin1String("efficiency")).toString().contains(QLatin1String("busy")),
                 qPrintable(job.value(QLatin1String("efficiency")).toString()));
    }

    // gpu-node02's exporter is the GPU Operator's (workloads as exported_pod, `pod` = the
    // exporter, Hostname = the exporter's pod, only kubernetes_node names the node): every GPU
    // lands on gpu-node02, the job's GPUs name the job, the idle ones name nothing.
    void operatorLabelsAndPodHostname()
    {
        const QString id = m_lab.submit({QStringLiteral("--name"), QStringLiteral("operator"), QStringLiteral("--nodelist"), QStringLiteral("gpu-node02"),
                                         QStringLiteral("--gpus-per-node"), QStringLiteral("2"), QStringLiteral("--wrap"), QStringLiteral("sleep 300")});
        QVERIFY(!id.isEmpty());
        QJsonObject s;
        QVERIFY2(CliLab::waitUntil(40000, [&] {
                     s = snapshot();
                     int mine = 0;
                     for (const QJsonValue &g : gpusOf(s, QStringLiteral("gpu-node02")))
                         mine += g.toObject().value(QLatin1String("job")).toString() == id
                             && g.toObject().value(QLatin1String("util")).toDouble(0) > 50;
                     return mine == 2;
                 }),
                 "gpu-node02 never showed the job's 2 busy GPUs");
        QVector<int> held;
        QVERIFY(CliLab::waitUntil(20000, [&] {
            held = m_lab.scontrolPlacement(id).value(QStringLiteral("gpu-node02"));
            return !held.isEmpty();
        }));
        QCOMPARE(held.size(), 2);
        const QJsonArray gpus = gpusOf(s, QStringLiteral("gpu-node02"));
        QCOMPARE(gpus.size(), 8);
        for (const QJsonValue &v : gpus) {
            const QJsonObject g = v.toObject();
            const int index = g.value(QLatin1String("index")).toInt();
            QVERIFY2(g.value(QLatin1String("seenByExporter")).toBool(), qPrintable(QString::number(index)));
            // Not "gpu-operator/nvidia-dcgm-exporter-x7k2p" (the exporter's own pod).
            QCOMPARE(g.value(QLatin1String("job")).toString(), held.contains(index) ? id : QString());
        }
        QVERIFY(!hasFinding(s, QString(), -1, QStringLiteral("metrics-unmatched-hosts")));
        QVERIFY(!hasFinding(s, QStringLiteral("gpu-node02"), -1, QStringLiteral("no-gpu-metrics")));
        // The usage window opens at the job's start, when its GPUs were not yet busy (a real job
        // loads first too): its mean reaches the busy GPUs' level a few scrapes later.
        QJsonObject job;
        QVERIFY2(CliLab::waitUntil(40000, [&] {
                     job = findById(snapshot().value(QLatin1String("jobs")).toArray(), QStringLiteral("id"), id);
                     return job.value(QLatin1String("gpuUtilMean")).toDouble(0) >= 85;
                 }),
                 qPrintable(QString::fromUtf8(QJsonDocument(job).toJson())));
        QCOMPARE(job.value(QLatin1String("gpuUtilBasis")).toString(), QStringLiteral("window"));
    }

    // gpu-node04's GPU 0 is in MIG mode: its instances are slices under it, the job that holds
    // the GPU uses the first; the GPU's memory is their sum.
    void migInstancesUnderTheirGpu()
    {
        const QString id = m_lab.submit({QStringLiteral("--name"), QStringLiteral("mig"), QStringLiteral("--nodelist"), QStringLiteral("gpu-node04"),
                                         QStringLiteral("--gpus-per-node"), QStringLiteral("1"), QStringLiteral("--wrap"), QStringLiteral("sleep 300")});
        QVERIFY(!id.isEmpty());
        QVector<int> held;
        QVERIFY(CliLab::waitUntil(20000, [&] {
            held = m_lab.scontrolPlacement(id).value(QStringLiteral("gpu-node04"));
            return !held.isEmpty();
        }));
        QCOMPARE(held, QVector<int>{0}); // an idle node hands out GPU 0 first
        QJsonObject gpu0;
        QVERIFY2(CliLab::waitUntil(40000, [&] {
                     gpu0 = gpusOf(snapshot(), QStringLiteral("gpu-node04")).at(0).toObject();
                     const QJsonArray mig = gpu0.value(QLatin1String("migInstances")).toArray();
                     return mig.size() == 3 && mig.at(0).toObject().value(QLatin1String("util")).toDouble(0) > 50;
                 }),
                 qPrintable(QString::fromUtf8(QJsonDocument(gpu0).toJson())));
        const QJsonArray mig = gpu0.value(QLatin1String("migInstances")).toArray();
        // 3g.71gb + 2g.35gb x 2 on the 22.05 lab's H200, 3g.90gb + 2g.45gb x 2 on the 24.11 lab's B200.
        const QString model = gpu0.value(QLatin1String("model")).toString();
        const QString big = model == QLatin1String("B200") ? QStringLiteral("3g.90gb") : QStringLiteral("3g.71gb");
        const QString small = model == QLatin1String("B200") ? QStringLiteral("2g.45gb") : QStringLiteral("2g.35gb");
        QCOMPARE(mig.at(0).toObject().value(QLatin1String("id")).toInt(), 1);
        QCOMPARE(mig.at(0).toObject().value(QLatin1String("profile")).toString(), big);
        QCOMPARE(mig.at(1).toObject().value(QLatin1String("id")).toInt(), 3);
        QCOMPARE(mig.at(1).toObject().value(QLatin1String("profile")).toString(), small);
        QCOMPARE(mig.at(2).toObject().value(QLatin1String("id")).toInt(), 4);
        QCOMPARE(mig.at(2).toObject().value(QLatin1String("profile")).toString(), small);
        QCOMPARE(mig.at(0).toObject().value(QLatin1String("job")).toString(), id);
        double memory = 0;
        for (int k = 0; k < 3; ++k) {
            const QJsonObject inst = mig.at(k).toObject();
            QVERIFY(inst.value(QLatin1String("memUsedMiB")).isDouble());
            memory += inst.value(QLatin1String("memUsedMiB")).toDouble();
            if (k > 0) {
                QVERIFY(inst.value(QLatin1String("job")).isNull()); // free
                QCOMPARE(inst.value(QLatin1String("util")).toDouble(-1), 0.0);
            }
        }
        QCOMPARE(gpu0.value(QLatin1String("memUsedMiB")).toDouble(), memory);
        QCOMPARE(gpu0.value(QLatin1String("job")).toString(), id);
        // 3 of 7 compute slices busy, the rest idle: the GPU's util is the slice-weighted mean.
        const double busy = mig.at(0).toObject().value(QLatin1String("util")).toDouble();
        QCOMPARE(gpu0.value(QLatin1String("util")).toDouble(), busy * 3 / 7);
        QVERIFY(gpusOf(snapshot(), QStringLiteral("gpu-node04")).at(1).toObject().value(QLatin1String("migInstances")).toArray().isEmpty());
    }

    // gpu-node03's exporter sends DCGM "not supported" codes for HBM temperature, remapped rows
    // and tensor activity: missing values, never readings, never findings.
    void blankCodesAreMissing()
    {
        const QJsonObject s = snapshot();
        const QJsonArray gpus = gpusOf(s, QStringLiteral("gpu-node03"));
        QCOMPARE(gpus.size(), 8);
        for (const QJsonValue &v : gpus) {
            const QJsonObject g = v.toObject();
            QVERIFY(g.value(QLatin1String("seenByExporter")).toBool());
            QVERIFY(g.value(QLatin1String("tempC")).isDouble()); // a reading
            QVERIFY(g.value(QLatin1String("rowRemapFailure")).isNull());
            QVERIFY(g.value(QLatin1String("uncorrectableRemappedRows")).isNull());
            QVERIFY(g.value(QLatin1String("tensorActive")).isNull());
        }
        for (const QJsonValue &v : s.value(QLatin1String("findings")).toArray())
            QVERIFY2(v.toObject().value(QLatin1String("node")).toString() != QLatin1String("gpu-node03"),
                     qPrintable(v.toObject().value(QLatin1String("message")).toString()));
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
