// BurninProtocolParser on real strata-burn output (tests/data/burnin, captured from the CPU
// backend) and on malformed lines.
#include "burnin/burnin_node_run.h"
#include "burnin/burnin_protocol_parser.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

using namespace strata;

namespace {

QByteArray readData(const QString &name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/burnin/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(name));
    return f.readAll();
}

template <typename T>
int countOf(const QVector<BurninEvent> &events)
{
    int n = 0;
    for (const BurninEvent &e : events)
        n += std::holds_alternative<T>(e) ? 1 : 0;
    return n;
}

QString describe(const BurninEvent &e)
{
    if (const auto *r = std::get_if<BurninResult>(&e))
        return QStringLiteral("result %1 %2 %3 %4").arg(r->gpu).arg(r->test).arg(r->passed)
            .arg(QString::fromUtf8(r->figuresJson));
    if (const auto *p = std::get_if<BurninParseError>(&e))
        return QStringLiteral("error %1").arg(p->message);
    return QString::number(e.index());
}

} // namespace

class TestBurninProtocolParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void capturedOutput_data();
    void capturedOutput();
    void chunkingDoesNotMatter_data();
    void chunkingDoesNotMatter();
    void injectedFaultsAreParsed();
    void malformedLine_data();
    void malformedLine();
    void malformedLineAmongGoodOnes();
    void lastLineWithoutNewline();
    void crlfAndBlankLines();
    void overlongLineIsDropped();
};

void TestBurninProtocolParser::capturedOutput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("results");
    QTest::addColumn<int>("errors");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<bool>("passed");
    QTest::newRow("8 GPUs, all tests, pass") << "cpu-gpu-node01-pass.jsonl" << "gpu-node01" << 8 << 32 << 0 << 0 << true;
    QTest::newRow("8 GPUs, gemm+hbm, pass") << "cpu-gpu-node02-pass.jsonl" << "gpu-node02" << 8 << 16 << 0 << 0 << true;
    QTest::newRow("injected bit flip on GPU 3") << "cpu-gpu-node03-inject-bitflip-3.jsonl" << "gpu-node03" << 8 << 16 << 0 << 1 << false;
    QTest::newRow("injected slow GPU 5") << "cpu-gpu-node04-inject-slow-5.jsonl" << "gpu-node04" << 8 << 16 << 0 << 0 << true;
    QTest::newRow("no GPU, default backend") << "no-gpu-default-backend.jsonl" << "" << 0 << 0 << 1 << 3 << false;
    QTest::newRow("usage error") << "usage-error.jsonl" << "" << 0 << 0 << 1 << 2 << false;
}

void TestBurninProtocolParser::capturedOutput()
{
    QFETCH(QString, file);
    QFETCH(QString, host);
    QFETCH(int, gpus);
    QFETCH(int, results);
    QFETCH(int, errors);
    QFETCH(int, exitCode);
    QFETCH(bool, passed);
    const QVector<BurninEvent> events = BurninProtocolParser::parseAll(readData(file));
    const BurninNodeRun run = BurninNodeRun::fromEvents(host, events);
    QVERIFY2(run.parseErrors.isEmpty(), qPrintable(run.parseErrors.value(0).message));
    QCOMPARE(run.results.size(), results);
    QCOMPARE(run.errors.size(), errors);
    QVERIFY(run.summary);
    QCOMPARE(run.summary->exitCode, exitCode);
    QCOMPARE(run.summary->passed, passed);
    QCOMPARE(run.start.has_value(), gpus > 0);
    if (!run.start)
        return;
    QCOMPARE(run.start->host, host);
    QCOMPARE(run.start->backend, QString("cpu"));
    QCOMPARE(run.start->gpus.size(), gpus);
    QCOMPARE(run.start->agentVersion, QString(STRATA_VERSION));
    QVERIFY(run.start->time.isValid());
    QVERIFY(countOf<BurninProgress>(events) > 0);
    QCOMPARE(countOf<BurninTelemetry>(events), 0); // the cpu backend has none, and says so
    QVERIFY(!run.start->nvml);
    for (const BurninResult &r : run.results) {
        QCOMPARE(r.backend, QString("cpu"));
        QVERIFY(r.uuid.startsWith(QStringLiteral("CPU-%1-").arg(host)));
        QVERIFY(!r.figuresJson.isEmpty());
        if (r.test == QLatin1String("gemm")) {
            QVERIFY(*r.tflops > 0);
            QCOMPARE(r.m, 128);
            QVERIFY(*r.sampledRelError < 1e-5);
            QVERIFY(!r.pctOfSpec); // no spec for simulated devices
        } else if (r.test == QLatin1String("hbm")) {
            QVERIFY(*r.copyTBps > 0 && *r.readTBps > 0 && *r.writeTBps > 0);
            QCOMPARE(r.patternBytes, 8ull << 20);
        }
    }
}

void TestBurninProtocolParser::chunkingDoesNotMatter_data()
{
    QTest::addColumn<int>("maxChunk");
    QTest::newRow("one byte at a time") << 1;
    QTest::newRow("up to 7 bytes") << 7;
    QTest::newRow("up to 4 KiB") << 4096;
}

void TestBurninProtocolParser::chunkingDoesNotMatter()
{
    QFETCH(int, maxChunk);
    const QByteArray bytes = readData("cpu-gpu-node03-inject-bitflip-3.jsonl");
    const QVector<BurninEvent> whole = BurninProtocolParser::parseAll(bytes);
    BurninProtocolParser parser;
    QVector<BurninEvent> streamed;
    QRandomGenerator random(42);
    for (qsizetype i = 0; i < bytes.size();) {
        const qsizetype n = std::min<qsizetype>(1 + random.bounded(maxChunk), bytes.size() - i);
        streamed << parser.feed(QByteArrayView(bytes).sliced(i, n));
        i += n;
    }
    streamed << parser.finish();
    QCOMPARE(streamed.size(), whole.size());
    for (int i = 0; i < whole.size(); ++i)
        QCOMPARE(describe(streamed[i]), describe(whole[i]));
    QCOMPARE(parser.lineCount(), qint64(bytes.count('\n')));
}

void TestBurninProtocolParser::injectedFaultsAreParsed()
{
    const BurninNodeRun run = BurninNodeRun::fromEvents(
        "gpu-node03", BurninProtocolParser::parseAll(readData("cpu-gpu-node03-inject-bitflip-3.jsonl")));
    QCOMPARE(run.start->inject, QString("bitflip:3"));
    int failing = 0;
    for (const BurninResult &r : run.results) {
        if (r.gpu != 3) {
            QVERIFY(r.passed);
            continue;
        }
        ++failing;
        QVERIFY(!r.passed);
        if (r.test == QLatin1String("gemm")) {
            QCOMPARE(*r.mismatches, qint64(1));
            QCOMPARE(r.reasons, QStringList{"1 mismatches in repeated GEMM: silent data corruption"});
        } else {
            QCOMPARE(*r.bitErrors, 1ull);
            QCOMPARE(r.errorAddresses.size(), 1);
            QCOMPARE(r.errorAddresses[0].expected ^ r.errorAddresses[0].actual, 1ull << 17);
            QCOMPARE(r.errorAddresses[0].offset, ((8ull << 20) / 8 / 3) * 8);
        }
    }
    QCOMPARE(failing, 2);
    QCOMPARE(run.summary->gpus[3].failedTests, (QStringList{"gemm", "hbm"}));
}

void TestBurninProtocolParser::malformedLine_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("not JSON") << QByteArray("strata-burn: something on stderr") << "not JSON";
    QTest::newRow("truncated JSON") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":") << "not JSON";
    QTest::newRow("array") << QByteArray("[1,2,3]") << "not a JSON object";
    QTest::newRow("no version") << QByteArray("{\"type\":\"start\"}") << "no protocol version \"v\"";
    QTest::newRow("version 2") << QByteArray("{\"v\":2,\"type\":\"start\"}") << "protocol version 2 is not supported (this Strata reads v1)";
    QTest::newRow("version 1.5") << QByteArray("{\"v\":1.5,\"type\":\"start\"}") << "protocol version 1.5 is not supported";
    QTest::newRow("version as string") << QByteArray("{\"v\":\"1\",\"type\":\"start\"}") << "no protocol version";
    QTest::newRow("no type") << QByteArray("{\"v\":1}") << "no event \"type\"";
    QTest::newRow("unknown type") << QByteArray("{\"v\":1,\"type\":\"explode\"}") << "unknown event type 'explode'";
    QTest::newRow("result without uuid") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":0}") << "result event: 'uuid' is missing";
    QTest::newRow("gpu as text") << QByteArray("{\"v\":1,\"type\":\"progress\",\"gpu\":\"zero\",\"test\":\"gemm\",\"fraction\":0.5}")
                                 << "progress event: 'gpu' is not a number";
    QTest::newRow("error without message") << QByteArray("{\"v\":1,\"type\":\"error\",\"gpu\":null}") << "error event: 'message' is missing";
    QTest::newRow("start without gpus") << QByteArray("{\"v\":1,\"type\":\"start\",\"backend\":\"cpu\",\"host\":\"n\"}")
                                        << "start event: 'gpus' is missing or not an array";
    QTest::newRow("passed as number") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":0,\"uuid\":\"u\",\"test\":\"gemm\",\"backend\":\"cpu\",\"passed\":1}")
                                      << "'passed' is missing or not true/false";
    QTest::newRow("bad error address") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":0,\"uuid\":\"u\",\"test\":\"hbm\",\"backend\":\"cpu\",\"passed\":false,"
                                                     "\"figures\":{\"errorAddresses\":[{\"offset\":\"0xZZ\",\"expected\":\"0x1\",\"actual\":\"0x0\"}]}}")
                                       << "'offset' is not a hexadecimal number";
    QTest::newRow("figures not an object") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":0,\"uuid\":\"u\",\"test\":\"gemm\",\"backend\":\"cpu\",\"passed\":true,\"figures\":[]}")
                                           << "'figures' is not an object";
    // Counts and sizes are whole numbers in range; a fuzzer's 6.1e54 once reached a static_cast<int>.
    QTest::newRow("gpu past int") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":6.11111e54,\"uuid\":\"u\",\"test\":\"gemm\",\"backend\":\"cpu\",\"passed\":true}")
                                  << "result event: 'gpu' is not a whole number in range (6.11111e+54)";
    QTest::newRow("fractional gpu") << QByteArray("{\"v\":1,\"type\":\"progress\",\"gpu\":1.5,\"test\":\"gemm\",\"fraction\":0.5}")
                                    << "progress event: 'gpu' is not a whole number in range (1.5)";
    QTest::newRow("matrix size past int") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":0,\"uuid\":\"u\",\"test\":\"gemm\",\"backend\":\"cpu\",\"passed\":true,\"figures\":{\"m\":4294967296}}")
                                          << "'m' is not a whole number in range (4.29497e+09)";
    QTest::newRow("negative unsigned") << QByteArray("{\"v\":1,\"type\":\"result\",\"gpu\":0,\"uuid\":\"u\",\"test\":\"hbm\",\"backend\":\"cpu\",\"passed\":true,\"figures\":{\"bitErrors\":-1}}")
                                       << "'bitErrors' is not a whole number in range (-1)";
    QTest::newRow("summary without exit code") << QByteArray("{\"v\":1,\"type\":\"summary\",\"gpus\":[],\"passed\":true}")
                                               << "summary event: 'exitCode' is missing";
}

void TestBurninProtocolParser::malformedLine()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, message);
    BurninProtocolParser parser;
    const QVector<BurninEvent> events = parser.feed("\n\n" + line + "\n");
    QCOMPARE(events.size(), 1);
    const auto *error = std::get_if<BurninParseError>(&events[0]);
    QVERIFY2(error, qPrintable(describe(events[0])));
    QCOMPARE(error->line, qint64(3));
    QVERIFY2(error->message.startsWith("line 3: "), qPrintable(error->message));
    QVERIFY2(error->message.contains(message), qPrintable(error->message));
}

void TestBurninProtocolParser::malformedLineAmongGoodOnes()
{
    QList<QByteArray> lines = readData("cpu-gpu-node02-pass.jsonl").split('\n');
    lines.insert(5, "{\"v\":1,\"type\":\"result\",\"gpu\":");
    lines.insert(10, "Segmentation fault");
    const QVector<BurninEvent> events = BurninProtocolParser::parseAll(lines.join('\n'));
    const BurninNodeRun run = BurninNodeRun::fromEvents("gpu-node02", events);
    QCOMPARE(run.parseErrors.size(), 2);
    QCOMPARE(run.parseErrors[0].line, qint64(6));
    QCOMPARE(run.parseErrors[1].line, qint64(11));
    QCOMPARE(run.results.size(), 16); // everything else still read
    QVERIFY(run.summary);
}

void TestBurninProtocolParser::lastLineWithoutNewline()
{
    QByteArray bytes = readData("usage-error.jsonl");
    QVERIFY(bytes.endsWith('\n'));
    bytes.chop(1);
    BurninProtocolParser parser;
    const QVector<BurninEvent> fed = parser.feed(bytes);
    QCOMPARE(fed.size(), 1);
    QVERIFY(std::holds_alternative<BurninError>(fed[0]));
    const QVector<BurninEvent> rest = parser.finish();
    QCOMPARE(rest.size(), 1);
    QVERIFY(std::holds_alternative<BurninSummary>(rest[0]));
    QVERIFY(parser.finish().isEmpty());
}

void TestBurninProtocolParser::crlfAndBlankLines()
{
    QByteArray bytes = readData("no-gpu-default-backend.jsonl");
    bytes.replace("\n", "\r\n");
    bytes.prepend("\r\n   \n");
    BurninProtocolParser parser;
    const QVector<BurninEvent> events = parser.feed(bytes);
    QCOMPARE(events.size(), 2);
    QVERIFY(std::holds_alternative<BurninError>(events[0]));
    QCOMPARE(std::get<BurninSummary>(events[1]).exitCode, 3);
    QCOMPARE(parser.lineCount(), qint64(4));
}

void TestBurninProtocolParser::overlongLineIsDropped()
{
    BurninProtocolParser parser;
    const QByteArray junk(BurninProtocolParser::maxLineBytes / 2 + 1, 'x');
    QVector<BurninEvent> events = parser.feed(junk);
    events << parser.feed(junk);
    events << parser.feed(junk);
    events << parser.feed("tail\n" + readData("usage-error.jsonl"));
    QCOMPARE(events.size(), 3);
    const auto *error = std::get_if<BurninParseError>(&events[0]);
    QVERIFY(error);
    QCOMPARE(error->line, qint64(1));
    QVERIFY(error->message.contains("dropped"));
    QVERIFY(std::holds_alternative<BurninError>(events[1]));
    QVERIFY(std::holds_alternative<BurninSummary>(events[2]));
    QCOMPARE(parser.lineCount(), qint64(3));
}

QTEST_GUILESS_MAIN(TestBurninProtocolParser)
#include "tst_burnin_protocol_parser.moc"
