// BurninJudge on captured CPU-agent runs (tests/data/burnin) and on constructed CUDA results,
// which exercise the catalog's per-model floors and telemetry limits.
#include "burnin/burnin_judge.h"
#include "captured_burnin_run.h"
#include "burnin/burnin_protocol_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QVector<BurninNodeRun> runsFromFiles(const QStringList &files)
{
    QVector<BurninNodeRun> runs;
    for (const QString &file : files) {
        const QString node = file.section('-', 1, 2); // cpu-gpu-node01-... -> gpu-node01
        runs << capturedRun(node, file);
    }
    return runs;
}

// A catalog whose floors make the issue's example figures land where it says.
GpuCatalog testCatalog()
{
    QString error;
    const GpuCatalog c = GpuCatalog::fromJson(R"({"gpus":[
        {"model":"H100","name":"NVIDIA H100 SXM","gresTypes":["h100"],"productNames":["NVIDIA H100 80GB HBM3"],
         "bf16PetaFlops":0.989,"hbmTBps":3.35,
         "burnin":{"gemmFloorTflops":200,"ownGemmFloorTflops":150,"hbmFloorTBps":2.5,"peerFraction":0.9,"minSmClockMHz":1500,"maxTempC":87}},
        {"model":"H200","name":"NVIDIA H200","gresTypes":["h200"],"productNames":["NVIDIA H200"],
         "bf16PetaFlops":0.989,"hbmTBps":4.8,
         "burnin":{"gemmFloorTflops":600,"hbmFloorTBps":3.6,"peerFraction":0.9,"minSmClockMHz":1500,"maxTempC":87}}]})",
                                              &error);
    if (!error.isEmpty())
        qFatal("%s", qPrintable(error));
    return c;
}

struct FakeGpu
{
    double tflops;
    double copyTBps;
    std::optional<BurninTelemetrySummary> telemetry;
};

// A node run built field by field (no GPU here to capture one from).
BurninNodeRun nodeRun(const QString &backend, const QString &node, const QString &name, const QVector<FakeGpu> &gpus)
{
    BurninNodeRun run;
    run.node = node;
    BurninStart start;
    start.backend = backend;
    start.host = node;
    start.tests = {"gemm", "hbm"};
    for (int i = 0; i < gpus.size(); ++i) {
        BurninGpuInfo info;
        info.index = i;
        info.uuid = QStringLiteral("GPU-%1-%2").arg(node).arg(i);
        info.name = name;
        start.gpus << info;
        BurninResult gemm;
        gemm.gpu = i;
        gemm.uuid = info.uuid;
        gemm.test = "gemm";
        gemm.backend = backend;
        gemm.passed = true;
        gemm.tflops = gpus[i].tflops;
        gemm.mismatches = 0;
        gemm.telemetry = gpus[i].telemetry;
        BurninResult hbm = gemm;
        hbm.test = "hbm";
        hbm.tflops.reset();
        hbm.copyTBps = gpus[i].copyTBps;
        hbm.bitErrors = 0;
        run.results << gemm << hbm;
    }
    run.start = start;
    run.summary = BurninSummary{{}, true, 0, 1};
    return run;
}

BurninNodeRun cudaRun(const QString &node, const QString &name, const QVector<FakeGpu> &gpus)
{
    return nodeRun("cuda", node, name, gpus);
}

BurninTelemetrySummary telemetry(double meanClock, double maxTemp, QStringList reasons = {})
{
    BurninTelemetrySummary t;
    t.samples = 10;
    t.meanSmClockMHz = meanClock;
    t.minSmClockMHz = meanClock;
    t.maxTempC = maxTemp;
    t.throttleReasons = reasons;
    return t;
}

} // namespace

class TestBurninJudge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void capturedRuns_data();
    void capturedRuns();
    void truncatedOutputFails();
    void peerFractionMessage();
    void simulatedDevicesArePeersOnlyOnTheirNode();
    void catalogFloorsAndTelemetry_data();
    void catalogFloorsAndTelemetry();
    void modelsAreComparedWithTheirOwnKind();
    void fp8IsJudgedAtTwiceTheBf16Rates();
    void ownKernelHasItsOwnFloorAndPeers();
    void errorAndSkippedResults();
    void launchErrorIsAProblem();
    void drainReasonIsTheNodesOwn();
};

void TestBurninJudge::capturedRuns_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QStringList>("expectedNodes"); // node=count
    QTest::addColumn<bool>("passed");
    QTest::addColumn<QStringList>("failedNodes");
    QTest::addColumn<QStringList>("reasons");       // substrings of the verdict's reasons/problems
    QTest::newRow("two nodes pass")
        << QStringList{"cpu-gpu-node01-pass.jsonl", "cpu-gpu-node02-pass.jsonl"}
        << QStringList{"gpu-node01=8", "gpu-node02=8"} << true << QStringList{} << QStringList{};
    QTest::newRow("bit flip on gpu-node03 GPU 3")
        << QStringList{"cpu-gpu-node02-pass.jsonl", "cpu-gpu-node03-inject-bitflip-3.jsonl"}
        << QStringList{"gpu-node02=8", "gpu-node03=8"} << false << QStringList{"gpu-node03"}
        << QStringList{"gpu-node03 GPU 3 gemm: 1 mismatches in repeated GEMM: silent data corruption",
                       "gpu-node03 GPU 3 hbm: 1 bit errors in 1 words of the memory pattern test"};
    QTest::newRow("slow gpu-node04 GPU 5")
        << QStringList{"cpu-gpu-node04-inject-slow-5.jsonl"} << QStringList{"gpu-node04=8"} << false
        << QStringList{"gpu-node04"}
        << QStringList{"gpu-node04 GPU 5 gemm: ", "of the best device on this node", "; needs 30%",
                       "gpu-node04 GPU 5 hbm: copy bandwidth "};
    QTest::newRow("fewer GPUs than expected")
        << QStringList{"cpu-gpu-node02-pass.jsonl"} << QStringList{"gpu-node02=10"} << false
        << QStringList{"gpu-node02"} << QStringList{"gpu-node02: 8 of 10 expected GPUs reported"};
    QTest::newRow("a node never answered")
        << QStringList{"cpu-gpu-node02-pass.jsonl"} << QStringList{"gpu-node02=8", "gpu-node09=8"} << false
        << QStringList{"gpu-node09"} << QStringList{"gpu-node09: no output from the agent"};
}

void TestBurninJudge::capturedRuns()
{
    QFETCH(QStringList, files);
    QFETCH(QStringList, expectedNodes);
    QFETCH(bool, passed);
    QFETCH(QStringList, failedNodes);
    QFETCH(QStringList, reasons);
    BurninExpectation expectation;
    for (const QString &e : expectedNodes)
        expectation.gpusByNode[e.section('=', 0, 0)] = e.section('=', 1).toInt();
    const BurninVerdict v = BurninJudge::judge(runsFromFiles(files), GpuCatalog::builtIn(), expectation);
    QStringList all = v.problems;
    for (const BurninGpuVerdict &g : v.gpus)
        all << g.reasons;
    QCOMPARE(v.passed, passed);
    QVERIFY2(v.passed || !all.isEmpty(), "a failing verdict says why");
    QCOMPARE(v.failedNodes(), failedNodes);
    for (const QString &r : reasons)
        QVERIFY2(all.join('\n').contains(r), qPrintable(all.join('\n')));
    // Simulated devices: floors do not apply and the verdict says so.
    QVERIFY(v.notes.join(' ').contains("backend cpu"));
    for (const BurninGpuVerdict &g : v.gpus) {
        QCOMPARE(g.backend, QString("cpu"));
        QVERIFY(g.test("gemm") && g.test("gemm")->figure);
        QVERIFY(!g.test("gemm")->pctOfSpec); // no datasheet for simulated devices
        if (passed)
            QVERIFY2(g.passed, qPrintable(g.reasons.join('\n')));
    }
}

void TestBurninJudge::truncatedOutputFails()
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/burnin/cpu-gpu-node02-pass.jsonl"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    // Keep the start and the first half: the agent was killed mid-run.
    const QByteArray cut = lines.mid(0, lines.size() / 2).join('\n') + "\n";
    const BurninNodeRun run = BurninNodeRun::fromEvents("gpu-node02", BurninProtocolParser::parseAll(cut));
    QVERIFY(run.start && !run.summary);
    const BurninVerdict v = BurninJudge::judge({run}, GpuCatalog::builtIn(), {{{"gpu-node02", 8}}});
    QVERIFY(!v.passed);
    QVERIFY(v.problems.join(' ').contains("gpu-node02: the agent's output ended without a summary"));
    bool missingResult = false;
    for (const BurninGpuVerdict &g : v.gpus)
        missingResult = missingResult || g.reasons.join(' ').contains("no result (the agent stopped before it)");
    QVERIFY(missingResult);
}

void TestBurninJudge::peerFractionMessage()
{
    const BurninNodeRun run = cudaRun("gpu-node02", "NVIDIA H100 80GB HBM3",
                                      {{348.0, 3.0, {}}, {340.0, 3.0, {}}, {345.0, 3.0, {}}, {212.4, 3.0, {}}});
    const BurninVerdict v = BurninJudge::judge({run}, testCatalog(), {{{"gpu-node02", 4}}});
    QVERIFY(!v.passed);
    const BurninGpuVerdict *slow = v.gpu("gpu-node02", 3);
    QVERIFY(slow);
    QCOMPARE(slow->model, QString("H100"));
    QCOMPARE(slow->reasons, QStringList{"gpu-node02 GPU 3 gemm: 212.4 TFLOPS is 61% of the best GPU in this run (348.0); needs 90%"});
    for (int i = 0; i < 3; ++i)
        QVERIFY(v.gpu("gpu-node02", i)->passed);
    QCOMPARE(v.failedNodes(), QStringList{"gpu-node02"});
    QVERIFY(v.notes.isEmpty()); // cuda: floors apply, nothing to note
}

// Two nodes' CPU agents are separate processes that may get very different shares of a loaded
// machine (CI ran one node's 8 simulated devices at a third of the other's): only devices of
// the same node are compared. A slow device among its own node's still fails.
void TestBurninJudge::simulatedDevicesArePeersOnlyOnTheirNode()
{
    const QString sim = "CPU simulated device";
    const BurninNodeRun fast = nodeRun("cpu", "node-a", sim, {{3.0, 0.03, {}}, {2.9, 0.03, {}}});
    const BurninNodeRun starved = nodeRun("cpu", "node-b", sim, {{0.9, 0.01, {}}, {1.0, 0.011, {}}, {0.2, 0.01, {}}});
    const BurninVerdict v = BurninJudge::judge({fast, starved}, GpuCatalog::builtIn(), {{{"node-a", 2}, {"node-b", 3}}});
    QVERIFY(!v.passed);
    QCOMPARE(v.failedNodes(), QStringList{"node-b"});
    QVERIFY(v.gpu("node-a", 0)->passed);
    QVERIFY(v.gpu("node-a", 1)->passed);
    QVERIFY(v.gpu("node-b", 0)->passed);
    QVERIFY(v.gpu("node-b", 1)->passed);
    QCOMPARE(v.gpu("node-b", 2)->reasons,
             QStringList{"node-b GPU 2 gemm: 0.2 TFLOPS is 20% of the best device on this node (1.00); needs 30%"});
    QCOMPARE(v.notes, QStringList{"backend cpu: simulated devices, so the per-model floors, clock and temperature "
                                  "limits do not apply; correctness and the peer fraction (30% of the best device "
                                  "on the same node) do"});
}

void TestBurninJudge::catalogFloorsAndTelemetry_data()
{
    QTest::addColumn<double>("tflops");
    QTest::addColumn<double>("copyTBps");
    QTest::addColumn<double>("meanClock");
    QTest::addColumn<double>("maxTemp");
    QTest::addColumn<QStringList>("throttle");
    QTest::addColumn<QString>("reason"); // empty: passes
    QTest::addColumn<QString>("note");
    QTest::newRow("healthy") << 700.0 << 4.2 << 1980.0 << 70.0 << QStringList{} << "" << "";
    QTest::newRow("below the H200 floor") << 590.0 << 4.2 << 1980.0 << 70.0 << QStringList{}
                                          << "gpu-node01 GPU 1 gemm: 590.0 TFLOPS is below the H200 floor of 600.0" << "";
    QTest::newRow("HBM below floor") << 700.0 << 3.5 << 1980.0 << 70.0 << QStringList{}
                                     << "gpu-node01 GPU 1 hbm: copy bandwidth 3.50 TB/s is below the H200 floor of 3.60" << "";
    QTest::newRow("clock too low") << 700.0 << 4.2 << 1200.0 << 70.0 << QStringList{}
                                   << "gpu-node01 GPU 1 gemm: mean SM clock 1200.0 MHz under load (needs 1500.0 MHz)" << "";
    QTest::newRow("too hot") << 700.0 << 4.2 << 1980.0 << 91.0 << QStringList{}
                             << "gpu-node01 GPU 1 gemm: reached 91.00 °C (limit 87.00 °C)" << "";
    QTest::newRow("thermal throttling") << 700.0 << 4.2 << 1980.0 << 70.0 << QStringList{"sw_thermal", "hw_slowdown"}
                                        << "gpu-node01 GPU 1 gemm: throttled (sw_thermal, hw_slowdown)" << "";
    QTest::newRow("power cap is only a note") << 700.0 << 4.2 << 1980.0 << 70.0 << QStringList{"power_cap"}
                                              << "" << "gpu-node01 GPU 1 gemm: ran at its power cap";
}

void TestBurninJudge::catalogFloorsAndTelemetry()
{
    QFETCH(double, tflops);
    QFETCH(double, copyTBps);
    QFETCH(double, meanClock);
    QFETCH(double, maxTemp);
    QFETCH(QStringList, throttle);
    QFETCH(QString, reason);
    QFETCH(QString, note);
    // GPU 0 sets the peer best at the same figures, so only floors and telemetry can fail GPU 1.
    const BurninNodeRun run = cudaRun("gpu-node01", "NVIDIA H200",
                                      {{tflops, copyTBps, telemetry(1980, 60)},
                                       {tflops, copyTBps, telemetry(meanClock, maxTemp, throttle)}});
    const BurninVerdict v = BurninJudge::judge({run}, testCatalog(), {{{"gpu-node01", 2}}});
    const BurninGpuVerdict *g = v.gpu("gpu-node01", 1);
    QVERIFY(g);
    QCOMPARE(g->model, QString("H200"));
    QCOMPARE(qRound(*g->test("gemm")->pctOfSpec * 10), qRound(1000.0 * tflops / 989.0));
    QCOMPARE(qRound(*g->test("hbm")->pctOfSpec * 10), qRound(1000.0 * copyTBps / 4.8));
    if (reason.isEmpty()) {
        QVERIFY2(g->passed, qPrintable(g->reasons.join('\n')));
    } else {
        QVERIFY(!g->passed && !v.passed);
        QVERIFY2(g->reasons.contains(reason), qPrintable(g->reasons.join('\n')));
    }
    if (!note.isEmpty())
        QVERIFY2(g->notes.contains(note), qPrintable(g->notes.join('\n')));
}

void TestBurninJudge::modelsAreComparedWithTheirOwnKind()
{
    // An H100 at 590 is not "slow" next to an H200 at 720: peers are GPUs of the same model.
    const QVector<BurninNodeRun> runs{
        cudaRun("gpu-node01", "NVIDIA H100 80GB HBM3", {{600, 3.0, {}}, {590, 3.0, {}}}),
        cudaRun("gpu-node02", "NVIDIA H200", {{720, 4.2, {}}, {600, 4.2, {}}})};
    const BurninVerdict v = BurninJudge::judge(runs, testCatalog(), {});
    QVERIFY(v.gpu("gpu-node01", 0)->passed);
    QVERIFY(v.gpu("gpu-node01", 1)->passed);
    QVERIFY(v.gpu("gpu-node02", 0)->passed);
    QVERIFY(!v.gpu("gpu-node02", 1)->passed);
    QCOMPARE(v.gpu("gpu-node02", 1)->reasons,
             QStringList{"gpu-node02 GPU 1 gemm: 600.0 TFLOPS is 83% of the best GPU in this run (720.0); needs 90%"});
}

void TestBurninJudge::errorAndSkippedResults()
{
    BurninNodeRun run = cudaRun("gpu-node01", "NVIDIA H200", {{700, 4.2, {}}});
    run.start->tests << "p2p" << "pcie";
    BurninResult p2p;
    p2p.gpu = 0;
    p2p.test = "p2p";
    p2p.backend = "cuda";
    p2p.passed = true;
    p2p.skipped = "no peer GPU in this run";
    BurninResult pcie = p2p;
    pcie.test = "pcie";
    pcie.skipped.clear();
    pcie.passed = false;
    pcie.error = "cudaHostAlloc(...): cudaErrorMemoryAllocation (out of memory)";
    pcie.reasons = {pcie.error};
    run.results << p2p << pcie;
    const BurninVerdict v = BurninJudge::judge({run}, testCatalog(), {});
    const BurninGpuVerdict *g = v.gpu("gpu-node01", 0);
    QVERIFY(g->test("p2p")->skipped && g->test("p2p")->passed);
    QVERIFY(!g->test("pcie")->passed);
    QCOMPARE(g->reasons, QStringList{"gpu-node01 GPU 0 pcie: cudaHostAlloc(...): cudaErrorMemoryAllocation (out of memory)"});
}

void TestBurninJudge::launchErrorIsAProblem()
{
    BurninNodeRun run;
    run.node = "gpu-node07";
    run.launchError = "sbatch: error: invalid partition specified: gpus";
    const BurninNodeRun noGpu = capturedRun("gpu-node08", "no-gpu-default-backend.jsonl");
    const BurninVerdict v = BurninJudge::judge({run, noGpu}, GpuCatalog::builtIn(),
                                               {{{"gpu-node07", 8}, {"gpu-node08", 8}}});
    QVERIFY(!v.passed);
    QCOMPARE(v.failedNodes(), (QStringList{"gpu-node07", "gpu-node08"}));
    const QString problems = v.problems.join('\n');
    QVERIFY(problems.contains("gpu-node07: the agent did not run: sbatch: error: invalid partition"));
    QVERIFY(problems.contains("gpu-node08: agent error: no CUDA GPU to test"));
    QVERIFY(problems.contains("gpu-node08: the agent never reported its GPUs"));
}

// A node's drain reason is its own: gpu-node1 never gets gpu-node10's problem, a GPU's reason
// wins over a run-level problem, and a node with neither gets the generic sentence.
void TestBurninJudge::drainReasonIsTheNodesOwn()
{
    BurninNodeRun ten;
    ten.node = "gpu-node10";
    ten.launchError = "sbatch: error: invalid partition specified: gpus";
    BurninNodeRun one;
    one.node = "gpu-node1";
    one.launchError = "ssh: connect to host gpu-node1 port 22: Connection refused";
    const BurninNodeRun bitflip = capturedRun("gpu-node03", "cpu-gpu-node03-inject-bitflip-3.jsonl");
    const BurninVerdict v = BurninJudge::judge({ten, one, bitflip}, GpuCatalog::builtIn(),
                                               {{{"gpu-node10", 8}, {"gpu-node1", 8}, {"gpu-node03", 8}}});
    QCOMPARE(v.drainReason("gpu-node1"),
             QStringLiteral("strata burn-in: gpu-node1: the agent did not run: ssh: connect to host gpu-node1 port 22: "
                            "Connection refused"));
    QVERIFY2(v.drainReason("gpu-node10").startsWith("strata burn-in: gpu-node10: the agent did not run: sbatch"),
             qPrintable(v.drainReason("gpu-node10")));
    QVERIFY2(v.drainReason("gpu-node03").startsWith("strata burn-in: gpu-node03 GPU 3 "), qPrintable(v.drainReason("gpu-node03")));
    QCOMPARE(v.drainReason("gpu-node99"), QStringLiteral("strata burn-in failed"));
}

void TestBurninJudge::fp8IsJudgedAtTwiceTheBf16Rates()
{
    // H200 floor 600 BF16 TFLOPS: an FP8 run at 1000 is under its 1200 floor; the figure is
    // 1000 / (2 x 989) of the FP8 peak; the engine is carried into the verdict.
    BurninNodeRun run = cudaRun("gpu-node01", "NVIDIA H200", {{1000.0, 4.2, telemetry(1980, 60)}});
    run.results[0].engine = QStringLiteral("cublaslt-fp8-e4m3");
    const BurninVerdict v = BurninJudge::judge({run}, testCatalog(), {{{"gpu-node01", 1}}});
    const BurninGpuVerdict *g = v.gpu("gpu-node01", 0);
    QVERIFY(g);
    QCOMPARE(g->test("gemm")->engine, QStringLiteral("cublaslt-fp8-e4m3"));
    QCOMPARE(qRound(*g->test("gemm")->pctOfSpec * 10), qRound(1000.0 * 1000.0 / (2 * 989.0)));
    QVERIFY2(g->reasons.contains("gpu-node01 GPU 0 gemm: 1000.0 TFLOPS is below the H200 floor of 1200.0"),
             qPrintable(g->reasons.join('\n')));
    // The same figure from the BF16 engine passes its 600 floor.
    run.results[0].engine = QStringLiteral("cublaslt-bf16");
    const BurninVerdict bf16 = BurninJudge::judge({run}, testCatalog(), {{{"gpu-node01", 1}}});
    QVERIFY2(bf16.passed, qPrintable(bf16.gpus.value(0).reasons.join('\n')));
}

void TestBurninJudge::ownKernelHasItsOwnFloorAndPeers()
{
    // The catalog's floor is cuBLASLt's; the own kernel's is the catalog's own figure (H100: 150)
    // or gemmFloorTflops x ownGemmFloorRatio (H200: 600 x 0.5 = 300).
    const GpuCatalog catalog = testCatalog();
    QCOMPARE(catalog.gpu("H100")->burnin.ownGemmFloorTflops, 150.0);
    QCOMPARE(catalog.gpu("H200")->burnin.ownGemmFloorTflops, 600.0 * ownGemmFloorRatio);
    QCOMPARE(catalog.gpu("H200")->burnin.gemmFloorTflops, 600.0);
    // node01 found libcublasLt, node02 did not and ran the own kernel: each engine's GPUs are
    // peers among themselves, so node02's healthy GPUs at 400 pass next to node01's 720.
    BurninNodeRun lt = cudaRun("gpu-node01", "NVIDIA H200", {{720, 4.2, {}}, {715, 4.2, {}}});
    BurninNodeRun own = cudaRun("gpu-node02", "NVIDIA H200", {{400, 4.2, {}}, {395, 4.2, {}}});
    for (BurninResult &r : lt.results)
        r.engine = QStringLiteral("cublaslt-bf16");
    for (BurninResult &r : own.results)
        r.engine = QStringLiteral("own-bf16");
    const BurninVerdict v = BurninJudge::judge({lt, own}, catalog, {});
    QVERIFY2(v.passed, qPrintable(v.gpus.value(2).reasons.join('\n') + v.gpus.value(3).reasons.join('\n')));
    // An own-kernel GPU under its floor and under 90 % of its own-kernel peer fails on both.
    own.results[2].tflops = 250;
    const BurninVerdict slow = BurninJudge::judge({lt, own}, catalog, {});
    const BurninGpuVerdict *g = slow.gpu("gpu-node02", 1);
    QVERIFY(g && !g->passed);
    QCOMPARE(g->reasons,
             (QStringList{"gpu-node02 GPU 1 gemm: own kernel 250.0 TFLOPS is below the H200 floor of 300.0",
                          "gpu-node02 GPU 1 gemm: own kernel 250.0 TFLOPS is 63% of the best GPU in this run (400.0); needs 90%"}));
    QVERIFY(slow.gpu("gpu-node01", 0)->passed && slow.gpu("gpu-node02", 0)->passed);
    // The same 400 from cuBLASLt fails its 600 floor: the floors are the engines' own.
    for (BurninResult &r : own.results)
        r.engine = QStringLiteral("cublaslt-bf16");
    own.results[2].tflops = 395;
    const BurninVerdict asLt = BurninJudge::judge({lt, own}, catalog, {});
    QVERIFY(!asLt.gpu("gpu-node02", 0)->passed);
    QVERIFY2(asLt.gpu("gpu-node02", 0)->reasons.contains("gpu-node02 GPU 0 gemm: 400.0 TFLOPS is below the H200 floor of 600.0"),
             qPrintable(asLt.gpu("gpu-node02", 0)->reasons.join('\n')));
}

QTEST_GUILESS_MAIN(TestBurninJudge)
#include "tst_burnin_judge.moc"
