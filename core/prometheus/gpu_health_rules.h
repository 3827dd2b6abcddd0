#pragma once

#include "health_thresholds.h"
#include "model/finding.h"
#include "model/gpu.h"

#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// Pure rules from one GPU's metrics to findings a person can act on. No state; any thread.
class GpuHealthRules
{
public:
    struct XidRule
    {
        Finding::Severity severity = Finding::Severity::Warning;
        QString meaning; // "GPU fell off the bus"
        QString action;  // "drain {node} and reboot it; ...": {node} and {gpu} are placeholders
    };

    // What an XID code means and what to do. Unknown codes get a generic rule (warning, look
    // it up, run a burn-in).
    static XidRule xidRule(int code);

    // Findings for one GPU the exporter reports: XID, remapped rows, temperatures, PCIe
    // replays (pcieReplaysIncrease: increase over the threshold window, when known).
    static QVector<Finding> evaluate(const QString &node, const Gpu &gpu,
                                     std::optional<double> pcieReplaysIncrease,
                                     const HealthThresholds &thresholds);
};

} // namespace strata
