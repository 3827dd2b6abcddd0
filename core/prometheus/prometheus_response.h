#pragma once

#include "alert_state.h"
#include "model/error_kind.h"

#include <QDateTime>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// One point of a Prometheus series. Prometheus sends values as strings; "NaN", "+Inf" and
// "-Inf" become the matching doubles (check with std::isfinite before showing one).
struct PrometheusSample
{
    double time = 0;   // seconds since the epoch, with milliseconds
    double value = 0;
};

// Label name -> value, in the order the server sent them (Prometheus sorts them by name).
// A small vector beats a hash here: a DCGM series has about a dozen labels.
using PrometheusLabels = QVector<QPair<QString, QString>>;

struct PrometheusSeries
{
    PrometheusLabels labels;
    QVector<PrometheusSample> samples; // one for a vector result, many for a matrix

    // The value of label `name`, or an empty string when the series has no such label.
    QString label(QStringView name) const;
    bool hasLabel(QStringView name) const;
};

// One alert as Prometheus's `/api/v1/alerts` lists it (AlertsParser). A value.
struct PrometheusAlert
{
    QString name;            // the `alertname` label
    QString state;           // "firing" or "pending" (Prometheus); "inactive" never listed
    AlertState stateKind = AlertState::Other; // `state` read once by the parser
    PrometheusLabels labels; // all labels, alertname and severity included, sorted by name
    QString summary;         // the `summary` annotation, empty if none
    QString description;     // the `description` annotation
    QDateTime activeAt;      // UTC; invalid when not given
    std::optional<double> value; // the expression's value when it fired
    bool silenced = false;   // Alertmanager: suppressed by a silence (not known from Prometheus alone)
    QStringList silencedBy;  // Alertmanager: the ids of the silences that match it
    bool inhibited = false;  // Alertmanager: suppressed by an inhibition rule
    QString fingerprint;     // Alertmanager's id of the label set; empty from Prometheus

    QString label(QStringView name) const;
};

// The answer to one /api/v1/query or /api/v1/query_range request, or why there is none.
// A value: copy it across threads freely.
struct PrometheusResponse
{
    enum class ResultType { None, Vector, Matrix, Scalar, String };

    bool ok = false;
    // Filled when !ok: errorType is the API's own ("bad_data", "execution", "timeout", ...) or
    // one of ours: "transport" (no HTTP answer), "http" (an answer that is not the API's JSON),
    // "json" (malformed JSON), "truncated" (a body cut off mid-JSON: the connection broke),
    // "unexpected" (JSON, but not the shape the API documents), "timeout" (the whole request
    // took longer than allowed), "too_large" (more bytes than Strata reads), "redirect" (sent
    // to another origin: not followed).
    QString errorType;
    QString error;       // a sentence a person can act on
    int httpStatus = 0;  // 0: no HTTP answer (refused, timeout, TLS)
    QStringList warnings; // the API's "warnings", kept even on success

    ResultType resultType = ResultType::None;
    QVector<PrometheusSeries> series;      // vector and matrix results
    std::optional<PrometheusSample> scalar; // scalar results
    QString stringValue;                   // string results
    QVector<PrometheusAlert> alerts;       // /api/v1/alerts (Options::alertList)

    QString query;        // the PromQL asked, for messages and logs
    qint64 bytes = 0;     // body size
    qint64 elapsedMs = -1; // request sent -> parsed

    // The errorType as a kind to decide on: the client's own ("transport", "http", "json",
    // "unexpected", "canceled", "timeout") or the API's ("bad_data", ...: the query was refused).
    ErrorKind errorKind() const;
    // The answer broke off before its end (errorType "truncated", the parser's own word).
    bool isTruncated() const;

    static QString resultTypeName(ResultType type);
};

} // namespace strata
