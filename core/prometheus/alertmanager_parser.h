#pragma once

#include "alert_silence.h"
#include "model/error_kind.h"
#include "prometheus_response.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

// Pure parsers of Alertmanager's API v2 answers (tested on real 0.25 captures in
// tests/data/alertmanager/): bytes and the HTTP status in, values or an error value out.
// Alertmanager's own errors come as {"code":612,"message":"..."} (422, validation), a bare
// JSON string ("silence not found", 500) or plain text (400): each becomes a sentence with the
// status, kind CommandFailed (the server refused); a body that is not the documented shape is
// ParseFailed.
namespace AlertmanagerParser {

struct AlertsResult
{
    // GET /api/v2/alerts. State "active", "suppressed" and "unprocessed" all mean the alert is
    // firing at its source: state is "firing"; silenced/silencedBy, inhibited, fingerprint and
    // activeAt (startsAt) come from Alertmanager's status.
    QVector<PrometheusAlert> alerts;
    QString error;
    ErrorKind errorKind = ErrorKind::None;
};

struct SilencesResult
{
    QVector<AlertSilence> silences; // GET /api/v2/silences, in the server's order
    QString error;
    ErrorKind errorKind = ErrorKind::None;
};

struct SilenceIdResult
{
    QString id; // POST /api/v2/silences: {"silenceID": "..."}
    QString error;
    ErrorKind errorKind = ErrorKind::None;
};

AlertsResult parseAlerts(const QByteArray &body, int httpStatus);
SilencesResult parseSilences(const QByteArray &body, int httpStatus);
SilenceIdResult parseSilenceCreated(const QByteArray &body, int httpStatus);
// The sentence for an answer with an error status (any body shape); empty for 2xx.
QString describeError(const QByteArray &body, int httpStatus);

} // namespace AlertmanagerParser
} // namespace strata
