// The DCGM stand-in's values: busy where a holder is, idle elsewhere, faults applied, stable
// identities, the fault file format lab/lab writes, and the exposition it renders.
#include "gpu_fault_file.h"
#include "gpu_simulator.h"
#include "merged_metrics.h"
#include "node_metrics.h"

#include <prometheus/text_serializer.h>

#include <QSet>
#include <QTest>

#include <cmath>

using namespace strata::lab;

class TestGpuSimulator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void busyAndIdle();
    void faults_data();
    void faults();
    void slowWorksAHeldGpuAtItsShare();
    void askedUtilisationShowsWithinTwo_data();
    void askedUtilisationShowsWithinTwo();
    void nvlinkErrorsRaiseOneGpusReplayCounter();
    void missingAndIdentity();
    void countersIntegrate();
    void faultFile_data();
    void faultFile();
    void exposition();
    void sharedEndpointExposition();
    void operatorStyleNamesPods();
    void blankValuesUnlessFaulted();
    void migInstances();
    void styleOptions_data();
    void styleOptions();
};

namespace {
NodeSpec node(const char *name, const char *model)
{
    NodeSpec spec;
    spec.name = QString::fromLatin1(name);
    spec.model = findGpuModel(QString::fromLatin1(model));
    spec.host = QStringLiteral("127.0.0.1");
    spec.port = 1;
    return spec;
}
double value(const GpuSample &s, DcgmField f)
{
    return s.values[static_cast<std::size_t>(f)];
}
} // namespace

void TestGpuSimulator::busyAndIdle()
{
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node03", "h200");
    GpuHolders holders;
    holders[GpuKey{n.name, 2}] = GpuHolder{{{"hpc_job", "42"}}, {}, -1, false};
    for (qint64 t = 1000; t < 60000; t += 2000) {
        const auto samples = sim.sample(n, holders, {}, t);
        QCOMPARE(samples.size(), std::size_t(8));
        for (const GpuSample &s : samples) {
            const bool busy = s.index == 2;
            const double util = value(s, DcgmField::GpuUtil);
            const double power = value(s, DcgmField::PowerUsage);
            const double temp = value(s, DcgmField::GpuTemp);
            const double tensor = value(s, DcgmField::PipeTensorActive);
            const double used = value(s, DcgmField::FbUsed);
            if (busy) {
                QVERIFY2(util >= 85 && util <= 100, qPrintable(QString::number(util)));
                QVERIFY(power >= 550 && power <= 650);
                QVERIFY(temp >= 60 && temp <= 75);
                QVERIFY(tensor >= 0.6 && tensor <= 0.9);
                QVERIFY(used > 0.8 * 143771);
                QCOMPARE(s.holderLabels.size(), std::size_t(1));
                QCOMPARE(s.holderLabels[0].second, std::string("42"));
            } else {
                QCOMPARE(util, 0.0);
                QVERIFY(power >= 60 && power <= 80);
                QVERIFY(temp >= 30 && temp <= 38);
                QCOMPARE(tensor, 0.0);
                QCOMPARE(used, 0.0);
                QVERIFY(s.holderLabels.empty());
            }
            QCOMPARE(value(s, DcgmField::FbUsed) + value(s, DcgmField::FbFree), 143771.0 - 550);
            QCOMPARE(value(s, DcgmField::XidErrors), 0.0);
        }
    }
}

void TestGpuSimulator::faults_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("faultValue");
    QTest::addColumn<int>("field");
    QTest::addColumn<double>("expected");
    QTest::newRow("xid 79") << int(GpuFault::Kind::Xid) << 79.0 << int(DcgmField::XidErrors) << 79.0;
    QTest::newRow("hot 95") << int(GpuFault::Kind::Hot) << 95.0 << int(DcgmField::GpuTemp) << 95.0;
    QTest::newRow("remap failure") << int(GpuFault::Kind::RemapFailure) << 0.0
                                   << int(DcgmField::RowRemapFailure) << 1.0;
    QTest::newRow("uncorrectable 3") << int(GpuFault::Kind::Uncorrectable) << 3.0
                                     << int(DcgmField::UncorrectableRemappedRows) << 3.0;
}

void TestGpuSimulator::faults()
{
    QFETCH(int, kind);
    QFETCH(double, faultValue);
    QFETCH(int, field);
    QFETCH(double, expected);
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node01", "h100");
    const std::vector<GpuFault> faults{{n.name, 5, GpuFault::Kind(kind), faultValue, {}, -1}};
    for (const GpuSample &s : sim.sample(n, {}, faults, 1000)) {
        const double v = value(s, DcgmField(field));
        if (s.index == 5)
            QCOMPARE(v, expected);
        else
            QVERIFY2(v != expected, "a fault leaked to another GPU");
    }
}

void TestGpuSimulator::nvlinkErrorsRaiseOneGpusReplayCounter()
{
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node03", "h100");
    NodeMetrics metrics({"Hostname", "gpu-node03", n.model->modelName, "550.127.05"});
    auto replays = [&](const std::vector<GpuSample> &samples, int gpu) { return value(samples[gpu], DcgmField::NvlinkReplayErrorCountTotal); };
    // No fault: no GPU exports the counter, and the exposition has no such family.
    std::vector<GpuSample> s = sim.sample(n, {}, {}, 1000);
    QVERIFY(std::isnan(replays(s, 2)));
    metrics.publish(s);
    QCOMPARE(int(metrics.Collect().size()), 21);
    // GPU 2 retries 5 times a second: its counter appears at 0, then rises with the time.
    const std::vector<GpuFault> faults{{n.name, 2, GpuFault::Kind::NvlinkErrors, 5, {}, -1}};
    s = sim.sample(n, {}, faults, 2000);
    QCOMPARE(replays(s, 2), 0.0);
    QVERIFY(std::isnan(replays(s, 3)));
    s = sim.sample(n, {}, faults, 12000);
    QCOMPARE(replays(s, 2), 50.0);
    metrics.publish(s);
    const auto families = metrics.Collect();
    QCOMPARE(int(families.size()), 22);
    QCOMPARE(families.back().name, std::string("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL"));
    QCOMPARE(int(families.back().metric.size()), 1);
    QCOMPARE(families.back().metric[0].counter.value, 50.0);
    // Cleared: the counter stays where it got to, as a real one does.
    s = sim.sample(n, {}, {}, 22000);
    QCOMPARE(replays(s, 2), 50.0);
}

void TestGpuSimulator::slowWorksAHeldGpuAtItsShare()
{
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node03", "h100");
    GpuHolders holders;
    for (int i = 0; i < 8; ++i)
        holders[GpuKey{n.name, i}] = GpuHolder{{{"hpc_job", "7"}}, {}, -1, false};
    // GPU 5 slow at 30 %, GPU 6 slow but idle: only a held GPU slows down.
    holders.erase(GpuKey{n.name, 6});
    const std::vector<GpuFault> faults{{n.name, 5, GpuFault::Kind::Slow, 30, {}, -1}, {n.name, 6, GpuFault::Kind::Slow, 30, {}, -1}};
    for (const GpuSample &s : sim.sample(n, holders, faults, 1000)) {
        const double util = value(s, DcgmField::GpuUtil);
        if (s.index == 5) {
            QCOMPARE(util, 30.0);
            QCOMPARE(value(s, DcgmField::GrEngineActive), 0.3);
            QVERIFY(value(s, DcgmField::PowerUsage) < 300);
        } else if (s.index == 6) {
            QCOMPARE(util, 0.0);
        } else {
            QVERIFY2(util >= 85, qPrintable(QString::number(util)));
        }
    }
}

void TestGpuSimulator::askedUtilisationShowsWithinTwo_data()
{
    QTest::addColumn<int>("asked");
    QTest::addColumn<double>("powerLow");
    QTest::addColumn<double>("powerHigh");
    QTest::newRow("idle job") << 0 << 65.0 << 75.0;
    QTest::newRow("30 %") << 30 << 224.0 << 234.0;
    QTest::newRow("full") << 100 << 595.0 << 605.0;
}

// A job that asked for N % (--comment=strata-lab-gpu-util=N): its GPUs show N +-2 (within
// 0..100), power 70 + 530 W x N/100 +-5, memory still held; a GPU it does not hold stays idle.
void TestGpuSimulator::askedUtilisationShowsWithinTwo()
{
    QFETCH(int, asked);
    QFETCH(double, powerLow);
    QFETCH(double, powerHigh);
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node01", "h100");
    GpuHolders holders;
    GpuHolder holder{{{"hpc_job", "9"}}, "9", asked};
    holders[GpuKey{n.name, 1}] = holder;
    QSet<int> seen;
    for (qint64 t = 1000; t < 400000; t += 2000) {
        for (const GpuSample &s : sim.sample(n, holders, {}, t)) {
            const double util = value(s, DcgmField::GpuUtil);
            if (s.index != 1) {
                QCOMPARE(util, 0.0);
                continue;
            }
            QVERIFY2(util >= std::max(0, asked - 2) && util <= std::min(100, asked + 2),
                     qPrintable(QString::number(util)));
            seen.insert(int(util));
            const double power = value(s, DcgmField::PowerUsage);
            QVERIFY2(power >= powerLow && power <= powerHigh, qPrintable(QString::number(power)));
            QVERIFY(value(s, DcgmField::FbUsed) > 0.8 * 80000);
        }
    }
    // It jitters over the whole band that 0..100 leaves it.
    QCOMPARE(seen.size(), qsizetype(std::min(100, asked + 2) - std::max(0, asked - 2) + 1));
}

void TestGpuSimulator::missingAndIdentity()
{
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node02", "h100");
    const auto samples = sim.sample(n, {}, {{n.name, 4, GpuFault::Kind::Missing, 0, {}, -1}}, 1000);
    QCOMPARE(samples.size(), std::size_t(7));
    for (const GpuSample &s : samples)
        QVERIFY(s.index != 4);
    QCOMPARE(GpuSimulator::uuidFor(n.name, 3), GpuSimulator::uuidFor(n.name, 3));
    QVERIFY(GpuSimulator::uuidFor(n.name, 3) != GpuSimulator::uuidFor(n.name, 4));
    QVERIFY(GpuSimulator::uuidFor(n.name, 3) != GpuSimulator::uuidFor(QStringLiteral("gpu-node01"), 3));
    QCOMPARE(GpuSimulator::uuidFor(n.name, 3).size(), std::size_t(40)); // GPU- + 36-char UUID
    QCOMPARE(GpuSimulator::pciBusIdFor(0), std::string("00000000:53:00.0"));
    // moved-from: the GPU reports the moved card's UUID, the others keep their own.
    GpuFault moved{n.name, 5, GpuFault::Kind::MovedFrom, 0, {}, -1};
    moved.fromNode = QStringLiteral("gpu-node03");
    moved.fromGpu = 3;
    const auto after = sim.sample(n, {}, {moved}, 1000);
    QCOMPARE(after[5].uuid, GpuSimulator::uuidFor(QStringLiteral("gpu-node03"), 3));
    QCOMPARE(after[4].uuid, GpuSimulator::uuidFor(n.name, 4));
}

void TestGpuSimulator::countersIntegrate()
{
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node01", "h100");
    GpuHolders holders;
    holders[GpuKey{n.name, 0}] = GpuHolder{};
    const double e0 = value(sim.sample(n, holders, {}, 10000)[0], DcgmField::TotalEnergyConsumption);
    const auto later = sim.sample(n, holders, {}, 12000)[0];
    const double e1 = value(later, DcgmField::TotalEnergyConsumption);
    // Two seconds at 550-650 W is 1.1-1.3 million mJ.
    QVERIFY2(e1 - e0 >= 1.0e6 && e1 - e0 <= 1.4e6, qPrintable(QString::number(e1 - e0)));
    QVERIFY(value(later, DcgmField::NvlinkBandwidthTotal) > 0);
}

void TestGpuSimulator::faultFile_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("hasError");
    QTest::newRow("as lab/lab writes it")
        << QByteArray(R"({"faults": [{"node": "gpu-node02", "gpu": 3, "kind": "xid", "value": 79.0},
                        {"node": "gpu-node01", "gpu": 0, "kind": "exporter-down"},
                        {"node": "gpu-node03", "gpu": 0, "kind": "nvlink-errors", "value": 5.0},
                        {"node": "gpu-node01", "gpu": 5, "kind": "moved-from", "from": "gpu-node03:3"}]})")
        << 4 << false;
    QTest::newRow("moved-from without from") << QByteArray(R"({"faults": [{"node": "n", "gpu": 1, "kind": "moved-from"}]})")
                                             << 0 << true;
    QTest::newRow("cleared") << QByteArray(R"({"faults": []})") << 0 << false;
    QTest::newRow("unknown kind") << QByteArray(R"({"faults": [{"node": "n", "gpu": 1, "kind": "x"}]})")
                                  << 0 << true;
    QTest::newRow("not JSON") << QByteArray("{\"faults\": [") << 0 << true;
}

void TestGpuSimulator::faultFile()
{
    QFETCH(QByteArray, json);
    QFETCH(int, count);
    QFETCH(bool, hasError);
    const GpuFaultList list = parseGpuFaults(json);
    QCOMPARE(int(list.faults.size()), count);
    QCOMPARE(!list.error.isEmpty(), hasError);
}

void TestGpuSimulator::exposition()
{
    GpuSimulator sim;
    const NodeSpec n = node("gpu-node04", "h200");
    NodeMetrics metrics({"hostname", "gpu-node04", n.model->modelName, "550.127.05"});
    metrics.publish(sim.sample(n, {}, {}, 1000));
    const std::string text = prometheus::TextSerializer().Serialize(metrics.Collect());
    const QString out = QString::fromStdString(text);
    QCOMPARE(out.count(QStringLiteral("\nDCGM_FI_DEV_GPU_UTIL{")), 8);
    QVERIFY(out.contains(QStringLiteral("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter")));
    QVERIFY(out.contains(QStringLiteral("# TYPE DCGM_FI_DEV_GPU_TEMP gauge")));
    QVERIFY(out.contains(QStringLiteral(
        R"(DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID=")")));
    QVERIFY(out.contains(QStringLiteral(
        R"(",pci_bus_id="00000000:53:00.0",device="nvidia0",modelName="NVIDIA H200",hostname="gpu-node04",DCGM_FI_DRIVER_VERSION="550.127.05"} 0)")));
    QCOMPARE(int(metrics.Collect().size()), 21);
}

void TestGpuSimulator::sharedEndpointExposition()
{
    // The scale lab: several nodes behind one endpoint, each family once with all their series.
    GpuSimulator sim;
    const NodeSpec a = node("gpu-cloud0005", "h100");
    const NodeSpec b = node("gpu-cloud0006", "h200");
    auto ma = std::make_shared<NodeMetrics>(NodeMetrics::NodeLabels{"Hostname", "gpu-cloud0005", a.model->modelName, "550.127.05"});
    auto mb = std::make_shared<NodeMetrics>(NodeMetrics::NodeLabels{"Hostname", "gpu-cloud0006", b.model->modelName, "550.127.05"});
    ma->publish(sim.sample(a, {}, {}, 1000));
    mb->publish(sim.sample(b, {}, {}, 1000));
    const MergedMetrics merged({ma, mb});
    const auto families = merged.Collect();
    QCOMPARE(int(families.size()), 21);
    for (const auto &family : families)
        QCOMPARE(int(family.metric.size()), 16);
    const QString out = QString::fromStdString(prometheus::TextSerializer().Serialize(families));
    QCOMPARE(out.count(QStringLiteral("# TYPE DCGM_FI_DEV_GPU_TEMP gauge")), 1);
    QCOMPARE(out.count(QStringLiteral("\nDCGM_FI_DEV_GPU_UTIL{")), 16);
    QCOMPARE(out.count(QStringLiteral(R"(modelName="NVIDIA H100 80GB HBM3",Hostname="gpu-cloud0005")")), 21 * 8);
    QCOMPARE(out.count(QStringLiteral(R"(modelName="NVIDIA H200",Hostname="gpu-cloud0006")")), 21 * 8);
}

void TestGpuSimulator::operatorStyleNamesPods()
{
    GpuSimulator sim;
    NodeSpec n = node("gpu-node02", "h100");
    n.style.kubernetesWorkload = true;
    GpuHolders holders;
    holders[GpuKey{n.name, 1}] = GpuHolder{{{"hpc_job", "77"}}, "77"};
    const auto samples = sim.sample(n, holders, {}, 1000);
    using Labels = std::vector<std::pair<std::string, std::string>>;
    QCOMPARE(samples[1].holderLabels, (Labels{{"pod", "77"}, {"container", "main"}}));
    QVERIFY(samples[0].holderLabels.empty());
}

void TestGpuSimulator::blankValuesUnlessFaulted()
{
    GpuSimulator sim;
    NodeSpec n = node("gpu-node03", "h200");
    n.style.blankValues = true;
    const std::vector<GpuFault> faults = {{QStringLiteral("gpu-node03"), 2, GpuFault::Kind::Hot, 95, {}, -1}};
    const auto samples = sim.sample(n, {}, faults, 1000);
    QCOMPARE(value(samples[0], DcgmField::MemoryTemp), 2147483647.0);
    QCOMPARE(value(samples[0], DcgmField::RowRemapFailure), 9223372036854775794.0);
    QCOMPARE(value(samples[0], DcgmField::UncorrectableRemappedRows), 9223372036854775794.0);
    QCOMPARE(value(samples[0], DcgmField::PipeTensorActive), 140737488355330.0);
    QVERIFY(value(samples[0], DcgmField::GpuTemp) < 40); // a reading
    QCOMPARE(value(samples[2], DcgmField::MemoryTemp), 100.0); // the fault's
}

void TestGpuSimulator::migInstances()
{
    GpuSimulator sim;
    NodeSpec n = node("gpu-node04", "h200");
    QString error;
    QVERIFY2(n.style.addMig(QStringLiteral("0=3g.71gb+2g.35gb+2g.35gb"), &error), qPrintable(error));
    GpuHolders holders;
    holders[GpuKey{n.name, 0}] = GpuHolder{{{"hpc_job", "9"}}, "9"};
    const auto samples = sim.sample(n, holders, {}, 1000);
    QCOMPARE(samples.size(), std::size_t(10)); // 3 instances of GPU 0, GPUs 1-7 whole
    QCOMPARE(samples[0].migInstance, 1);
    QCOMPARE(samples[0].migProfile, std::string("3g.71gb"));
    QCOMPARE(samples[1].migInstance, 3);
    QCOMPARE(samples[2].migInstance, 4);
    QCOMPARE(samples[2].migProfile, std::string("2g.35gb"));
    QCOMPARE(samples[3].migInstance, -1);
    QCOMPARE(samples[3].index, 1);
    for (int k = 0; k < 3; ++k) {
        QCOMPARE(samples[k].index, 0);
        QCOMPARE(samples[k].uuid, samples[0].uuid);
        QVERIFY(std::isnan(value(samples[k], DcgmField::GpuUtil)));
        QCOMPARE(value(samples[k], DcgmField::GpuTemp), value(samples[0], DcgmField::GpuTemp)); // the GPU's
        QCOMPARE(value(samples[k], DcgmField::FbUsed) + value(samples[k], DcgmField::FbFree),
                 (k == 0 ? 71 : 35) * 1024.0);
    }
    QCOMPARE(samples[0].holderLabels.size(), std::size_t(1)); // the job uses the first instance
    QVERIFY(value(samples[0], DcgmField::GrEngineActive) > 0.8);
    QVERIFY(value(samples[0], DcgmField::FbUsed) > 60000);
    QVERIFY(samples[1].holderLabels.empty());
    QCOMPARE(value(samples[1], DcgmField::GrEngineActive), 0.0);
    QCOMPARE(value(samples[1], DcgmField::FbUsed), 0.0);

    NodeMetrics metrics({"Hostname", "gpu-node04", n.model->modelName, "550.127.05"});
    metrics.publish(samples);
    const QString out = QString::fromStdString(prometheus::TextSerializer().Serialize(metrics.Collect()));
    QCOMPARE(out.count(QStringLiteral("\nDCGM_FI_DEV_GPU_UTIL{")), 7); // none for the instances
    QCOMPARE(out.count(QStringLiteral("\nDCGM_FI_DEV_FB_USED{")), 10);
    QVERIFY(out.contains(QStringLiteral(
        R"(device="nvidia0",modelName="NVIDIA H200",GPU_I_PROFILE="2g.35gb",GPU_I_ID="4",Hostname="gpu-node04",)")));
}

void TestGpuSimulator::styleOptions_data()
{
    QTest::addColumn<QString>("styles");
    QTest::addColumn<QString>("mig");
    QTest::addColumn<bool>("ok");
    QTest::newRow("all styles") << "classic,hostname,pod-hostname,operator,hpc-job,blank-values" << "" << true;
    QTest::newRow("unknown style") << "hostname,fancy" << "" << false;
    QTest::newRow("mig") << "" << "1=1g.10gb+1g.10gb" << true;
    QTest::newRow("mig without GPU") << "" << "3g.40gb" << false;
    QTest::newRow("mig bad profile") << "" << "0=3g+1g" << false;
}

void TestGpuSimulator::styleOptions()
{
    QFETCH(QString, styles);
    QFETCH(QString, mig);
    QFETCH(bool, ok);
    ExporterStyle style;
    QString error;
    const bool parsed = mig.isEmpty() ? style.addStyles(styles, &error) : style.addMig(mig, &error);
    QCOMPARE(parsed, ok);
    QCOMPARE(error.isEmpty(), ok);
}

QTEST_GUILESS_MAIN(TestGpuSimulator)
#include "tst_gpu_simulator.moc"
