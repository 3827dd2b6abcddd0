#include "unit_formatter.h"

namespace strata {

QString UnitFormatter::temperature(std::optional<double> celsius) const
{
    if (!celsius)
        return dash();
    if (m_preferences.temperatureUnit == DisplayPreferences::TemperatureUnit::Fahrenheit)
        return QStringLiteral("%1 °F").arg(*celsius * 9 / 5 + 32, 0, 'f', 0);
    return QStringLiteral("%1 °C").arg(*celsius, 0, 'f', 0);
}

QString UnitFormatter::memoryMiB(std::optional<double> mib) const
{
    if (!mib)
        return dash();
    if (m_preferences.memoryUnit == DisplayPreferences::MemoryUnit::MiB)
        return QStringLiteral("%1 MiB").arg(*mib, 0, 'f', 0);
    return QStringLiteral("%1 GiB").arg(*mib / 1024, 0, 'f', 1);
}

QString UnitFormatter::percent(std::optional<double> value)
{
    return value ? QStringLiteral("%1 %").arg(*value, 0, 'f', 0) : dash();
}

QString UnitFormatter::power(std::optional<double> watts)
{
    return watts ? QStringLiteral("%1 W").arg(*watts, 0, 'f', 0) : dash();
}

QString UnitFormatter::duration(qint64 seconds)
{
    if (seconds < 0)
        return dash();
    const qint64 days = seconds / 86400;
    const QString clock = QStringLiteral("%1:%2:%3")
                              .arg((seconds / 3600) % 24, 2, 10, QLatin1Char('0'))
                              .arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'))
                              .arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return days > 0 ? QStringLiteral("%1d %2").arg(days).arg(clock) : clock;
}

QString UnitFormatter::timeLimit(qint64 seconds)
{
    return seconds == 0 ? QStringLiteral("unlimited") : duration(seconds);
}

QString UnitFormatter::age(const QDateTime &then, const QDateTime &now)
{
    if (!then.isValid())
        return QStringLiteral("never");
    const qint64 seconds = qMax<qint64>(0, then.secsTo(now));
    if (seconds < 2)
        return QStringLiteral("just now");
    if (seconds < 120)
        return QStringLiteral("%1 s ago").arg(seconds);
    if (seconds < 7200)
        return QStringLiteral("%1 min ago").arg(seconds / 60);
    return QStringLiteral("%1 h ago").arg(seconds / 3600);
}

} // namespace strata
