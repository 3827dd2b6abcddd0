#pragma once

#include "node_health_state.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace strata {

// One node's place in the repair loop, with the evidence of its last step. What Strata publishes
// for the node (HealthExposition) and reads back (HealthSeriesParser): a value.
struct NodeHealthRecord
{
    QString node;
    NodeHealthState state = NodeHealthState::Healthy;
    QDateTime since;         // UTC: when it entered `state`; invalid: not known
    QDateTime drainedAt;     // UTC: when Strata last drained it (the hourly cap counts these); invalid: never
    QString evidenceCode;    // what moved it: a finding's code ("xid-79"), "test-passed", "test-failed"
    QString evidence;        // the finding's sentence, the test's figures
    QStringList gpuUuids;    // the node's GPUs (exporter UUID) when it entered `state`, index order
};

} // namespace strata
