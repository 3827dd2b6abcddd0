#include "kube_json.h"

#include "kube_quantity.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>

namespace strata::KubeJson {

using namespace Qt::StringLiterals;

QString string(const QJsonObject &object, QLatin1StringView key)
{
    return object.value(key).toString();
}

QMap<QString, QString> stringMap(const QJsonObject &object, QLatin1StringView key)
{
    QMap<QString, QString> result;
    const QJsonObject map = object.value(key).toObject();
    for (auto it = map.constBegin(); it != map.constEnd(); ++it)
        result.insert(it.key(), it.value().toString());
    return result;
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + qint64(doe) - 719468;
}

int digits(QStringView s, qsizetype at, int count)
{
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const QChar c = s[at + i];
        if (!c.isDigit())
            return -1;
        value = value * 10 + c.digitValue();
    }
    return value;
}

} // namespace

qint64 timestamp(const QJsonObject &object, QLatin1StringView key)
{
    // RFC 3339 as the API writes it: "2026-12-02T13:55:23Z" (QDateTime::fromString is ~10x
    // slower, which shows at 50,000 pods); offsets and fractions are accepted too.
    const QString text = object.value(key).toString();
    if (text.size() < 20 || text[4] != u'-' || text[7] != u'-' || (text[10] != u'T' && text[10] != u't')
        || text[13] != u':' || text[16] != u':')
        return text.isEmpty() ? 0 : fallbackTimestamp(text);
    const int year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
    const int hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || minute < 0 || second < 0)
        return 0;
    qsizetype at = 19;
    if (at < text.size() && text[at] == u'.')
        for (++at; at < text.size() && text[at].isDigit(); ++at) {
        }
    qint64 offset = 0;
    if (at < text.size() && (text[at] == u'+' || text[at] == u'-') && at + 6 <= text.size()) {
        const int h = digits(text, at + 1, 2), m = digits(text, at + 4, 2);
        if (h < 0 || m < 0)
            return 0;
        offset = (text[at] == u'+' ? 1 : -1) * (h * 3600 + m * 60);
    } else if (at >= text.size() || (text[at] != u'Z' && text[at] != u'z')) {
        return 0;
    }
    return daysFromCivil(year, unsigned(month), unsigned(day)) * 86400 + hour * 3600 + minute * 60 + second - offset;
}

qint64 fallbackTimestamp(const QString &text)
{
    const QDateTime t = QDateTime::fromString(text, Qt::ISODate);
    return t.isValid() ? t.toSecsSinceEpoch() : 0;
}

QLatin1StringView apiVersionOf(QLatin1StringView itemKind)
{
    if (itemKind == QLatin1StringView("Job"))
        return QLatin1StringView("batch/v1");
    // Kueue's objects (KueueParser): v1beta1, the version every Kueue release since 0.5 serves.
    if (itemKind == QLatin1StringView("ClusterQueue") || itemKind == QLatin1StringView("LocalQueue")
        || itemKind == QLatin1StringView("Workload"))
        return QLatin1StringView("kueue.x-k8s.io/v1beta1");
    return QLatin1StringView("v1");
}

QString apiVersionProblem(const QString &apiVersion, QLatin1StringView itemKind, QStringView expected)
{
    const QString wanted = expected.isEmpty() ? QString(apiVersionOf(itemKind)) : expected.toString();
    if (apiVersion.isEmpty() || apiVersion == wanted)
        return {};
    return QStringLiteral("a %1 of apiVersion %2, which this Strata does not read (it reads %3)")
        .arg(QString(itemKind), apiVersion.left(80), wanted);
}

bool listItems(const QByteArray &json, QLatin1StringView itemKind, QJsonArray *items, QString *error,
               QStringView apiVersion)
{
    if (const QString problem = InputCheck::problem(json, maxInputBytes, QLatin1StringView("kubectl's output"));
        !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not JSON (%1 at byte %2); expected kubectl's `-o json` output")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return false;
    }
    const QJsonObject root = doc.object();
    const QString kind = root.value(QLatin1String("kind")).toString();
    if (kind == itemKind) {
        *error = apiVersionProblem(root.value(QLatin1String("apiVersion")).toString(), itemKind, apiVersion);
        if (!error->isEmpty())
            return false;
        *items = QJsonArray{root};
        return true;
    }
    if (kind == QLatin1String("List") || kind == QString(itemKind) + QLatin1String("List")) {
        *items = root.value(QLatin1String("items")).toArray();
        // kubectl's generic List names each item's kind (the API's typed lists do not).
        for (const QJsonValue &item : std::as_const(*items)) {
            const QString itemKindSeen = item.toObject().value(QLatin1String("kind")).toString();
            if (!itemKindSeen.isEmpty() && itemKindSeen != itemKind) {
                *error = QStringLiteral("expected a list of %1 objects, got a %2").arg(QString(itemKind), itemKindSeen);
                *items = {};
                return false;
            }
            *error = apiVersionProblem(item.toObject().value(QLatin1String("apiVersion")).toString(), itemKind, apiVersion);
            if (!error->isEmpty()) {
                *items = {};
                return false;
            }
        }
        return true;
    }
    if (kind == QLatin1String("Status")) {
        *error = QStringLiteral("the API answered with an error: %1")
                     .arg(root.value(QLatin1String("message")).toString());
        return false;
    }
    *error = QStringLiteral("expected a %1List or List, got kind \"%2\"").arg(QString(itemKind), kind);
    return false;
}

namespace {

qsizetype skipSpace(const QByteArray &s, qsizetype i)
{
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
        ++i;
    return i;
}

// Index just past the string starting at s[i] == '"', or -1.
qsizetype skipString(const QByteArray &s, qsizetype i)
{
    for (++i; i < s.size(); ++i) {
        if (s[i] == '\\')
            ++i;
        else if (s[i] == '"')
            return i + 1;
    }
    return -1;
}

// Index just past the value starting at s[i], or -1.
qsizetype skipValue(const QByteArray &s, qsizetype i)
{
    if (i >= s.size())
        return -1;
    if (s[i] == '"')
        return skipString(s, i);
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        for (; i < s.size(); ++i) {
            const char c = s[i];
            if (c == '"') {
                i = skipString(s, i);
                if (i < 0)
                    return -1;
                --i;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return -1;
    }
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n')
        ++i;
    return i;
}

} // namespace

bool scanList(const QByteArray &s, ListScan *scan)
{
    qsizetype i = skipSpace(s, 0);
    if (i >= s.size() || s[i] != '{')
        return false;
    i = skipSpace(s, i + 1);
    bool sawItems = false;
    while (i < s.size() && s[i] != '}') {
        if (s[i] != '"')
            return false;
        const qsizetype keyEnd = skipString(s, i);
        if (keyEnd < 0)
            return false;
        const QByteArrayView key(s.constData() + i + 1, keyEnd - i - 2);
        i = skipSpace(s, keyEnd);
        if (i >= s.size() || s[i] != ':')
            return false;
        i = skipSpace(s, i + 1);
        if (key == "items") {
            if (i >= s.size() || s[i] != '[')
                return false;
            sawItems = true;
            i = skipSpace(s, i + 1);
            while (i < s.size() && s[i] != ']') {
                const qsizetype end = skipValue(s, i);
                if (end < 0 || s[i] != '{')
                    return false;
                scan->items.append(QByteArrayView(s.constData() + i, end - i));
                i = skipSpace(s, end);
                if (i < s.size() && s[i] == ',')
                    i = skipSpace(s, i + 1);
            }
            if (i >= s.size())
                return false;
            ++i;
        } else {
            const qsizetype end = skipValue(s, i);
            if (end < 0)
                return false;
            if (key == "kind" && s[i] == '"')
                scan->kind = QString::fromUtf8(s.constData() + i + 1, end - i - 2);
            else if (key == "metadata" && s[i] == '{')
                scan->metadata = QByteArrayView(s.constData() + i, end - i);
            i = end;
        }
        i = skipSpace(s, i);
        if (i < s.size() && s[i] == ',')
            i = skipSpace(s, i + 1);
    }
    return i < s.size() && sawItems;
}

ListMetadata listMetadata(const QByteArray &json)
{
    ListScan scan;
    QJsonObject metadata;
    if (scanList(json, &scan))
        metadata = QJsonDocument::fromJson(QByteArray::fromRawData(scan.metadata.data(), scan.metadata.size()))
                       .object();
    else
        metadata = QJsonDocument::fromJson(json).object().value(QLatin1String("metadata")).toObject();
    return {string(metadata, QLatin1StringView("resourceVersion")), string(metadata, QLatin1StringView("continue"))};
}

std::optional<KubeWatchEvent> parseWatchEvent(QByteArrayView line, QLatin1StringView itemKind, const QString &noun,
                                              QString *error, QStringView apiVersion)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromRawData(line.data(), line.size()), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = parseError.error != QJsonParseError::NoError
            ? u"a %1 watch event is not JSON (%2 at byte %3)"_s.arg(noun, parseError.errorString()).arg(parseError.offset)
            : u"a %1 watch event is not a JSON object"_s.arg(noun);
        return std::nullopt;
    }
    const QJsonObject event = document.object();
    const QString type = string(event, "type"_L1);
    KubeWatchEvent parsed;
    parsed.object = event.value("object"_L1).toObject();
    parsed.resourceVersion = string(parsed.object.value("metadata"_L1).toObject(), "resourceVersion"_L1);
    static const std::pair<const char *, KubeWatchEvent::Type> types[] = {
        {"ADDED", KubeWatchEvent::Type::Added}, {"MODIFIED", KubeWatchEvent::Type::Modified},
        {"DELETED", KubeWatchEvent::Type::Deleted}, {"BOOKMARK", KubeWatchEvent::Type::Bookmark},
        {"ERROR", KubeWatchEvent::Type::Error}};
    const auto known = std::find_if(std::begin(types), std::end(types),
                                    [&](const auto &t) { return type == QLatin1String(t.first); });
    if (known == std::end(types)) {
        *error = u"a %1 watch event of unknown type \"%2\""_s.arg(noun, type.left(40));
        return std::nullopt;
    }
    parsed.type = known->second;
    if (parsed.type == KubeWatchEvent::Type::Error) {
        parsed.errorCode = parsed.object.value("code"_L1).toInt();
        parsed.errorReason = string(parsed.object, "reason"_L1);
        parsed.errorMessage = string(parsed.object, "message"_L1);
        parsed.object = {};
        return parsed;
    }
    if (parsed.type == KubeWatchEvent::Type::Bookmark) {
        parsed.object = {};
        return parsed;
    }
    const QString kind = string(parsed.object, "kind"_L1);
    if (!kind.isEmpty() && kind != itemKind) {
        *error = u"a %1 watch event holds a %2, not a %3"_s.arg(noun, kind.left(40), QString(itemKind));
        return std::nullopt;
    }
    if (const QString problem = apiVersionProblem(string(parsed.object, "apiVersion"_L1), itemKind, apiVersion);
        !problem.isEmpty()) {
        *error = u"a %1 watch event: %2"_s.arg(noun, problem);
        return std::nullopt;
    }
    if (string(parsed.object.value("metadata"_L1).toObject(), "name"_L1).isEmpty()) {
        *error = u"a %1 watch event holds a %1 without a name"_s.arg(noun);
        return std::nullopt;
    }
    return parsed;
}

double containerRequest(const QJsonArray &containers, QLatin1StringView resource)
{
    double total = 0;
    for (const QJsonValue &value : containers) {
        const QJsonObject resources = value.toObject().value(QLatin1String("resources")).toObject();
        QJsonValue amount = resources.value(QLatin1String("requests")).toObject().value(resource);
        if (amount.isUndefined())
            amount = resources.value(QLatin1String("limits")).toObject().value(resource);
        if (amount.isUndefined())
            continue;
        const std::optional<double> parsed =
            amount.isDouble() ? std::optional<double>(amount.toDouble()) : KubeQuantity::parse(amount.toString());
        if (parsed)
            total += *parsed;
    }
    return total;
}

} // namespace strata::KubeJson
