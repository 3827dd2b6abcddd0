#pragma once

#include "model/gpu.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// One DCGM exporter metric Strata reads, and where its value goes in GpuMetrics.
struct DcgmMetric
{
    QString name;          // "DCGM_FI_DEV_GPU_UTIL"
    QString friendlyName;  // "util": what `strata metrics --metric` accepts
    QString unit;          // "%", "C", "W", "MiB", "MHz", "ratio", "count", "code"
    QString description;
    std::optional<double> GpuMetrics::*field = nullptr;
};

// The DCGM metrics Strata knows (the exporter's default set, see REFERENCE). Immutable; every
// lookup is over a table of sixteen entries.
class DcgmMetricCatalog
{
public:
    static const QVector<DcgmMetric> &all();
    // By exporter name ("DCGM_FI_DEV_GPU_TEMP") or friendly name ("temp"), case-insensitive.
    static const DcgmMetric *find(QStringView nameOrFriendly);
    static const DcgmMetric *byName(QStringView name);
    // The gauges one refresh reads (all of the table; the PCIe replay counter too, as its
    // raw value; its increase is a separate query).
    static QStringList refreshMetricNames();
    // True for an exporter-style raw name, so unknown DCGM fields can still be charted.
    static bool looksLikeDcgmName(QStringView name);
};

} // namespace strata
