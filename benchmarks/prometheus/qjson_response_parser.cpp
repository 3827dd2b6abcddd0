#include "qjson_response_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::bench {

PrometheusResponse QJsonResponseParser::parse(const QByteArray &body, const QStringList &keepLabels)
{
    PrometheusResponse out;
    out.bytes = body.size();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        out.errorType = QStringLiteral("json");
        out.error = error.errorString();
        return out;
    }
    const QJsonObject data = doc.object().value(QLatin1String("data")).toObject();
    const QString type = data.value(QLatin1String("resultType")).toString();
    out.resultType = type == QLatin1String("matrix") ? PrometheusResponse::ResultType::Matrix
                                                     : PrometheusResponse::ResultType::Vector;
    const QJsonArray result = data.value(QLatin1String("result")).toArray();
    out.series.reserve(result.size());
    const auto sample = [](const QJsonArray &pair) {
        return PrometheusSample{pair.at(0).toDouble(), pair.at(1).toString().toDouble()};
    };
    for (const QJsonValue &v : result) {
        const QJsonObject o = v.toObject();
        PrometheusSeries s;
        const QJsonObject metric = o.value(QLatin1String("metric")).toObject();
        for (auto it = metric.begin(); it != metric.end(); ++it)
            if (keepLabels.isEmpty() || keepLabels.contains(it.key()))
                s.labels.append({it.key(), it.value().toString()});
        if (o.contains(QLatin1String("value"))) {
            s.samples.append(sample(o.value(QLatin1String("value")).toArray()));
        } else {
            const QJsonArray values = o.value(QLatin1String("values")).toArray();
            s.samples.reserve(values.size());
            for (const QJsonValue &p : values)
                s.samples.append(sample(p.toArray()));
        }
        out.series.append(std::move(s));
    }
    out.ok = true;
    return out;
}

} // namespace strata::bench
