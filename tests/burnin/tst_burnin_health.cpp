// Judging a GPU's health from NVML readings taken before and after a test, with synthetic
// readings from a stand-in source (no GPU, no driver here; the NVML calls themselves are
// burnin/agent/nvml_library.cpp and run where gpu-check.sh runs).
#include "health_judge.h"

#include <QTest>

#include <functional>
#include <map>

using namespace strata::burn;

namespace {

// The stand-in for NvmlHealthSource: serves queued readings and XIDs per GPU.
class StandInHealthSource final : public HealthSource
{
public:
    std::map<int, std::vector<std::optional<HealthReading>>> readings; // served in order
    std::map<int, std::vector<XidEvent>> xids;
    int reads = 0;

    std::optional<HealthReading> read(int gpu) override
    {
        ++reads;
        auto &queue = readings[gpu];
        if (queue.empty())
            return std::nullopt;
        std::optional<HealthReading> r = queue.front();
        queue.erase(queue.begin());
        return r;
    }
    std::vector<XidEvent> takeXids(int gpu) override
    {
        std::vector<XidEvent> x;
        x.swap(xids[gpu]);
        return x;
    }
};

// An H100 as NVML reports a healthy one.
HealthReading healthy()
{
    HealthReading h;
    h.eccVolatileCorrected = 3;
    h.eccVolatileUncorrected = 0;
    h.eccAggregateUncorrected = 0;
    h.retirementPending = false;
    h.remappedRowsCorrectable = 0;
    h.remappedRowsUncorrectable = 0;
    h.remapPending = false;
    h.remapFailed = false;
    h.pcieGen = 5;
    h.pcieMaxGen = 5;
    h.pcieWidth = 16;
    h.pcieMaxWidth = 16;
    h.pcieReplays = 0;
    h.smClockMHz = 1980;
    h.smMaxClockMHz = 1980;
    return h;
}

using Change = std::function<void(HealthReading &)>;

} // namespace

Q_DECLARE_METATYPE(Change)

class TestBurninHealth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void judge_data();
    void judge();
    void xidsDuringTheTestFail();
    void pcieBandwidthAgainstTheLink_data();
    void pcieBandwidthAgainstTheLink();
    void unsupportedQueriesAreNotJudged();
    void watchDropsEarlierXidsAndReadsTwice();
    void noSourceJudgesNothing();
};

void TestBurninHealth::judge_data()
{
    QTest::addColumn<Change>("after");
    QTest::addColumn<bool>("linkUnderLoad");
    QTest::addColumn<QList<int>>("issues");
    QTest::addColumn<QStringList>("reasons");
    QTest::newRow("healthy") << Change([](HealthReading &) {}) << true << QList<int>{} << QStringList{};
    QTest::newRow("a few correctable ECC errors are normal")
        << Change([](HealthReading &h) { h.eccVolatileCorrected = 50; }) << false << QList<int>{} << QStringList{};
    QTest::newRow("correctable ECC burst")
        << Change([](HealthReading &h) { h.eccVolatileCorrected = 3 + 101; }) << false
        << QList<int>{int(HealthIssue::EccCorrectedBurst)}
        << QStringList{"101 correctable ECC errors during the test (more than 100)"};
    QTest::newRow("uncorrectable ECC")
        << Change([](HealthReading &h) { h.eccVolatileUncorrected = 2; }) << false
        << QList<int>{int(HealthIssue::EccUncorrected)} << QStringList{"2 uncorrectable ECC errors during the test"};
    QTest::newRow("page retirement pending")
        << Change([](HealthReading &h) { h.retirementPending = true; }) << false
        << QList<int>{int(HealthIssue::RetirementPending)}
        << QStringList{"a retired page is pending: reset the GPU before use"};
    QTest::newRow("row remap pending and rows remapped")
        << Change([](HealthReading &h) {
               h.remapPending = true;
               h.remappedRowsUncorrectable = 1;
           })
        << false << QList<int>{int(HealthIssue::RemapPending), int(HealthIssue::RemappedRowsGrew)}
        << QStringList{"a row remapping is pending: reset the GPU before use",
                       "1 rows remapped for uncorrectable errors during the test"};
    QTest::newRow("row remap failed")
        << Change([](HealthReading &h) { h.remapFailed = true; }) << false << QList<int>{int(HealthIssue::RemapFailed)}
        << QStringList{"row remapping failed: no spare rows left, replace the GPU"};
    QTest::newRow("PCIe width x8 of x16")
        << Change([](HealthReading &h) { h.pcieWidth = 8; }) << false << QList<int>{int(HealthIssue::PcieLinkDegraded)}
        << QStringList{"PCIe link width x8, the device supports x16"};
    QTest::newRow("PCIe Gen3 under load")
        << Change([](HealthReading &h) { h.pcieGen = 3; }) << true << QList<int>{int(HealthIssue::PcieLinkDegraded)}
        << QStringList{"PCIe link at Gen3 under load, the device supports Gen5"};
    QTest::newRow("PCIe Gen1 when idle is power saving")
        << Change([](HealthReading &h) { h.pcieGen = 1; }) << false << QList<int>{} << QStringList{};
    QTest::newRow("PCIe replays")
        << Change([](HealthReading &h) { h.pcieReplays = 500; }) << false << QList<int>{int(HealthIssue::PcieReplays)}
        << QStringList{"500 PCIe replays during the test (more than 100)"};
}

void TestBurninHealth::judge()
{
    QFETCH(Change, after);
    QFETCH(bool, linkUnderLoad);
    QFETCH(QList<int>, issues);
    QFETCH(QStringList, reasons);
    HealthReading a = healthy();
    after(a);
    const auto findings = judgeHealth(healthy(), a, {}, {linkUnderLoad, {}, {}});
    QList<int> gotIssues;
    QStringList gotReasons;
    for (const HealthFinding &f : findings) {
        gotIssues << int(f.issue);
        gotReasons << QString::fromStdString(f.reason);
    }
    QCOMPARE(gotIssues, issues);
    QCOMPARE(gotReasons, reasons);
}

void TestBurninHealth::pcieBandwidthAgainstTheLink_data()
{
    QTest::addColumn<unsigned>("gen");
    QTest::addColumn<unsigned>("width");
    QTest::addColumn<double>("h2d");
    QTest::addColumn<double>("d2h");
    QTest::addColumn<QStringList>("reasons");
    // Healthy figures: H100 on Gen5 x16 ~54 of 63 GB/s, A100 on Gen4 x16 ~25 of 31.5.
    QTest::newRow("H100 Gen5 x16 healthy") << 5u << 16u << 54.0 << 55.0 << QStringList{};
    QTest::newRow("A100 Gen4 x16 healthy") << 4u << 16u << 25.0 << 26.0 << QStringList{};
    QTest::newRow("Gen5 GPU at Gen4 speed") << 5u << 16u << 26.0 << 54.0
        << QStringList{"PCIe host to GPU 26.0 GB/s is below 70 % of the Gen5 x16 link's 63.0 GB/s"};
    QTest::newRow("both directions slow") << 4u << 16u << 12.0 << 11.0
        << QStringList{"PCIe host to GPU 12.0 GB/s is below 70 % of the Gen4 x16 link's 31.5 GB/s",
                       "PCIe GPU to host 11.0 GB/s is below 70 % of the Gen4 x16 link's 31.5 GB/s"};
}

void TestBurninHealth::pcieBandwidthAgainstTheLink()
{
    QFETCH(unsigned, gen);
    QFETCH(unsigned, width);
    QFETCH(double, h2d);
    QFETCH(double, d2h);
    QFETCH(QStringList, reasons);
    QCOMPARE(qRound(pcieLinkGBps(5, 16) * 10), 630);
    QCOMPARE(qRound(pcieLinkGBps(4, 16) * 10), 315);
    QCOMPARE(pcieLinkGBps(9, 16), 0.0);
    HealthReading a = healthy();
    a.pcieGen = a.pcieMaxGen = gen;
    a.pcieWidth = a.pcieMaxWidth = width;
    HealthContext context;
    context.linkUnderLoad = true;
    context.hostToDeviceGBps = h2d;
    context.deviceToHostGBps = d2h;
    QStringList got;
    for (const HealthFinding &f : judgeHealth(a, a, {}, context)) {
        QCOMPARE(f.issue, HealthIssue::PcieBandwidthLow);
        got << QString::fromStdString(f.reason);
    }
    QCOMPARE(got, reasons);
    // No maximum known (NVML without the query): nothing to judge against.
    a.pcieMaxGen.reset();
    QVERIFY(judgeHealth(a, a, {}, context).empty());
}

void TestBurninHealth::xidsDuringTheTestFail()
{
    const auto findings = judgeHealth(healthy(), healthy(), {{79, 0}, {48, 0}, {999, 0}}, {});
    QCOMPARE(findings.size(), std::size_t(1));
    QCOMPARE(findings[0].issue, HealthIssue::Xid);
    QCOMPARE(QString::fromStdString(findings[0].reason),
             QString("XID 79 (GPU has fallen off the bus), 48 (double-bit ECC error), 999 during the test"));
}

void TestBurninHealth::unsupportedQueriesAreNotJudged()
{
    // A GPU without ECC or row remapping (empty fields), or a reading that failed (nullopt):
    // nothing is judged rather than guessed.
    HealthReading bare;
    QVERIFY(judgeHealth(bare, bare, {}, {true, {}, {}}).empty());
    QVERIFY(judgeHealth(std::nullopt, healthy(), {}, {true, {}, {}}).empty());
    HealthReading worse = healthy();
    worse.eccVolatileUncorrected = 7;
    QVERIFY(judgeHealth(std::nullopt, worse, {}, {}).empty()); // no "before": growth unknown
    worse.remapFailed = true; // a state, not a growth: judged from "after" alone
    QCOMPARE(judgeHealth(std::nullopt, worse, {}, {}).size(), std::size_t(1));
}

void TestBurninHealth::watchDropsEarlierXidsAndReadsTwice()
{
    StandInHealthSource source;
    HealthReading after = healthy();
    after.eccVolatileUncorrected = 1;
    source.readings[2] = {healthy(), after};
    source.xids[2] = {{13, 0}}; // from before the test: not this test's
    HealthWatch watch(&source, 2);
    watch.begin();
    source.xids[2] = {{94, 0}}; // during the test
    const auto findings = watch.end({});
    QCOMPARE(source.reads, 2);
    QCOMPARE(findings.size(), std::size_t(2));
    QCOMPARE(findings[0].issue, HealthIssue::EccUncorrected);
    QCOMPARE(QString::fromStdString(findings[1].reason), QString("XID 94 (contained ECC error) during the test"));
}

void TestBurninHealth::noSourceJudgesNothing()
{
    HealthWatch watch(nullptr, 0);
    watch.begin();
    QVERIFY(watch.end({true, {}, {}}).empty());
}

QTEST_GUILESS_MAIN(TestBurninHealth)
#include "tst_burnin_health.moc"
