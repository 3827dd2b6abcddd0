#include "display_preferences.h"

#include <QSettings>

namespace strata {

DisplayPreferences DisplayPreferences::load(const QSettings &settings)
{
    DisplayPreferences p;
    const int refresh = settings.value(QStringLiteral("preferences/refreshInterval"), 0).toInt();
    p.refreshIntervalSeconds = refresh <= 0 ? 0 : qBound(2, refresh, 3600);
    p.temperatureUnit = settings.value(QStringLiteral("preferences/temperatureUnit")).toString()
                                == QStringLiteral("F")
                            ? TemperatureUnit::Fahrenheit
                            : TemperatureUnit::Celsius;
    p.memoryUnit = settings.value(QStringLiteral("preferences/memoryUnit")).toString()
                           == QStringLiteral("MiB")
                       ? MemoryUnit::MiB
                       : MemoryUnit::GiB;
    p.heatmapMetric =
        settings.value(QStringLiteral("preferences/heatmapMetric"), p.heatmapMetric).toString();
    p.terminalCommand = settings.value(QStringLiteral("preferences/terminalCommand")).toString();
    return p;
}

void DisplayPreferences::save(QSettings &settings) const
{
    settings.setValue(QStringLiteral("preferences/refreshInterval"), refreshIntervalSeconds);
    settings.setValue(QStringLiteral("preferences/temperatureUnit"),
                      temperatureUnit == TemperatureUnit::Fahrenheit ? QStringLiteral("F")
                                                                     : QStringLiteral("C"));
    settings.setValue(QStringLiteral("preferences/memoryUnit"),
                      memoryUnit == MemoryUnit::MiB ? QStringLiteral("MiB") : QStringLiteral("GiB"));
    settings.setValue(QStringLiteral("preferences/heatmapMetric"), heatmapMetric);
    settings.setValue(QStringLiteral("preferences/terminalCommand"), terminalCommand);
}

} // namespace strata
