#pragma once

#include "prometheus/prometheus_response.h"

#include <QByteArray>
#include <QStringList>

namespace strata::bench {

// The QJsonDocument way of parsing a Prometheus vector/matrix body, kept only to measure it
// against PrometheusResponseParser (simdjson). Handles the success shapes the benchmark makes.
class QJsonResponseParser
{
public:
    static PrometheusResponse parse(const QByteArray &body, const QStringList &keepLabels);
};

} // namespace strata::bench
