#pragma once

#include <QString>
#include <QStringView>

namespace strata {

// Where an alert stands (PrometheusAlert::state keeps the word): read once by the parsers.
enum class AlertState {
    Other, // a word not listed here
    Firing,
    Pending,
};

// "firing" or "pending"; empty for Other.
QString alertStateName(AlertState state);
// The state a word names ("firing"); Other for any other word.
AlertState parseAlertState(QStringView word);

} // namespace strata
