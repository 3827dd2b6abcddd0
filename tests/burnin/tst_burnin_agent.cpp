// strata-burn run as a program on the CPU backend: its exit status, its protocol (parsed back
// with the console's parser), the self-test faults, and its metrics endpoints.
#include "burnin/burnin_judge.h"
#include "burnin/burnin_node_run.h"
#include "burnin/burnin_protocol_parser.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <QTimer>

using namespace strata;

namespace {

struct AgentRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    BurninNodeRun node;
};

AgentRun runAgent(const QStringList &args, const QMap<QString, QString> &env = {})
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove(QStringLiteral("SLURMD_NODENAME"));
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    p.start(QStringLiteral(STRATA_BURN_AGENT), args);
    AgentRun run;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return run;
    }
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    run.node = BurninNodeRun::fromEvents(QStringLiteral("node"), BurninProtocolParser::parseAll(run.out));
    return run;
}

const BurninResult *result(const BurninNodeRun &run, int gpu, const QString &test)
{
    for (const BurninResult &r : run.results)
        if (r.gpu == gpu && r.test == test)
            return &r;
    return nullptr;
}

QByteArray httpGet(const QUrl &url, int *status)
{
    QNetworkAccessManager manager;
    QNetworkReply *reply = manager.get(QNetworkRequest(url));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    loop.exec();
    *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

int freePort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

} // namespace

class TestBurninAgent : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cpuRunPassesAndSpeaksTheProtocol();
    void injectedBitflipIsCaught_data();
    void injectedBitflipIsCaught();
    void injectedSlowGpuHasLowerFigure();
    void floorFailsAGpu();
    void selectsGpus();
    void refusesAGpuItDoesNotHave();
    void usageErrors_data();
    void usageErrors();
    void cudaWithoutGpuSaysSo();
    void humanTable();
    void hostNameFromSlurm();
    void interruptedRunStillEndsWithASummary();
    void servesMetrics();
    void busyMetricsPortIsAnError();
    void pushesToPushgateway();
};

void TestBurninAgent::cpuRunPassesAndSpeaksTheProtocol()
{
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "3", "--duration", "200ms"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.node.parseErrors.isEmpty(), qPrintable(run.node.parseErrors.value(0).message));
    QVERIFY(run.node.start);
    QCOMPARE(run.node.start->backend, QString("cpu"));
    QCOMPARE(run.node.start->gpus.size(), 3);
    QCOMPARE(run.node.start->tests, (QStringList{"gemm", "hbm", "pcie", "p2p"}));
    QVERIFY(!run.node.start->nvml);
    QCOMPARE(run.node.results.size(), 12);
    for (const BurninResult &r : run.node.results) {
        QCOMPARE(r.backend, QString("cpu"));
        QVERIFY2(r.passed, qPrintable(r.reasons.join(';')));
        QVERIFY(!r.telemetry); // no NVML on the cpu backend: absent, not made up
    }
    const BurninResult *gemm = result(run.node, 1, "gemm");
    QVERIFY(gemm && gemm->tflops && *gemm->tflops > 0);
    QCOMPARE(*gemm->mismatches, qint64(0));
    QVERIFY(*gemm->iterations >= 2);
    QVERIFY(!gemm->pctOfSpec);
    const BurninResult *hbm = result(run.node, 2, "hbm");
    QVERIFY(hbm && *hbm->copyTBps > 0 && *hbm->bitErrors == 0 && hbm->patternPasses >= 5);
    const BurninResult *pcie = result(run.node, 0, "pcie");
    QVERIFY(pcie && pcie->standIn && *pcie->hostToDeviceGBps > 0);
    const BurninResult *p2p = result(run.node, 0, "p2p");
    QVERIFY(p2p && p2p->peers.size() == 2);
    QVERIFY(run.node.summary);
    QVERIFY(run.node.summary->passed);
    QCOMPARE(run.node.summary->exitCode, 0);
    QCOMPARE(run.node.summary->gpus.size(), 3);
}

void TestBurninAgent::injectedBitflipIsCaught_data()
{
    QTest::addColumn<int>("gpu");
    QTest::newRow("GPU 0") << 0;
    QTest::newRow("GPU 2") << 2;
}

void TestBurninAgent::injectedBitflipIsCaught()
{
    QFETCH(int, gpu);
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "3", "--duration", "200ms",
                                   "--tests", "gemm,hbm", "--inject", QStringLiteral("bitflip:%1").arg(gpu)});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.node.parseErrors.isEmpty());
    QCOMPARE(run.node.start->inject, QStringLiteral("bitflip:%1").arg(gpu));
    for (int g = 0; g < 3; ++g) {
        const BurninResult *gemm = result(run.node, g, "gemm");
        const BurninResult *hbm = result(run.node, g, "hbm");
        QVERIFY(gemm && hbm);
        if (g != gpu) {
            QVERIFY(gemm->passed && hbm->passed);
            continue;
        }
        QVERIFY(!gemm->passed);
        // The transient flip: the repeat check only. The stuck bit: the sampled, full-matrix
        // and stress-loop slice checks, each on its own (the repeat check cannot see it).
        QCOMPARE(*gemm->mismatches, qint64(1));
        const QString reasons = gemm->reasons.join(' ');
        QVERIFY2(reasons.contains("silent data corruption"), qPrintable(reasons));
        QCOMPARE(*gemm->sampledOutOfBounds, qint64(1));
        QVERIFY2(reasons.contains("1 of 16384 elements of the first product differ from the independent reference"),
                 qPrintable(reasons));
        QVERIFY2(reasons.contains("stress loop's row slices"), qPrintable(reasons));
        QVERIFY(!hbm->passed);
        QCOMPARE(*hbm->bitErrors, 1ull);
        QCOMPARE(hbm->errorAddresses.size(), 1);
        const BurninErrorAddress &a = hbm->errorAddresses[0];
        QCOMPARE(a.expected ^ a.actual, 1ull << 17);
        QVERIFY(a.offset % 8 == 0 && a.offset < hbm->patternBytes);
    }
    QVERIFY(!run.node.summary->passed);
    QCOMPARE(run.node.summary->gpus[gpu].failedTests, (QStringList{"gemm", "hbm"}));
}

void TestBurninAgent::injectedSlowGpuHasLowerFigure()
{
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "3", "--duration", "500ms",
                                   "--tests", "gemm", "--inject", "slow:1"});
    // The agent judges correctness only: a slow GPU is the console's peer verdict.
    QCOMPARE(run.exitCode, 0);
    const double slow = *result(run.node, 1, "gemm")->tflops;
    const double peer = std::min(*result(run.node, 0, "gemm")->tflops, *result(run.node, 2, "gemm")->tflops);
    QVERIFY2(slow < 0.5 * peer, qPrintable(QStringLiteral("%1 vs %2").arg(slow).arg(peer)));
    const BurninVerdict verdict = BurninJudge::judge({run.node}, GpuCatalog::builtIn(), {});
    QVERIFY(!verdict.passed);
    QVERIFY(verdict.gpu("node", 0)->passed);
    QVERIFY(!verdict.gpu("node", 1)->passed);
    QVERIFY(verdict.gpu("node", 1)->reasons.join(' ').contains("of the best device on this node"));
}

void TestBurninAgent::floorFailsAGpu()
{
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "2", "--duration", "100ms",
                                   "--tests", "gemm", "--floor-tflops", "1000"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(result(run.node, 0, "gemm")->reasons.join(' ').contains("below the floor of 1000.0"));
}

void TestBurninAgent::selectsGpus()
{
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "4", "--gpus", "1,3", "--duration",
                                   "100ms", "--tests", "gemm,p2p"});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.node.start->gpus.size(), 2);
    QCOMPARE(run.node.start->gpus[0].index, 1);
    QCOMPARE(run.node.start->gpus[1].index, 3);
    QCOMPARE(result(run.node, 1, "p2p")->peers.size(), 1);
    QCOMPARE(result(run.node, 1, "p2p")->peers[0].first, 3);
}

void TestBurninAgent::refusesAGpuItDoesNotHave()
{
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "2", "--gpus", "5"});
    QCOMPARE(run.exitCode, 3);
    QVERIFY(run.node.errors.value(0).message.contains("--gpus names GPU 5"));
    QCOMPARE(run.node.summary->exitCode, 3);
}

void TestBurninAgent::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown test") << QStringList{"--tests", "gemm,fft"} << "unknown test 'fft'";
    QTest::newRow("bad duration") << QStringList{"--duration", "1h"} << "not a duration";
    QTest::newRow("inject a GPU not tested") << QStringList{"--backend", "cpu", "--cpu-gpus", "2", "--inject", "slow:4"}
                                             << "--inject names GPU 4";
}

void TestBurninAgent::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const AgentRun run = runAgent(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.node.parseErrors.isEmpty());
    QVERIFY2(run.node.errors.value(0).message.contains(message), qPrintable(run.node.errors.value(0).message));
    QVERIFY(run.err.contains(message.toUtf8()));
    QCOMPARE(run.node.summary->exitCode, 2);
}

void TestBurninAgent::cudaWithoutGpuSaysSo()
{
    const AgentRun explicitCuda = runAgent({"--backend", "cuda", "--duration", "1s", "--tests", "pcie"});
    if (explicitCuda.exitCode == 0)
        QSKIP("this machine has a GPU: burnin/gpu-check.sh tests the CUDA backend");
    QCOMPARE(explicitCuda.exitCode, 3);
    QVERIFY(explicitCuda.node.errors.value(0).message.contains("no CUDA GPU to test"));
    const AgentRun byDefault = runAgent({"--duration", "1s", "--tests", "pcie"});
    QCOMPARE(byDefault.exitCode, 3);
    QVERIFY(byDefault.node.errors.value(0).message.contains("pass --backend cpu"));
}

void TestBurninAgent::humanTable()
{
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "2", "--duration", "100ms",
                                   "--tests", "gemm,hbm", "--human", "--inject", "bitflip:1"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.out.contains("SUMMARY"));
    QVERIFY(run.out.contains("silent data corruption"));
    QVERIFY(run.out.contains("FAILED (exit 1)"));
    QVERIFY(!run.out.startsWith('{'));
}

void TestBurninAgent::hostNameFromSlurm()
{
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "1", "--duration", "0s", "--tests", "gemm"},
                                  {{"SLURMD_NODENAME", "gpu-node07"}});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.node.start->host, QString("gpu-node07"));
    QCOMPARE(run.node.start->gpus[0].uuid, QString("CPU-gpu-node07-0"));
}

void TestBurninAgent::interruptedRunStillEndsWithASummary()
{
    QProcess p;
    p.start(QStringLiteral(STRATA_BURN_AGENT), {"--backend", "cpu", "--cpu-gpus", "2", "--duration", "60s",
                                                "--tests", "gemm,hbm"});
    QVERIFY(p.waitForStarted());
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((p.waitForReadyRead(100), out += p.readAllStandardOutput(), out.contains("\"progress\"")),
                             10000);
    p.terminate(); // SIGTERM, as scancel sends
    QVERIFY(p.waitForFinished(10000));
    out += p.readAllStandardOutput();
    QCOMPARE(p.exitCode(), 4);
    const BurninNodeRun run = BurninNodeRun::fromEvents("node", BurninProtocolParser::parseAll(out));
    QVERIFY(run.parseErrors.isEmpty());
    QVERIFY(run.summary);
    QCOMPARE(run.summary->exitCode, 4);
    QVERIFY(!run.summary->passed);
    QVERIFY(run.errors.value(0).message.contains("interrupted"));
    QCOMPARE(run.results.size(), 2); // gemm ended early with its figures; hbm never ran
    QVERIFY(*result(run, 0, "gemm")->tflops > 0);
}

void TestBurninAgent::servesMetrics()
{
    QProcess p;
    p.start(QStringLiteral(STRATA_BURN_AGENT), {"--backend", "cpu", "--cpu-gpus", "2", "--duration", "3s",
                                                "--tests", "gemm", "--metrics-port", "0"});
    QVERIFY(p.waitForStarted());
    BurninProtocolParser parser;
    std::optional<BurninStart> start;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 p.waitForReadyRead(100);
                                 for (const BurninEvent &e : parser.feed(p.readAllStandardOutput()))
                                     if (const auto *s = std::get_if<BurninStart>(&e))
                                         start = *s;
                                 return start.has_value();
                             }()),
                             10000);
    QVERIFY(start->metricsEndpoint.startsWith("127.0.0.1:"));
    QVERIFY(!start->metricsEndpoint.endsWith(":0"));
    const QUrl url(QStringLiteral("http://%1/metrics").arg(start->metricsEndpoint));
    QByteArray body;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 int status = 0;
                                 body = httpGet(url, &status);
                                 return status == 200 && body.contains("strata_burnin_progress_ratio");
                             }()),
                             10000);
    QVERIFY(body.contains("strata_burnin_running{host="));
    QVERIFY(body.contains("uuid=\"CPU-"));
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 0);
}

void TestBurninAgent::busyMetricsPortIsAnError()
{
    QTcpServer busy;
    QVERIFY(busy.listen(QHostAddress::LocalHost, 0));
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "1", "--duration", "0s", "--tests", "gemm",
                                   "--metrics-port", QString::number(busy.serverPort())});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.node.errors.value(0).message.contains("cannot serve metrics on 127.0.0.1:"),
             qPrintable(run.node.errors.value(0).message));
}

void TestBurninAgent::pushesToPushgateway()
{
    const QString gateway = QStandardPaths::findExecutable(QStringLiteral("prometheus-pushgateway"));
    if (gateway.isEmpty())
        QSKIP("prometheus-pushgateway is not installed (scripts/install-deps installs it)");
    const int port = freePort();
    QProcess gw;
    gw.start(gateway, {QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port)});
    QVERIFY(gw.waitForStarted());
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(port);
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 int status = 0;
                                 httpGet(QUrl(base + "/-/ready"), &status);
                                 return status == 200;
                             }()),
                             10000);
    const AgentRun run = runAgent({"--backend", "cpu", "--cpu-gpus", "2", "--duration", "100ms", "--tests",
                                   "gemm", "--pushgateway", base},
                                  {{"SLURMD_NODENAME", "gpu-node05"}});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(!run.err.contains("push to"), run.err.constData());
    int status = 0;
    const QByteArray metrics = httpGet(QUrl(base + "/metrics"), &status);
    gw.terminate();
    gw.waitForFinished(5000);
    QCOMPARE(status, 200);
    QVERIFY(metrics.contains("job=\"strata_burnin\""));
    QVERIFY(metrics.contains("instance=\"gpu-node05\""));
    QVERIFY(metrics.contains("strata_burnin_run_passed{"));
    QVERIFY(metrics.contains("strata_burnin_tflops{"));
}

QTEST_GUILESS_MAIN(TestBurninAgent)
#include "tst_burnin_agent.moc"
