// GpuHealthRules: each XID code and each threshold rule gives the finding (code, severity,
// what to do) an operator can act on; healthy GPUs give none.
#include "prometheus/gpu_health_rules.h"

#include <QTest>

using namespace strata;
using Severity = Finding::Severity;

Q_DECLARE_METATYPE(strata::Finding::Severity)

namespace {

Gpu gpuWith(int index, void (*fill)(GpuMetrics &))
{
    Gpu g;
    g.index = index;
    g.seenByExporter = true;
    fill(g.metrics);
    return g;
}

} // namespace

class TestGpuHealthRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void xid_data();
    void xid();
    void thresholds_data();
    void thresholds();
    void healthyGpuHasNoFindings();
    void thresholdsAreConfigurable();
};

void TestGpuHealthRules::xid_data()
{
    QTest::addColumn<int>("code");
    QTest::addColumn<Severity>("severity");
    QTest::addColumn<QString>("message");

    QTest::newRow("79 fell off the bus") << 79 << Severity::Critical
        << "gpu-node07 GPU 3: XID 79 (GPU fell off the bus): drain gpu-node07 and reboot it; replace the GPU if it happens again";
    QTest::newRow("48 double-bit ECC") << 48 << Severity::Critical
        << "gpu-node07 GPU 3: XID 48 (double-bit ECC error): drain gpu-node07 and reset GPU 3 (nvidia-smi -r -i 3) once its "
           "jobs have ended; replace it if the error recurs";
    QTest::newRow("63 row remapping pending") << 63 << Severity::Warning
        << "gpu-node07 GPU 3: XID 63 (ECC page retirement or row remapping recorded): reset GPU 3 on gpu-node07 when it is "
           "idle so the remapping takes effect";
    QTest::newRow("64 row remapping failed") << 64 << Severity::Critical
        << "gpu-node07 GPU 3: XID 64 (ECC page retirement or row remapping failed): drain gpu-node07 and replace (RMA) GPU 3";
    QTest::newRow("94 contained ECC") << 94 << Severity::Warning
        << "gpu-node07 GPU 3: XID 94 (contained uncorrectable ECC error (the affected application was stopped)): drain "
           "gpu-node07 and reset GPU 3 when idle; replace it if this recurs";
    QTest::newRow("95 uncontained ECC") << 95 << Severity::Critical
        << "gpu-node07 GPU 3: XID 95 (uncontained uncorrectable ECC error (every application on the GPU is affected)): "
           "drain gpu-node07 now and reset GPU 3 or reboot the node";
    QTest::newRow("13 application") << 13 << Severity::Warning
        << "gpu-node07 GPU 3: XID 13 (graphics engine exception): usually an application error: check the job's output; run "
           "a burn-in on gpu-node07 if it repeats across jobs";
    QTest::newRow("31 application") << 31 << Severity::Warning
        << "gpu-node07 GPU 3: XID 31 (GPU memory page fault): usually an application error (illegal address): check the "
           "job's output; run a burn-in on gpu-node07 if it repeats across jobs";
    QTest::newRow("43 application") << 43 << Severity::Warning
        << "gpu-node07 GPU 3: XID 43 (GPU stopped processing): usually an application error: check the job's output; run a "
           "burn-in on gpu-node07 if it repeats across jobs";
    QTest::newRow("45 cleanup") << 45 << Severity::Warning
        << "gpu-node07 GPU 3: XID 45 (preemptive cleanup after an earlier error): usually follows an application error or a "
           "killed job; look for another XID on GPU 3 of gpu-node07";
    QTest::newRow("74 NVLink") << 74 << Severity::Critical
        << "gpu-node07 GPU 3: XID 74 (NVLink error): drain gpu-node07, check `nvidia-smi nvlink -e`, reset the GPUs; "
           "replace the board if the link errors persist";
    QTest::newRow("119 GSP") << 119 << Severity::Critical
        << "gpu-node07 GPU 3: XID 119 (GSP firmware error): drain gpu-node07 and reset GPU 3 or reboot the node; update the "
           "driver if it recurs";
    QTest::newRow("120 GSP") << 120 << Severity::Critical
        << "gpu-node07 GPU 3: XID 120 (GSP firmware error): drain gpu-node07 and reset GPU 3 or reboot the node; update the "
           "driver if it recurs";
    QTest::newRow("other") << 62 << Severity::Warning
        << "gpu-node07 GPU 3: XID 62 (XID error): look the code up in NVIDIA's XID catalog and run a burn-in on gpu-node07";
}

void TestGpuHealthRules::xid()
{
    QFETCH(int, code);
    QFETCH(Severity, severity);
    QFETCH(QString, message);
    Gpu gpu;
    gpu.index = 3;
    gpu.metrics.xid = code;
    const QVector<Finding> findings = GpuHealthRules::evaluate(QStringLiteral("gpu-node07"), gpu, std::nullopt, HealthThresholds{});
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings[0].code, QStringLiteral("xid-%1").arg(code));
    QCOMPARE(findings[0].severity, severity);
    QCOMPARE(findings[0].node, QStringLiteral("gpu-node07"));
    QCOMPARE(findings[0].gpu, 3);
    QCOMPARE(findings[0].message, message);
    QVERIFY(!findings[0].message.contains(QLatin1Char('{'))); // every placeholder replaced
}

void TestGpuHealthRules::thresholds_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("code"); // empty: no finding
    QTest::addColumn<Severity>("severity");
    QTest::addColumn<QString>("contains");

    QTest::newRow("temp below warning") << "temp" << 84.0 << "" << Severity::Info << "";
    QTest::newRow("temp warning") << "temp" << 85.0 << "gpu-temp-high" << Severity::Warning << "GPU at 85 C (warning limit 85 C)";
    QTest::newRow("temp critical") << "temp" << 93.5 << "gpu-temp-high" << Severity::Critical
                                   << "GPU at 93.5 C (critical limit 90 C): it will throttle";
    QTest::newRow("HBM warning") << "memtemp" << 91.0 << "memory-temp-high" << Severity::Warning << "HBM at 91 C";
    QTest::newRow("HBM critical") << "memtemp" << 96.0 << "memory-temp-high" << Severity::Critical << "critical limit 95 C";
    QTest::newRow("remap failure") << "remapfail" << 1.0 << "row-remap-failure" << Severity::Critical
                                   << "row remapping failed (no spare memory rows left): drain gpu-node07 and replace (RMA)";
    QTest::newRow("no remap failure") << "remapfail" << 0.0 << "" << Severity::Info << "";
    QTest::newRow("uncorrectable rows") << "uncorrectable" << 3.0 << "remapped-rows-uncorrectable" << Severity::Warning
                                        << "3 memory rows remapped after uncorrectable errors: reset the GPU when idle; "
                                           "replace (RMA) it if the count keeps rising";
    QTest::newRow("no uncorrectable rows") << "uncorrectable" << 0.0 << "" << Severity::Info << "";
    QTest::newRow("PCIe replays quiet") << "pcie" << 99.0 << "" << Severity::Info << "";
    QTest::newRow("PCIe replays rising") << "pcie" << 250.4 << "pcie-replays" << Severity::Warning
                                         << "PCIe replays rose by 250 in 10 min: the link is retrying; reseat the GPU";
    QTest::newRow("PCIe replays storm") << "pcie" << 12000.0 << "pcie-replays" << Severity::Critical << "rose by 12000";
    QTest::newRow("NaN temp is no reading") << "temp" << qQNaN() << "" << Severity::Info << "";
    QTest::newRow("XID 0 is none") << "xid" << 0.0 << "" << Severity::Info << "";
}

void TestGpuHealthRules::thresholds()
{
    QFETCH(QString, metric);
    QFETCH(double, value);
    QFETCH(QString, code);
    QFETCH(Severity, severity);
    QFETCH(QString, contains);
    Gpu gpu;
    gpu.index = 5;
    std::optional<double> pcie;
    if (metric == QLatin1String("temp"))
        gpu.metrics.tempC = value;
    else if (metric == QLatin1String("memtemp"))
        gpu.metrics.memoryTempC = value;
    else if (metric == QLatin1String("remapfail"))
        gpu.metrics.rowRemapFailure = value;
    else if (metric == QLatin1String("uncorrectable"))
        gpu.metrics.uncorrectableRemappedRows = value;
    else if (metric == QLatin1String("xid"))
        gpu.metrics.xid = value;
    else
        pcie = value;
    const QVector<Finding> findings = GpuHealthRules::evaluate(QStringLiteral("gpu-node07"), gpu, pcie, HealthThresholds{});
    if (code.isEmpty()) {
        QVERIFY(findings.isEmpty());
        return;
    }
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings[0].code, code);
    QCOMPARE(findings[0].severity, severity);
    QCOMPARE(findings[0].gpu, 5);
    QVERIFY2(findings[0].message.startsWith(QStringLiteral("gpu-node07 GPU 5: ")), qPrintable(findings[0].message));
    QVERIFY2(findings[0].message.contains(contains), qPrintable(findings[0].message));
}

void TestGpuHealthRules::healthyGpuHasNoFindings()
{
    const Gpu gpu = gpuWith(0, [](GpuMetrics &m) {
        m.utilPercent = 99;
        m.tempC = 70;
        m.memoryTempC = 80;
        m.xid = 0;
        m.rowRemapFailure = 0;
        m.uncorrectableRemappedRows = 0;
        m.correctableRemappedRows = 12; // correctable remaps are routine
        m.pcieReplays = 1e6;            // the counter's absolute value says nothing; its rise does
    });
    QVERIFY(GpuHealthRules::evaluate(QStringLiteral("n"), gpu, 0.0, HealthThresholds{}).isEmpty());
    QVERIFY(GpuHealthRules::evaluate(QStringLiteral("n"), Gpu{}, std::nullopt, HealthThresholds{}).isEmpty());
}

void TestGpuHealthRules::thresholdsAreConfigurable()
{
    HealthThresholds t;
    t.gpuTempWarningC = 70;
    t.gpuTempCriticalC = 75;
    const Gpu gpu = gpuWith(1, [](GpuMetrics &m) { m.tempC = 76; });
    const QVector<Finding> findings = GpuHealthRules::evaluate(QStringLiteral("n"), gpu, std::nullopt, t);
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings[0].severity, Severity::Critical);
    QVERIFY(findings[0].message.contains(QStringLiteral("critical limit 75 C")));
}

QTEST_GUILESS_MAIN(TestGpuHealthRules)
#include "tst_gpu_health_rules.moc"
