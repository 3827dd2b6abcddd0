#pragma once

#include <QList>
#include <QString>

namespace strata {

// What a GPU time-series chart plots, with its unit and fixed axis range.
struct ChartMetric
{
    enum Kind { Utilisation, Temperature, Power, Memory };

    static QList<Kind> all() { return {Utilisation, Temperature, Power, Memory}; }
    static QString label(Kind kind)
    {
        switch (kind) {
        case Utilisation: return QStringLiteral("Utilisation (%)");
        case Temperature: return QStringLiteral("Temperature (°C)");
        case Power: return QStringLiteral("Power (W)");
        case Memory: return QStringLiteral("Memory used (GiB)");
        }
        return {};
    }
    // Axis maximum; 0 lets the data decide.
    static double axisMax(Kind kind) { return kind == Utilisation ? 100 : 0; }
};

} // namespace strata
