#pragma once

#include <QString>
#include <QStringView>

namespace strata {

// Where an Alertmanager silence stands (AlertSilence::state keeps the word): read once by
// AlertmanagerParser.
enum class SilenceState {
    Other, // a word not listed here
    Active,
    Pending, // starts later
    Expired,
};

// "active", "pending" or "expired"; empty for Other.
QString silenceStateName(SilenceState state);
// The state a word names ("active"); Other for any other word.
SilenceState parseSilenceState(QStringView word);

} // namespace strata
