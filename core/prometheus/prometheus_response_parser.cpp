#include "prometheus_response_parser.h"

#include "alerts_parser.h"
#include "model/input_check.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata {

using ResultType = PrometheusResponse::ResultType;

namespace {

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

ResultType resultTypeFromName(std::string_view name)
{
    if (name == "vector")
        return ResultType::Vector;
    if (name == "matrix")
        return ResultType::Matrix;
    if (name == "scalar")
        return ResultType::Scalar;
    if (name == "string")
        return ResultType::String;
    return ResultType::None;
}

// Walks simdjson's DOM. The DOM parser dispatches at run time to the best SIMD kernel of the
// CPU (On Demand would be fixed at compile time, to the portable fallback kernel without
// -march flags). Every accessor returns an error code instead of throwing, so a malformed body
// ends as a message, never as an exception across the Qt event loop.
class Reader
{
public:
    Reader(const PrometheusResponseParser::Options &options, PrometheusResponse &out) : m_out(out)
    {
        for (const QString &name : options.keepLabels)
            m_keep.push_back(name.toStdString());
    }

    // Returns an empty string on success, else what was wrong with the shape.
    std::string readRoot(simdjson::dom::element root)
    {
        simdjson::dom::object object;
        if (root.get(object))
            return "the body is not a JSON object";
        std::string_view text;
        if (auto status = object["status"]; !status.error()) {
            if (status.get(text))
                return "\"status\" is not a string";
            m_status = std::string(text);
        }
        if (!object["errorType"].get(text))
            m_out.errorType = fromView(text);
        if (!object["error"].get(text))
            m_out.error = fromView(text);
        simdjson::dom::array warnings;
        if (!object["warnings"].get(warnings))
            for (simdjson::dom::element w : warnings)
                if (!w.get(text))
                    m_out.warnings << fromView(text);
        simdjson::dom::element data;
        if (object["data"].get(data))
            return m_status == "error" ? std::string() : "no \"data\"";
        return readData(data);
    }

    const std::string &status() const { return m_status; }
    ResultType declaredType() const { return m_declared; }
    ResultType shapeType() const { return m_shape; }

private:
    std::string readData(simdjson::dom::element value)
    {
        simdjson::dom::object data;
        if (value.get(data))
            return "\"data\" is not an object";
        std::string_view name;
        if (data["resultType"].get(name))
            return "\"data\" has no \"resultType\" string";
        m_declared = resultTypeFromName(name);
        if (m_declared == ResultType::None)
            return "unknown resultType \"" + std::string(name) + "\"";
        simdjson::dom::array result;
        if (data["result"].get(result))
            return "\"data\" has no \"result\" array";
        return readResult(result);
    }

    // The shape is read from the data itself and compared with resultType afterwards, so a
    // server that says "vector" but sends samples arrays is caught.
    std::string readResult(simdjson::dom::array result)
    {
        if (result.size() == 0) {
            m_shape = ResultType::None;
            return {};
        }
        if (!(*result.begin()).is_object()) {
            double time = 0;
            std::string_view text;
            if (result.size() != 2 || result.at(0).get(time) || result.at(1).get(text))
                return "a scalar/string result is not a [time, \"value\"] pair";
            m_out.stringValue = fromView(text);
            if (const std::optional<double> number = PrometheusResponseParser::parseValue(text)) {
                m_out.scalar = PrometheusSample{time, *number};
                m_shape = ResultType::Scalar;
            } else {
                m_shape = ResultType::String;
            }
            return {};
        }
        m_out.series.reserve(qsizetype(result.size()));
        for (simdjson::dom::element element : result)
            if (std::string problem = readSeries(element); !problem.empty())
                return problem;
        m_shape = m_sawMatrix ? (m_sawVector ? ResultType::None : ResultType::Matrix) : ResultType::Vector;
        return {};
    }

    static std::string readSample(simdjson::dom::element value, PrometheusSample &sample)
    {
        simdjson::dom::array pair;
        std::string_view text;
        if (value.get(pair) || pair.size() != 2)
            return "a sample is not a [time, \"value\"] pair";
        if (pair.at(0).get(sample.time))
            return "a sample time is not a number";
        if (pair.at(1).get(text))
            return "a sample value is not a string";
        const std::optional<double> number = PrometheusResponseParser::parseValue(text);
        if (!number)
            return "a sample value is not a number: \"" + std::string(text) + "\"";
        sample.value = *number;
        return {};
    }

    // A cluster-wide answer repeats the same few thousand strings (host names, UUIDs, metric
    // and label names) hundreds of thousands of times: one shared QString each instead of an
    // allocation per label. The views point into the parser's own string buffer, which lives
    // as long as this Reader.
    QString intern(std::string_view text)
    {
        auto it = m_strings.find(text);
        if (it == m_strings.end())
            it = m_strings.emplace(text, fromView(text)).first;
        return it->second;
    }

    bool keep(std::string_view name) const
    {
        if (m_keep.empty())
            return true;
        for (const std::string &k : m_keep)
            if (k == name)
                return true;
        return false;
    }

    std::string readSeries(simdjson::dom::element value)
    {
        simdjson::dom::object object;
        if (value.get(object))
            return "a result element is not an object";
        PrometheusSeries series;
        simdjson::dom::object labels;
        if (object["metric"].get(labels))
            return "a series has no \"metric\" object";
        // The labels the series has (a `max by` keeps only those present), not all it could:
        // 16 slots of 48 bytes for 7 labels was 200 MB at 262,144 series.
        series.labels.reserve(qsizetype(m_keep.empty() ? labels.size() : std::min(labels.size(), m_keep.size())));
        size_t slot = 0;
        for (auto [name, labelValue] : labels) {
            if (!keep(name))
                continue;
            std::string_view text;
            if (labelValue.get(text))
                return "label \"" + std::string(name) + "\" is not a string";
            // Neighbouring series mostly repeat the labels at the same position (the host for
            // a node's GPUs, the metric name in a run): check that before the hash table.
            if (slot >= m_previous.size())
                m_previous.resize(slot + 1);
            Previous &p = m_previous[slot++];
            if (p.name != name || p.value != text)
                p = Previous{name, text, intern(name), intern(text)};
            series.labels.append({p.nameString, p.valueString});
        }
        simdjson::dom::element sample;
        simdjson::dom::array values;
        if (!object["value"].get(sample)) {
            series.samples.resize(1);
            if (std::string problem = readSample(sample, series.samples[0]); !problem.empty())
                return problem;
            m_sawVector = true;
        } else if (!object["values"].get(values)) {
            series.samples.resize(qsizetype(values.size()));
            qsizetype i = 0;
            for (simdjson::dom::element point : values)
                if (std::string problem = readSample(point, series.samples[i++]); !problem.empty())
                    return problem;
            m_sawMatrix = true;
        } else {
            return "a series has neither \"value\" nor \"values\"";
        }
        m_out.series.append(std::move(series));
        return {};
    }

    PrometheusResponse &m_out;
    std::vector<std::string> m_keep;
    std::unordered_map<std::string_view, QString> m_strings;
    struct Previous
    {
        std::string_view name, value;
        QString nameString, valueString;
    };
    std::vector<Previous> m_previous;
    std::string m_status;
    ResultType m_declared = ResultType::None;
    ResultType m_shape = ResultType::None;
    bool m_sawVector = false;
    bool m_sawMatrix = false;
};

QString snippet(const QByteArray &body)
{
    QString text = QString::fromUtf8(body.left(120)).simplified();
    if (body.size() > 120)
        text += QStringLiteral("...");
    return text;
}

PrometheusResponse failure(PrometheusResponse out, const QString &type, const QString &message)
{
    out.ok = false;
    out.errorType = type;
    out.error = message;
    out.series.clear();
    out.scalar.reset();
    out.stringValue.clear();
    out.resultType = ResultType::None;
    return out;
}

} // namespace

PrometheusResponse PrometheusResponseParser::parse(const QByteArray &body, int httpStatus)
{
    return parse(body, httpStatus, Options{});
}

PrometheusResponse PrometheusResponseParser::parse(const QByteArray &body, int httpStatus,
                                                   const Options &options)
{
    PrometheusResponse out;
    out.httpStatus = httpStatus;
    out.bytes = body.size();
    if (const QString problem = InputCheck::problem(body, maxInputBytes, QLatin1StringView("Prometheus's answer"));
        !problem.isEmpty())
        return failure(out, QStringLiteral("json"), problem);
    if (options.alertList) {
        AlertsParser::Result alerts = AlertsParser::parse(body, httpStatus);
        if (!alerts.error.isEmpty())
            return failure(out, QStringLiteral("unexpected"), alerts.error);
        out.ok = true;
        out.alerts = std::move(alerts.alerts);
        return out;
    }

    const QByteArray trimmed = body.left(64).trimmed();
    if (!trimmed.startsWith('{')) {
        if (body.trimmed().isEmpty())
            return failure(out, QStringLiteral("http"),
                           QStringLiteral("Prometheus answered HTTP %1 with an empty body").arg(httpStatus));
        return failure(out, QStringLiteral("http"),
                       QStringLiteral("Prometheus answered HTTP %1 with a body that is not its API's JSON "
                                      "(\"%2\"): check that the URL points at the Prometheus server")
                           .arg(httpStatus).arg(snippet(body)));
    }

    simdjson::dom::parser parser;
    const simdjson::padded_string padded(body.constData(), size_t(body.size()));
    simdjson::dom::element root;
    if (auto e = parser.parse(padded).get(root)) {
        // Every answer of the API is one JSON object: a body that does not end with its '}'
        // was cut off on the way (Qt does not always report a connection closed mid-body).
        qsizetype last = body.size() - 1; // the last byte that is not white space (no copy of a 44 MiB body)
        while (last >= 0 && QChar::isSpace(uchar(body[last])))
            --last;
        if (last < 0 || body[last] != '}')
            return failure(out, QStringLiteral("truncated"),
                           QStringLiteral("the answer (HTTP %1) ends mid-JSON after %2 bytes: %3")
                               .arg(httpStatus).arg(body.size()).arg(QString::fromUtf8(simdjson::error_message(e))));
        return failure(out, QStringLiteral("json"),
                       QStringLiteral("Prometheus sent malformed JSON (HTTP %1): %2")
                           .arg(httpStatus).arg(QString::fromUtf8(simdjson::error_message(e))));
    }

    Reader reader(options, out);
    if (const std::string problem = reader.readRoot(root); !problem.empty())
        return failure(out, QStringLiteral("unexpected"),
                       QStringLiteral("Prometheus sent JSON of an unexpected shape (HTTP %1): %2")
                           .arg(httpStatus).arg(QString::fromStdString(problem)));

    if (reader.status() == "error") {
        const QString type = out.errorType.isEmpty() ? QStringLiteral("unknown") : out.errorType;
        return failure(out, type, describeApiError(httpStatus, type, out.error));
    }
    if (reader.status() != "success")
        return failure(out, QStringLiteral("unexpected"),
                       QStringLiteral("Prometheus answered HTTP %1 without \"status\":\"success\" (\"%2\")")
                           .arg(httpStatus).arg(snippet(body)));

    const ResultType type = reader.declaredType();
    const ResultType shape = reader.shapeType();
    const bool empty = out.series.isEmpty() && !out.scalar && out.stringValue.isEmpty();
    if (type == ResultType::None)
        return failure(out, QStringLiteral("unexpected"),
                       QStringLiteral("Prometheus answered without a resultType (HTTP %1)").arg(httpStatus));
    if (!empty && shape != type)
        return failure(out, QStringLiteral("unexpected"),
                       QStringLiteral("Prometheus said resultType %1 but sent %2 data")
                           .arg(PrometheusResponse::resultTypeName(type),
                                PrometheusResponse::resultTypeName(shape)));
    if (options.expect != ResultType::None && options.expect != type)
        return failure(out, QStringLiteral("unexpected"),
                       QStringLiteral("expected a %1 result from Prometheus but got a %2")
                           .arg(PrometheusResponse::resultTypeName(options.expect),
                                PrometheusResponse::resultTypeName(type)));
    out.resultType = type;
    out.ok = true;
    return out;
}

std::optional<double> PrometheusResponseParser::parseValue(std::string_view text)
{
    if (text == "NaN")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "+Inf" || text == "Inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-Inf")
        return -std::numeric_limits<double>::infinity();
    if (text.empty())
        return std::nullopt;
    const char *begin = text.data();
    if (*begin == '+')
        ++begin;
    double value = 0;
    const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

QString PrometheusResponseParser::describeApiError(int httpStatus, const QString &errorType,
                                                   const QString &error)
{
    const QString where = QStringLiteral("HTTP %1, %2").arg(httpStatus).arg(errorType);
    if (httpStatus == 400 || errorType == QLatin1String("bad_data"))
        return QStringLiteral("Prometheus rejected the query (%1): %2").arg(where, error);
    if (httpStatus == 422 || errorType == QLatin1String("execution"))
        return QStringLiteral("Prometheus could not run the query (%1): %2").arg(where, error);
    if (httpStatus == 503 || errorType == QLatin1String("timeout") || errorType == QLatin1String("canceled"))
        return QStringLiteral("Prometheus is overloaded or the query timed out (%1): %2; "
                              "try again, or narrow the query")
            .arg(where, error);
    return QStringLiteral("Prometheus answered with an error (%1): %2").arg(where, error);
}

} // namespace strata
