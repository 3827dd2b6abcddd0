#pragma once

#include "display_preferences.h"

#include <QDateTime>
#include <QString>

#include <optional>

namespace strata {

// Turns values into the text the tables and panes show, in the units chosen in Preferences.
// A missing value is always the dash, never "0".
class UnitFormatter
{
public:
    explicit UnitFormatter(const DisplayPreferences &preferences = {}) : m_preferences(preferences) {}

    static QString dash() { return QStringLiteral("\u2014"); }

    QString temperature(std::optional<double> celsius) const;
    QString memoryMiB(std::optional<double> mib) const;
    static QString percent(std::optional<double> value);
    static QString power(std::optional<double> watts);
    // "2d 03:04:05", "03:04:05"; "—" when unknown (negative)
    static QString duration(qint64 seconds);
    static QString timeLimit(qint64 seconds); // 0 is "unlimited"
    // "just now", "12 s ago", "3 min ago", "2 h ago"; "never" for a null time
    static QString age(const QDateTime &then, const QDateTime &now);

private:
    DisplayPreferences m_preferences;
};

} // namespace strata
