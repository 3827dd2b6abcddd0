#pragma once

#include "alert_silence.h"

#include <QByteArray>
#include <QDateTime>
#include <QPair>
#include <QString>
#include <QVector>

namespace strata {

// A new silence to POST to Alertmanager's /api/v2/silences. Built by `strata silence add`
// (from --alert/--match) and by the window (from one alert's labels); checked before anything
// is sent, so a refused request is an InvalidRequest value and never reaches the server.
struct SilenceRequest
{
    QVector<SilenceMatcher> matchers;
    QDateTime startsAt; // UTC; invalid: now
    QDateTime endsAt;   // UTC
    QString createdBy;
    QString comment;

    // Empty when the request can be sent; else why not (no matcher, end not after start, no
    // author or comment, a matcher without a name, an invalid regular expression).
    QString validate(const QDateTime &now) const;
    // The JSON body Alertmanager's API (0.25: PostableSilence) takes.
    QByteArray toJson(const QDateTime &now) const;

    // "name=value", "name!=value", "name=~re", "name!~re" (quotes around the value allowed, as
    // amtool writes them). Anything else sets *error (cleared on success).
    static SilenceMatcher parseMatcher(const QString &text, QString *error);
    // Who makes a silence by default: $USER, else $LOGNAME, else the account's name.
    static QString defaultAuthor();
    // A silence for exactly one alert: an equality matcher per label (its alertname included),
    // so it silences that alert and no other.
    static SilenceRequest forAlert(const QVector<QPair<QString, QString>> &labels, const QDateTime &start,
                                   qint64 durationSeconds, const QString &author, const QString &comment);
};

} // namespace strata
