#include "alerts_parser.h"

#include "prometheus_response_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace strata {

QString PrometheusAlert::label(QStringView name) const
{
    for (const auto &[key, value] : labels)
        if (key == name)
            return value;
    return {};
}

namespace AlertsParser {

Result parse(const QByteArray &body, int httpStatus)
{
    Result r;
    QJsonParseError jsonError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &jsonError);
    if (jsonError.error != QJsonParseError::NoError || !doc.isObject()) {
        r.error = QStringLiteral("Prometheus's alert list (HTTP %1) is not JSON: %2")
                      .arg(httpStatus)
                      .arg(jsonError.error != QJsonParseError::NoError ? jsonError.errorString()
                                                                        : QStringLiteral("not an object"));
        return r;
    }
    const QJsonObject root = doc.object();
    if (root.value(QLatin1String("status")).toString() != QLatin1String("success")) {
        r.error = PrometheusResponseParser::describeApiError(httpStatus, root.value(QLatin1String("errorType")).toString(),
                                                             root.value(QLatin1String("error")).toString());
        return r;
    }
    const QJsonValue alerts = root.value(QLatin1String("data")).toObject().value(QLatin1String("alerts"));
    if (!alerts.isArray()) {
        r.error = QStringLiteral("Prometheus's alert list has no data.alerts array (HTTP %1)").arg(httpStatus);
        return r;
    }
    const QJsonArray list = alerts.toArray();
    r.alerts.reserve(list.size());
    for (const QJsonValue &v : list) {
        const QJsonObject o = v.toObject();
        const QJsonObject labels = o.value(QLatin1String("labels")).toObject();
        PrometheusAlert a;
        a.name = labels.value(QLatin1String("alertname")).toString();
        if (a.name.isEmpty()) {
            r.error = QStringLiteral("an alert in Prometheus's list has no alertname label");
            r.alerts.clear();
            return r;
        }
        for (auto it = labels.begin(); it != labels.end(); ++it)
            a.labels.append({it.key(), it.value().toString()});
        std::sort(a.labels.begin(), a.labels.end());
        const QJsonObject annotations = o.value(QLatin1String("annotations")).toObject();
        a.summary = annotations.value(QLatin1String("summary")).toString();
        a.description = annotations.value(QLatin1String("description")).toString();
        a.state = o.value(QLatin1String("state")).toString();
        a.stateKind = parseAlertState(a.state);
        a.activeAt = QDateTime::fromString(o.value(QLatin1String("activeAt")).toString(), Qt::ISODateWithMs).toUTC();
        const QByteArray value = o.value(QLatin1String("value")).toString().toLatin1();
        if (!value.isEmpty())
            a.value = PrometheusResponseParser::parseValue(std::string_view(value.constData(), size_t(value.size())));
        r.alerts << a;
    }
    return r;
}

} // namespace AlertsParser
} // namespace strata
