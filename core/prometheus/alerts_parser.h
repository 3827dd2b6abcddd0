#pragma once

#include "prometheus_response.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

// Pure parser of Prometheus's `/api/v1/alerts` body: bytes in, alerts or an error value out.
// A rule file rarely holds more than a few hundred alerts firing at once, so QJsonDocument is
// enough here (the metrics bodies use simdjson). Tested on real Prometheus 2.42 answers
// (tests/data/prometheus/alerts/).
namespace AlertsParser {

struct Result
{
    QVector<PrometheusAlert> alerts; // in the server's order
    QString error;                   // empty: parsed
};

// httpStatus: the status the body came with (API error bodies carry their own message).
Result parse(const QByteArray &body, int httpStatus = 200);

} // namespace AlertsParser
} // namespace strata
