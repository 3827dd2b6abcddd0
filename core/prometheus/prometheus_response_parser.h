#pragma once

#include "prometheus_response.h"

#include <QByteArray>
#include <QStringList>

namespace strata {

// Pure parser of Prometheus HTTP API bodies (`/api/v1/query`, `/api/v1/query_range`): bytes in,
// a PrometheusResponse out, never an exception. Thread-safe (no state); MetricsSource runs it
// on the QtConcurrent pool for big bodies.
//
// Built on simdjson's DOM (runtime-dispatched SIMD kernels) with interned label strings: a
// 16,384-GPU refresh is about 90 MB of JSON, and QJsonDocument was 5x (vectors) to 14x (matrices)
// slower on it (bench_metrics_join --compare, docs/metrics.md).
class PrometheusResponseParser
{
public:
    struct Options
    {
        // Only these labels are kept (empty: all). A cluster-wide DCGM query returns about a
        // dozen labels per series of which the join needs six; dropping the rest at parse
        // time halves the allocations.
        QStringList keepLabels;
        // The result type the caller expects, or None for any. A mismatch is an error
        // ("unexpected"), not a silently empty result.
        PrometheusResponse::ResultType expect = PrometheusResponse::ResultType::None;
        // The body is /api/v1/alerts' list (AlertsParser), not a query result: fills alerts.
        bool alertList = false;
    };

    // A 16,384-GPU matrix is about 90 MB; a body past this is refused unread ("json").
    static constexpr qsizetype maxInputBytes = qsizetype(1024) * 1024 * 1024;

    // httpStatus is the HTTP status the body came with (0 if unknown). An API error body
    // (`"status":"error"`) becomes ok=false with the server's errorType and error text.
    static PrometheusResponse parse(const QByteArray &body, int httpStatus, const Options &options);
    static PrometheusResponse parse(const QByteArray &body, int httpStatus = 200);

    // A sample value as the API writes it: "NaN", "+Inf", "-Inf", or a decimal/exponent number.
    // Returns nullopt for anything else.
    static std::optional<double> parseValue(std::string_view text);

    // The sentence shown for an API error, e.g.
    // "Prometheus rejected the query (HTTP 400, bad_data): parse error: ...".
    static QString describeApiError(int httpStatus, const QString &errorType, const QString &error);
};

} // namespace strata
