#pragma once

#include "burnin_event.h"

#include <optional>

namespace strata {

// Everything one node's agent said during one burn-in, gathered from its events in order.
struct BurninNodeRun
{
    QString node;                        // the name the run was launched for (Slurm node name)
    std::optional<BurninStart> start;
    QVector<BurninResult> results;
    QVector<BurninError> errors;
    QVector<BurninParseError> parseErrors;
    std::optional<BurninSummary> summary;
    QString launchError;                 // why the agent never ran there, if it did not

    void add(const BurninEvent &event);
    static BurninNodeRun fromEvents(const QString &node, const QVector<BurninEvent> &events);
};

} // namespace strata
