#pragma once

#include <QList>
#include <QString>

namespace strata {

// What a time-series chart plots, with its unit and fixed axis range: a GPU figure (per GPU)
// or, in a job's chart, what the application inside reports (one line for the job).
struct ChartMetric
{
    enum Kind { Utilisation, Temperature, Power, Memory, AppTokens, AppStep, AppWaiting };

    static QList<Kind> all() { return {Utilisation, Temperature, Power, Memory}; }
    static QList<Kind> forJobs() { return all() + QList<Kind>{AppTokens, AppStep, AppWaiting}; }
    static bool isApplication(Kind kind) { return kind == AppTokens || kind == AppStep || kind == AppWaiting; }
    // AppMetricsQuery::jobSeriesPromql's figure.
    static QString applicationFigure(Kind kind)
    {
        switch (kind) {
        case AppTokens: return QStringLiteral("tokens");
        case AppStep: return QStringLiteral("step");
        case AppWaiting: return QStringLiteral("requests-waiting");
        default: return {};
        }
    }
    static QString label(Kind kind)
    {
        switch (kind) {
        case Utilisation: return QStringLiteral("Utilisation (%)");
        case Temperature: return QStringLiteral("Temperature (°C)");
        case Power: return QStringLiteral("Power (W)");
        case Memory: return QStringLiteral("Memory used (GiB)");
        case AppTokens: return QStringLiteral("Application: tokens/s");
        case AppStep: return QStringLiteral("Application: step time (s)");
        case AppWaiting: return QStringLiteral("Application: requests waiting");
        }
        return {};
    }
    // Axis maximum; 0 lets the data decide.
    static double axisMax(Kind kind) { return kind == Utilisation ? 100 : 0; }
};

} // namespace strata
