#pragma once

#include "silence_state.h"

#include <QDateTime>
#include <QString>
#include <QVector>

namespace strata {

// One matcher of an Alertmanager silence: label `name` equal to (or, with isRegex, fully
// matching) `value`; isEqual false inverts it (!=, !~). A value.
struct SilenceMatcher
{
    QString name;
    QString value;
    bool isRegex = false;
    bool isEqual = true;

    // "name=value", "name!=value", "name=~regex", "name!~regex": the form amtool prints and
    // `strata silence add --match` reads (SilenceRequest::parseMatcher).
    QString text() const;
    bool operator==(const SilenceMatcher &) const = default;
};

// A silence as Alertmanager's /api/v2/silences lists it (AlertmanagerParser). A value.
struct AlertSilence
{
    QString id;        // a UUID
    QString state;     // "active", "pending" (starts later) or "expired", as Alertmanager says
    SilenceState stateKind = SilenceState::Other; // `state` read once by the parser
    QVector<SilenceMatcher> matchers;
    QDateTime startsAt; // UTC
    QDateTime endsAt;
    QDateTime updatedAt;
    QString createdBy;
    QString comment;

    bool isActive() const { return stateKind == SilenceState::Active; }
    // The matchers as amtool writes them: {alertname="X", gpu="6"}.
    QString matchersText() const;
};

} // namespace strata
