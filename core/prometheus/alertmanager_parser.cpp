#include "alertmanager_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace strata::AlertmanagerParser {

using namespace Qt::StringLiterals;

namespace {

QDateTime timeOf(const QJsonObject &o, QLatin1StringView key)
{
    return QDateTime::fromString(o.value(key).toString(), Qt::ISODateWithMs).toUTC();
}

QStringList stringsOf(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

bool isSuccess(int status)
{
    return status >= 200 && status < 300;
}

// The JSON array a list endpoint answers with, or the error that says why there is none.
template <typename Result>
bool readArray(const QByteArray &body, int httpStatus, const QString &what, QJsonArray *out, Result *r)
{
    if (!isSuccess(httpStatus)) {
        r->error = describeError(body, httpStatus);
        r->errorKind = ErrorKind::CommandFailed;
        return false;
    }
    QJsonParseError jsonError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &jsonError);
    if (jsonError.error != QJsonParseError::NoError || !doc.isArray()) {
        r->error = u"Alertmanager's %1 (HTTP %2) is not a JSON array: %3"_s.arg(
            what, QString::number(httpStatus),
            jsonError.error != QJsonParseError::NoError ? jsonError.errorString() : u"another JSON value"_s);
        r->errorKind = ErrorKind::ParseFailed;
        return false;
    }
    *out = doc.array();
    return true;
}

} // namespace

QString describeError(const QByteArray &body, int httpStatus)
{
    if (isSuccess(httpStatus))
        return {};
    QString message;
    QJsonParseError jsonError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &jsonError);
    if (jsonError.error == QJsonParseError::NoError && doc.isObject())
        message = doc.object().value("message"_L1).toString();
    // A bare JSON string ("silence not found") is not a document QJsonDocument reads: unquote it.
    const QByteArray trimmed = body.trimmed();
    if (message.isEmpty() && trimmed.size() >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"'))
        message = QJsonDocument::fromJson("[" + trimmed + "]").array().at(0).toString();
    if (message.isEmpty())
        message = QString::fromUtf8(trimmed.left(300));
    if (message.isEmpty())
        return u"Alertmanager answered HTTP %1 with no message"_s.arg(httpStatus);
    return u"Alertmanager refused the request (HTTP %1): %2"_s.arg(httpStatus).arg(message);
}

AlertsResult parseAlerts(const QByteArray &body, int httpStatus)
{
    AlertsResult r;
    QJsonArray list;
    if (!readArray(body, httpStatus, u"alert list"_s, &list, &r))
        return r;
    r.alerts.reserve(list.size());
    for (const QJsonValue &v : std::as_const(list)) {
        const QJsonObject o = v.toObject();
        const QJsonObject labels = o.value("labels"_L1).toObject();
        PrometheusAlert a;
        a.name = labels.value("alertname"_L1).toString();
        if (!v.isObject() || a.name.isEmpty()) {
            r.alerts.clear();
            r.error = u"an alert in Alertmanager's list has no alertname label"_s;
            r.errorKind = ErrorKind::ParseFailed;
            return r;
        }
        for (auto it = labels.begin(); it != labels.end(); ++it)
            a.labels.append({it.key(), it.value().toString()});
        std::sort(a.labels.begin(), a.labels.end());
        const QJsonObject annotations = o.value("annotations"_L1).toObject();
        a.summary = annotations.value("summary"_L1).toString();
        a.description = annotations.value("description"_L1).toString();
        a.activeAt = timeOf(o, "startsAt"_L1);
        a.fingerprint = o.value("fingerprint"_L1).toString();
        const QJsonObject status = o.value("status"_L1).toObject();
        a.silencedBy = stringsOf(status.value("silencedBy"_L1));
        a.silenced = !a.silencedBy.isEmpty();
        a.inhibited = !status.value("inhibitedBy"_L1).toArray().isEmpty();
        a.state = u"firing"_s;
        a.stateKind = AlertState::Firing;
        r.alerts << a;
    }
    return r;
}

SilencesResult parseSilences(const QByteArray &body, int httpStatus)
{
    SilencesResult r;
    QJsonArray list;
    if (!readArray(body, httpStatus, u"silence list"_s, &list, &r))
        return r;
    r.silences.reserve(list.size());
    for (const QJsonValue &v : std::as_const(list)) {
        const QJsonObject o = v.toObject();
        AlertSilence s;
        s.id = o.value("id"_L1).toString();
        s.state = o.value("status"_L1).toObject().value("state"_L1).toString();
        s.stateKind = parseSilenceState(s.state);
        if (s.id.isEmpty() || s.state.isEmpty()) {
            r.silences.clear();
            r.error = u"a silence in Alertmanager's list has no id or state"_s;
            r.errorKind = ErrorKind::ParseFailed;
            return r;
        }
        for (const QJsonValue &m : o.value("matchers"_L1).toArray()) {
            const QJsonObject mo = m.toObject();
            // isEqual is absent before Alertmanager 0.22: equality.
            s.matchers.append(SilenceMatcher{mo.value("name"_L1).toString(), mo.value("value"_L1).toString(),
                                             mo.value("isRegex"_L1).toBool(), mo.value("isEqual"_L1).toBool(true)});
        }
        s.startsAt = timeOf(o, "startsAt"_L1);
        s.endsAt = timeOf(o, "endsAt"_L1);
        s.updatedAt = timeOf(o, "updatedAt"_L1);
        s.createdBy = o.value("createdBy"_L1).toString();
        s.comment = o.value("comment"_L1).toString();
        r.silences << s;
    }
    return r;
}

SilenceIdResult parseSilenceCreated(const QByteArray &body, int httpStatus)
{
    SilenceIdResult r;
    if (!isSuccess(httpStatus)) {
        r.error = describeError(body, httpStatus);
        r.errorKind = ErrorKind::CommandFailed;
        return r;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    r.id = doc.object().value("silenceID"_L1).toString();
    if (r.id.isEmpty()) {
        r.error = u"Alertmanager accepted the silence (HTTP %1) but its answer names no silenceID"_s.arg(httpStatus);
        r.errorKind = ErrorKind::ParseFailed;
    }
    return r;
}

} // namespace strata::AlertmanagerParser
