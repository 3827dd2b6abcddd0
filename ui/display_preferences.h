#pragma once

#include <QString>

class QSettings;

namespace strata {

// What a person can set in Preferences. Stored with QSettings (no secrets here).
struct DisplayPreferences
{
    enum class TemperatureUnit { Celsius, Fahrenheit };
    enum class MemoryUnit { GiB, MiB };

    int refreshIntervalSeconds = 0; // 0: each profile's own interval
    TemperatureUnit temperatureUnit = TemperatureUnit::Celsius;
    MemoryUnit memoryUnit = MemoryUnit::GiB;
    QString heatmapMetric = QStringLiteral("utilisation"); // HeatmapMetric::id()
    // "Open shell"'s terminal, with {command} and {title} (ShellCommand::terminalArguments);
    // empty: $TERMINAL, else x-terminal-emulator, else xterm.
    QString terminalCommand;

    static DisplayPreferences load(const QSettings &settings);
    void save(QSettings &settings) const;
    bool operator==(const DisplayPreferences &) const = default;
};

} // namespace strata
