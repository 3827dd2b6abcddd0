#include "burnin_protocol_parser.h"

#include "model/input_check.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <limits>

namespace strata {

namespace {

using Lit = QLatin1String;

// Thrown only inside this file to leave a half-read event; parseLine turns it into a
// BurninParseError. Never escapes the parser.
struct FieldError
{
    QString message;
};

std::optional<double> optionalDouble(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(Lit(key));
    if (v.isDouble())
        return v.toDouble();
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    throw FieldError{QStringLiteral("'%1' is not a number").arg(Lit(key))};
}

double requiredDouble(const QJsonObject &o, const char *key)
{
    const std::optional<double> v = optionalDouble(o, key);
    if (!v)
        throw FieldError{QStringLiteral("'%1' is missing").arg(Lit(key))};
    return *v;
}

// A count or size from the agent: a whole number that fits T. Anything else (2.5, 6e54, -1
// for an unsigned field) is a protocol error, not a value to clamp or wrap.
template <typename T>
T wholeNumber(double v, const char *key)
{
    // Both bounds as doubles: the largest 64-bit values round up when converted, so the upper
    // test is "strictly below 2^bits", which is exactly representable.
    const double lowest = static_cast<double>(std::numeric_limits<T>::lowest());
    const double pastHighest = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    if (!(v >= lowest && v < pastHighest) || std::trunc(v) != v)
        throw FieldError{QStringLiteral("'%1' is not a whole number in range (%2)").arg(Lit(key)).arg(v)};
    return static_cast<T>(v);
}

int requiredInt(const QJsonObject &o, const char *key)
{
    return wholeNumber<int>(requiredDouble(o, key), key);
}

std::optional<int> optionalInt(const QJsonObject &o, const char *key)
{
    const std::optional<double> v = optionalDouble(o, key);
    return v ? std::optional<int>(wholeNumber<int>(*v, key)) : std::nullopt;
}

std::optional<qint64> optionalInt64(const QJsonObject &o, const char *key)
{
    const std::optional<double> v = optionalDouble(o, key);
    return v ? std::optional<qint64>(wholeNumber<qint64>(*v, key)) : std::nullopt;
}

std::optional<quint64> optionalUInt64(const QJsonObject &o, const char *key)
{
    const std::optional<double> v = optionalDouble(o, key);
    return v ? std::optional<quint64>(wholeNumber<quint64>(*v, key)) : std::nullopt;
}

QString string(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(Lit(key));
    if (v.isString())
        return v.toString();
    if (v.isUndefined() || v.isNull())
        return {};
    throw FieldError{QStringLiteral("'%1' is not a string").arg(Lit(key))};
}

QString requiredString(const QJsonObject &o, const char *key)
{
    if (!o.value(Lit(key)).isString())
        throw FieldError{QStringLiteral("'%1' is missing or not a string").arg(Lit(key))};
    return o.value(Lit(key)).toString();
}

bool requiredBool(const QJsonObject &o, const char *key)
{
    if (!o.value(Lit(key)).isBool())
        throw FieldError{QStringLiteral("'%1' is missing or not true/false").arg(Lit(key))};
    return o.value(Lit(key)).toBool();
}

QStringList stringList(const QJsonObject &o, const char *key)
{
    QStringList list;
    for (const QJsonValue &v : o.value(Lit(key)).toArray())
        list << v.toString();
    return list;
}

QJsonArray requiredArray(const QJsonObject &o, const char *key)
{
    if (!o.value(Lit(key)).isArray())
        throw FieldError{QStringLiteral("'%1' is missing or not an array").arg(Lit(key))};
    return o.value(Lit(key)).toArray();
}

quint64 hexValue(const QJsonObject &o, const char *key)
{
    bool ok = false;
    const quint64 v = string(o, key).toULongLong(&ok, 16); // accepts the "0x" prefix
    if (!ok)
        throw FieldError{QStringLiteral("'%1' is not a hexadecimal number").arg(Lit(key))};
    return v;
}

BurninStart parseStart(const QJsonObject &o)
{
    BurninStart s;
    s.agentVersion = string(o, "version");
    s.backend = requiredString(o, "backend");
    s.host = requiredString(o, "host");
    s.time = QDateTime::fromString(string(o, "time"), Qt::ISODate);
    for (const QJsonValue &v : requiredArray(o, "gpus")) {
        const QJsonObject g = v.toObject();
        BurninGpuInfo gpu;
        gpu.index = requiredInt(g, "index");
        gpu.uuid = requiredString(g, "uuid");
        gpu.name = string(g, "name");
        gpu.model = string(g, "model");
        gpu.pciBusId = string(g, "pciBusId");
        gpu.memoryBytes = optionalInt64(g, "memoryBytes").value_or(0);
        gpu.specTflops = optionalDouble(g, "specTflops");
        gpu.specTBps = optionalDouble(g, "specTBps");
        s.gpus << gpu;
    }
    s.tests = stringList(o, "tests");
    s.durationSeconds = optionalDouble(o, "durationS").value_or(0);
    s.nvml = o.value(Lit("nvml")).toBool();
    s.nvmlStatus = string(o, "nvmlStatus");
    s.inject = string(o, "inject");
    s.metricsEndpoint = string(o, "metrics");
    return s;
}

BurninProgress parseProgress(const QJsonObject &o)
{
    BurninProgress p;
    p.gpu = requiredInt(o, "gpu");
    p.test = requiredString(o, "test");
    p.fraction = requiredDouble(o, "fraction");
    p.figure = string(o, "figure");
    p.value = optionalDouble(o, "value").value_or(0);
    return p;
}

BurninTelemetry parseTelemetry(const QJsonObject &o)
{
    BurninTelemetry t;
    t.gpu = requiredInt(o, "gpu");
    t.tempC = optionalDouble(o, "tempC");
    t.powerW = optionalDouble(o, "powerW");
    t.smClockMHz = optionalDouble(o, "smClockMHz");
    t.memClockMHz = optionalDouble(o, "memClockMHz");
    t.throttleMask = optionalUInt64(o, "throttleMask");
    t.throttleReasons = stringList(o, "throttleReasons");
    return t;
}

void parseFigures(const QJsonObject &f, BurninResult &r)
{
    r.figuresJson = QJsonDocument(f).toJson(QJsonDocument::Compact);
    r.pctOfSpec = optionalDouble(f, "pctOfSpec");
    r.standIn = f.value(Lit("standIn")).toBool();
    if (r.test == Lit("gemm")) {
        r.tflops = optionalDouble(f, "tflops");
        r.specTflops = optionalDouble(f, "specTflops");
        r.mismatches = optionalInt64(f, "mismatches");
        r.sampledRelError = optionalDouble(f, "sampledRelError");
        r.sampledOutOfBounds = optionalInt64(f, "sampledOutOfBounds");
        r.iterations = optionalInt64(f, "iterations");
        r.engine = f.value(Lit("engine")).toString();
        r.m = optionalInt(f, "m").value_or(0);
        r.n = optionalInt(f, "n").value_or(0);
        r.k = optionalInt(f, "k").value_or(0);
    } else if (r.test == Lit("hbm")) {
        r.readTBps = optionalDouble(f, "readTBps");
        r.writeTBps = optionalDouble(f, "writeTBps");
        r.copyTBps = optionalDouble(f, "copyTBps");
        r.specTBps = optionalDouble(f, "specTBps");
        r.bitErrors = optionalUInt64(f, "bitErrors");
        r.wordErrors = optionalUInt64(f, "wordErrors");
        r.patternBytes = optionalUInt64(f, "patternBytes").value_or(0);
        r.patternPasses = optionalInt64(f, "patternPasses").value_or(0);
        for (const QJsonValue &v : f.value(Lit("errorAddresses")).toArray()) {
            const QJsonObject e = v.toObject();
            r.errorAddresses << BurninErrorAddress{hexValue(e, "offset"), hexValue(e, "expected"),
                                                   hexValue(e, "actual")};
        }
    } else if (r.test == Lit("pcie")) {
        r.hostToDeviceGBps = optionalDouble(f, "h2dGBps");
        r.deviceToHostGBps = optionalDouble(f, "d2hGBps");
    } else if (r.test == Lit("p2p")) {
        for (const QJsonValue &v : f.value(Lit("peers")).toArray()) {
            const QJsonObject p = v.toObject();
            r.peers << qMakePair(requiredInt(p, "peer"), requiredDouble(p, "GBps"));
        }
        for (const QJsonValue &v : f.value(Lit("unreachable")).toArray())
            r.unreachablePeers << v.toInt();
    }
}

BurninResult parseResult(const QJsonObject &o)
{
    BurninResult r;
    r.gpu = requiredInt(o, "gpu");
    r.uuid = requiredString(o, "uuid");
    r.test = requiredString(o, "test");
    r.backend = requiredString(o, "backend");
    r.passed = requiredBool(o, "passed");
    r.reasons = stringList(o, "reasons");
    r.seconds = optionalDouble(o, "seconds").value_or(0);
    r.skipped = string(o, "skipped");
    r.error = string(o, "error");
    const QJsonValue figures = o.value(Lit("figures"));
    if (figures.isObject())
        parseFigures(figures.toObject(), r);
    else if (!figures.isNull() && !figures.isUndefined())
        throw FieldError{QStringLiteral("'figures' is not an object")};
    const QJsonValue telemetry = o.value(Lit("telemetry"));
    if (telemetry.isObject()) {
        const QJsonObject t = telemetry.toObject();
        BurninTelemetrySummary s;
        s.samples = optionalInt(t, "samples").value_or(0);
        s.maxTempC = optionalDouble(t, "maxTempC");
        s.maxPowerW = optionalDouble(t, "maxPowerW");
        s.minSmClockMHz = optionalDouble(t, "minSmClockMHz");
        s.meanSmClockMHz = optionalDouble(t, "meanSmClockMHz");
        s.throttleMask = optionalUInt64(t, "throttleMask").value_or(0);
        s.throttleReasons = stringList(t, "throttleReasons");
        r.telemetry = s;
    }
    return r;
}

BurninError parseErrorEvent(const QJsonObject &o)
{
    BurninError e;
    const QJsonValue gpu = o.value(Lit("gpu"));
    if (gpu.isDouble())
        e.gpu = gpu.toInt();
    e.message = requiredString(o, "message");
    return e;
}

BurninSummary parseSummary(const QJsonObject &o)
{
    BurninSummary s;
    for (const QJsonValue &v : requiredArray(o, "gpus")) {
        const QJsonObject g = v.toObject();
        BurninGpuSummary gpu;
        gpu.gpu = requiredInt(g, "gpu");
        gpu.uuid = string(g, "uuid");
        gpu.passed = requiredBool(g, "passed");
        gpu.failedTests = stringList(g, "failedTests");
        gpu.reasons = stringList(g, "reasons");
        s.gpus << gpu;
    }
    s.passed = requiredBool(o, "passed");
    s.exitCode = requiredInt(o, "exitCode");
    s.seconds = optionalDouble(o, "seconds").value_or(0);
    return s;
}

BurninParseError lineError(qint64 line, const QString &message)
{
    BurninParseError error;
    error.line = line;
    error.message = QStringLiteral("line %1: %2").arg(line).arg(message);
    return error;
}

BurninParseError streamError(qint64 line, const QString &message)
{
    BurninParseError error = lineError(line, message + QLatin1String("; the rest of the output is not read"));
    error.endsStream = true;
    return error;
}

} // namespace

BurninEvent BurninProtocolParser::parseLine(QByteArrayView line, qint64 lineNumber)
{
    if (const QString problem = InputCheck::problem(line, maxLineBytes, QLatin1StringView("the agent's output"));
        !problem.isEmpty())
        return streamError(lineNumber, problem);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return lineError(lineNumber, QStringLiteral("not JSON (%1 at offset %2)")
                                         .arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return lineError(lineNumber, QStringLiteral("not a JSON object"));
    const QJsonObject o = doc.object();
    const QJsonValue version = o.value(Lit("v"));
    if (!version.isDouble())
        return lineError(lineNumber, QStringLiteral("no protocol version \"v\": not strata-burn output"));
    if (version.toInt() != supportedVersion || version.toDouble() != version.toInt())
        return streamError(lineNumber,
                         QStringLiteral("protocol version %1 is not supported (this Strata reads v%2): "
                                        "deploy the strata-burn that ships with this Strata")
                             .arg(version.toDouble()).arg(supportedVersion));
    const QString type = o.value(Lit("type")).toString();
    try {
        if (type == Lit("start"))
            return parseStart(o);
        if (type == Lit("progress"))
            return parseProgress(o);
        if (type == Lit("telemetry"))
            return parseTelemetry(o);
        if (type == Lit("result"))
            return parseResult(o);
        if (type == Lit("error"))
            return parseErrorEvent(o);
        if (type == Lit("summary"))
            return parseSummary(o);
    } catch (const FieldError &e) {
        return lineError(lineNumber, QStringLiteral("%1 event: %2").arg(type, e.message));
    }
    return lineError(lineNumber, type.isEmpty() ? QStringLiteral("no event \"type\"")
                                                : QStringLiteral("unknown event type '%1'").arg(type));
}

void BurninProtocolParser::takeLine(QByteArrayView line, QVector<BurninEvent> &events)
{
    ++m_line;
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.trimmed().isEmpty())
        return;
    BurninEvent event = parseLine(line, m_line);
    if (const auto *error = std::get_if<BurninParseError>(&event); error && error->endsStream)
        m_ended = true;
    events << std::move(event);
}

QVector<BurninEvent> BurninProtocolParser::feed(QByteArrayView bytes)
{
    QVector<BurninEvent> events;
    while (!bytes.isEmpty() && !m_ended) {
        const qsizetype newline = bytes.indexOf('\n');
        if (newline < 0) {
            if (!m_discarding)
                m_pending.append(bytes.data(), bytes.size());
            if (!m_discarding && m_pending.size() > maxLineBytes) {
                m_discarding = true;
                m_pending.clear();
                events << lineError(m_line + 1, QStringLiteral("longer than %1 bytes: dropped")
                                                    .arg(maxLineBytes));
            }
            break;
        }
        const QByteArrayView head = bytes.first(newline);
        if (m_discarding) {
            m_discarding = false;
            ++m_line;
        } else if (m_pending.isEmpty() && head.size() > maxLineBytes) {
            // The same limit whether a line came in pieces or in one chunk.
            ++m_line;
            events << lineError(m_line, QStringLiteral("longer than %1 bytes: dropped").arg(maxLineBytes));
        } else if (m_pending.isEmpty()) {
            takeLine(head, events);
        } else {
            m_pending.append(head.data(), head.size());
            const QByteArray line = std::exchange(m_pending, {});
            if (line.size() > maxLineBytes) {
                ++m_line;
                events << lineError(m_line, QStringLiteral("longer than %1 bytes: dropped").arg(maxLineBytes));
            } else {
                takeLine(line, events);
            }
        }
        bytes = bytes.sliced(newline + 1);
    }
    return events;
}

QVector<BurninEvent> BurninProtocolParser::finish()
{
    QVector<BurninEvent> events;
    if (!m_pending.isEmpty() && !m_discarding)
        takeLine(std::exchange(m_pending, {}), events);
    m_pending.clear();
    m_discarding = false;
    return events;
}

QVector<BurninEvent> BurninProtocolParser::parseAll(QByteArrayView bytes)
{
    BurninProtocolParser parser;
    QVector<BurninEvent> events = parser.feed(bytes);
    events << parser.finish();
    return events;
}

} // namespace strata
