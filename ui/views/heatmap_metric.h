#pragma once

#include "model/node.h"

#include <QList>
#include <QString>

#include <optional>

namespace strata {

// The quantities the GPU heatmap can colour by, and how each maps onto the colour scale.
class HeatmapMetric
{
public:
    // NodeState: by StateColouring's classes (down, drained, powered down, busy, idle...).
    enum class Kind { NodeState, Allocation, Utilisation, Temperature, Power, Memory };

    static QList<Kind> all();
    static QString id(Kind kind);          // stable, for settings: "utilisation", ...
    static Kind fromId(const QString &id); // unknown ids: Utilisation
    static QString label(Kind kind);       // "Utilisation (%)"
    static QString lowLabel(Kind kind);    // the legend's ends: "0 %", "100 %"
    static QString highLabel(Kind kind);

    // The GPU's value in the metric's own unit; empty when the exporter did not report it.
    // Allocation is 1 (held by a job) or 0 and never missing.
    static std::optional<double> value(const Node &node, const Gpu &gpu, Kind kind);
    // The value's place on the scale, 0..1.
    static std::optional<double> normalised(const Node &node, const Gpu &gpu, Kind kind);
    // The short text drawn in a cell ("87"); the dash when missing.
    static QString cellText(const Node &node, const Gpu &gpu, Kind kind);
    // Board power limit used as the top of the power scale (W).
    static double powerLimitW(const QString &gpuModel);
};

} // namespace strata
