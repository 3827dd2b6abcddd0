// PrometheusResponseParser on real bodies captured from Debian's prometheus 2.42
// (tests/data/prometheus/strata-capture, see its README), and on real bodies broken on purpose.
#include "prometheus/prometheus_response_parser.h"

#include <QFile>
#include <QTest>

#include <cmath>

using namespace strata;
using ResultType = PrometheusResponse::ResultType;

Q_DECLARE_METATYPE(strata::PrometheusResponse::ResultType)

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/prometheus/strata-capture/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

enum class Special { None, NaN, PosInf, NegInf };

} // namespace

Q_DECLARE_METATYPE(Special)

class TestPrometheusResponseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesCapturedBodies_data();
    void parsesCapturedBodies();
    void rejectsBrokenBodies_data();
    void rejectsBrokenBodies();
    void keepsOnlyRequestedLabels();
    void matrixSamplesInOrder();
    void expectedTypeMismatchIsAnError();
    void parseValue_data();
    void parseValue();
};

void TestPrometheusResponseParser::parsesCapturedBodies_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("httpStatus");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<ResultType>("type");
    QTest::addColumn<int>("seriesCount");
    QTest::addColumn<QString>("errorType");
    QTest::addColumn<QString>("errorContains");
    QTest::addColumn<Special>("firstValue");

    QTest::newRow("vector up") << "vector_up.json" << 200 << true << ResultType::Vector << 3 << ""
                               << "" << Special::None;
    QTest::newRow("vector empty") << "vector_empty.json" << 200 << true << ResultType::Vector << 0
                                  << "" << "" << Special::None;
    QTest::newRow("matrix up") << "matrix_up.json" << 200 << true << ResultType::Matrix << 1 << ""
                               << "" << Special::None;
    QTest::newRow("matrix empty") << "matrix_empty.json" << 200 << true << ResultType::Matrix << 0
                                  << "" << "" << Special::None;
    QTest::newRow("matrix from range selector")
        << "matrix_range_selector.json" << 200 << true << ResultType::Matrix << 1 << "" << ""
        << Special::None;
    QTest::newRow("scalar NaN") << "scalar_nan.json" << 200 << true << ResultType::Scalar << 0 << ""
                                << "" << Special::NaN;
    QTest::newRow("scalar +Inf") << "scalar_pos_inf.json" << 200 << true << ResultType::Scalar << 0
                                 << "" << "" << Special::PosInf;
    QTest::newRow("scalar -Inf") << "scalar_neg_inf.json" << 200 << true << ResultType::Scalar << 0
                                 << "" << "" << Special::NegInf;
    QTest::newRow("vector NaN") << "vector_nan.json" << 200 << true << ResultType::Vector << 1 << ""
                                << "" << Special::NaN;
    QTest::newRow("vector +Inf") << "vector_pos_inf.json" << 200 << true << ResultType::Vector << 1
                                 << "" << "" << Special::PosInf;
    QTest::newRow("vector -Inf") << "vector_neg_inf.json" << 200 << true << ResultType::Vector << 1
                                 << "" << "" << Special::NegInf;
    QTest::newRow("string") << "string_result.json" << 200 << true << ResultType::String << 0 << ""
                            << "" << Special::None;
    QTest::newRow("dcgm all metrics") << "vector_dcgm_all.json" << 200 << true << ResultType::Vector
                                      << 36 << "" << "" << Special::None;
    QTest::newRow("dcgm util range") << "matrix_dcgm_util.json" << 200 << true << ResultType::Matrix
                                     << 4 << "" << "" << Special::None;
    QTest::newRow("400 bad_data") << "error_400_bad_data.json" << 400 << false << ResultType::None
                                  << 0 << "bad_data"
                                  << "Prometheus rejected the query (HTTP 400, bad_data): invalid "
                                     "parameter \"query\": 1:7: parse error: unclosed left parenthesis"
                                  << Special::None;
    QTest::newRow("400 too many points")
        << "error_400_too_many_points.json" << 400 << false << ResultType::None << 0 << "bad_data"
        << "exceeded maximum resolution of 11,000 points" << Special::None;
    QTest::newRow("422 execution") << "error_422_execution.json" << 422 << false << ResultType::None
                                   << 0 << "execution"
                                   << "Prometheus could not run the query (HTTP 422, execution): query "
                                      "processing would load too many samples"
                                   << Special::None;
    QTest::newRow("503 timeout") << "error_503_timeout.json" << 503 << false << ResultType::None << 0
                                 << "timeout"
                                 << "Prometheus is overloaded or the query timed out (HTTP 503, timeout)"
                                 << Special::None;
    QTest::newRow("404 not JSON") << "error_404_not_found.txt" << 404 << false << ResultType::None
                                  << 0 << "http"
                                  << "HTTP 404 with a body that is not its API's JSON (\"404 page not "
                                     "found\")"
                                  << Special::None;
}

void TestPrometheusResponseParser::parsesCapturedBodies()
{
    QFETCH(QString, file);
    QFETCH(int, httpStatus);
    QFETCH(bool, ok);
    QFETCH(ResultType, type);
    QFETCH(int, seriesCount);
    QFETCH(QString, errorType);
    QFETCH(QString, errorContains);
    QFETCH(Special, firstValue);

    const QByteArray body = captured(file);
    const PrometheusResponse r = PrometheusResponseParser::parse(body, httpStatus);
    QCOMPARE(r.ok, ok);
    QCOMPARE(r.resultType, type);
    QCOMPARE(r.series.size(), seriesCount);
    QCOMPARE(r.errorType, errorType);
    QCOMPARE(r.httpStatus, httpStatus);
    QCOMPARE(r.bytes, body.size());
    if (!errorContains.isEmpty())
        QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
    else
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));

    if (firstValue != Special::None) {
        const double v = r.scalar ? r.scalar->value : r.series.value(0).samples.value(0).value;
        QVERIFY(r.scalar || !r.series.isEmpty());
        switch (firstValue) {
        case Special::NaN: QVERIFY(std::isnan(v)); break;
        case Special::PosInf: QVERIFY(std::isinf(v) && v > 0); break;
        case Special::NegInf: QVERIFY(std::isinf(v) && v < 0); break;
        case Special::None: break;
        }
        if (r.scalar)
            QVERIFY(r.scalar->time > 1.6e9); // the server's evaluation time, seconds since epoch
    }
    for (const PrometheusSeries &s : r.series) {
        QVERIFY(!s.samples.isEmpty());
        QVERIFY(!s.labels.isEmpty());
    }
}

void TestPrometheusResponseParser::rejectsBrokenBodies_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("errorType");
    QTest::addColumn<QString>("errorContains");

    const QByteArray vector = captured(QStringLiteral("vector_up.json"));
    // Cut off on the way (the connection broke mid-body): not malformed, broken off.
    QTest::newRow("truncated") << vector.left(vector.size() / 2) << "truncated" << "ends mid-JSON after";
    QTest::newRow("truncated in a string") << vector.left(vector.indexOf("\"status\"") + 4) << "truncated" << "ends mid-JSON";
    QTest::newRow("malformed, whole") << QByteArray(vector).replace(":", ";") << "json" << "malformed JSON";
    QTest::newRow("garbage after") << vector + "}" << "json" << "malformed JSON";
    QTest::newRow("declared matrix, sent vector")
        << QByteArray(vector).replace("\"resultType\":\"vector\"", "\"resultType\":\"matrix\"")
        << "unexpected" << "resultType matrix but sent vector data";
    QTest::newRow("unknown resultType")
        << QByteArray(vector).replace("\"resultType\":\"vector\"", "\"resultType\":\"histogram\"")
        << "unexpected" << "unknown resultType \"histogram\"";
    QTest::newRow("value not a number")
        << QByteArray(vector).replace(",\"1\"]", ",\"one\"]") << "unexpected"
        << "a sample value is not a number: \"one\"";
    QTest::newRow("value not a string")
        << QByteArray(vector).replace(",\"1\"]", ",1]") << "unexpected" << "not a string";
    QTest::newRow("no status") << QByteArray(vector).replace("\"status\":\"success\",", "")
                               << "unexpected" << "without \"status\":\"success\"";
    QTest::newRow("JSON array") << QByteArray("[1,2]") << "http" << "not its API's JSON";
    QTest::newRow("empty body") << QByteArray() << "http" << "empty body";
    QTest::newRow("no data") << QByteArray("{\"status\":\"success\"}") << "unexpected" << "no \"data\"";
}

void TestPrometheusResponseParser::rejectsBrokenBodies()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, errorType);
    QFETCH(QString, errorContains);
    const PrometheusResponse r = PrometheusResponseParser::parse(body, 200);
    QVERIFY(!r.ok);
    QCOMPARE(r.errorType, errorType);
    QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
    if (errorType == QLatin1String("truncated"))
        QCOMPARE(r.errorKind(), ErrorKind::ConnectFailed);
    QVERIFY(r.series.isEmpty());
    QCOMPARE(r.resultType, ResultType::None);
}

void TestPrometheusResponseParser::keepsOnlyRequestedLabels()
{
    PrometheusResponseParser::Options options;
    options.keepLabels = {QStringLiteral("gpu"), QStringLiteral("Hostname"), QStringLiteral("hostname"),
                          QStringLiteral("__name__")};
    const PrometheusResponse r =
        PrometheusResponseParser::parse(captured(QStringLiteral("vector_dcgm_all.json")), 200, options);
    QVERIFY(r.ok);
    QCOMPARE(r.series.size(), 36);
    for (const PrometheusSeries &s : r.series) {
        QCOMPARE(s.labels.size(), 3); // __name__, gpu and one of the two host labels
        QVERIFY(!s.hasLabel(u"UUID"));
        QVERIFY(s.hasLabel(u"Hostname") != s.hasLabel(u"hostname"));
    }
    const PrometheusSeries &first = r.series.first();
    QCOMPARE(first.label(u"__name__"), QStringLiteral("DCGM_FI_DEV_FB_FREE"));
    QCOMPARE(first.label(u"Hostname"), QStringLiteral("gpu-node01.cluster.local"));
    QCOMPARE(first.label(u"gpu"), QStringLiteral("0"));
    QCOMPARE(first.samples.first().value, 41000.0);
}

void TestPrometheusResponseParser::matrixSamplesInOrder()
{
    const PrometheusResponse r =
        PrometheusResponseParser::parse(captured(QStringLiteral("matrix_range_selector.json")), 200);
    QVERIFY(r.ok);
    const QVector<PrometheusSample> &samples = r.series.first().samples;
    QCOMPARE(samples.size(), 3);
    QCOMPARE(samples[0].time, 1796219109.211); // millisecond timestamps survive
    for (int i = 1; i < samples.size(); ++i)
        QVERIFY(samples[i].time > samples[i - 1].time);
    QCOMPARE(samples[2].value, 1.0);
    QCOMPARE(r.series.first().label(u"job"), QStringLiteral("prometheus"));
}

void TestPrometheusResponseParser::expectedTypeMismatchIsAnError()
{
    PrometheusResponseParser::Options options;
    options.expect = ResultType::Vector;
    const PrometheusResponse r =
        PrometheusResponseParser::parse(captured(QStringLiteral("matrix_up.json")), 200, options);
    QVERIFY(!r.ok);
    QCOMPARE(r.errorType, QStringLiteral("unexpected"));
    QCOMPARE(r.error, QStringLiteral("expected a vector result from Prometheus but got a matrix"));
}

void TestPrometheusResponseParser::parseValue_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("value");
    QTest::newRow("integer") << "42" << true << 42.0;
    QTest::newRow("decimal") << "350.5" << true << 350.5;
    QTest::newRow("exponent") << "1.5e+06" << true << 1.5e6;
    QTest::newRow("negative") << "-3" << true << -3.0;
    QTest::newRow("plus sign") << "+7" << true << 7.0;
    QTest::newRow("empty") << "" << false << 0.0;
    QTest::newRow("word") << "busy" << false << 0.0;
    QTest::newRow("trailing junk") << "12abc" << false << 0.0;
}

void TestPrometheusResponseParser::parseValue()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(double, value);
    const std::string s = text.toStdString();
    const std::optional<double> v = PrometheusResponseParser::parseValue(s);
    QCOMPARE(v.has_value(), valid);
    if (valid)
        QCOMPARE(*v, value);
}

QTEST_GUILESS_MAIN(TestPrometheusResponseParser)
#include "tst_prometheus_response_parser.moc"
