#pragma once

#include "fabric_history_record.h"
#include "fleet_comparison.h"

#include <QVector>

namespace strata {

// A fabric group's figure against the fleet (issue 27): its peers are the earlier records
// (another run) of the same instance type, node count, tool, backend, collective and largest
// message size; the all-reduce bus bandwidth is compared by median and MAD (compareWithFleet,
// higher is better), an outlier named with its robust-z distance. The standing is shown beside
// the verdict against the spec floor and never changes it. Pure.
namespace FabricFleet {

// Whether `candidate` is a peer of `record`: same key, another run, a figure. A record of no
// known instance type has no peers.
bool isPeer(const FabricHistoryRecord &record, const FabricHistoryRecord &candidate);

FleetComparison compare(const FabricHistoryRecord &record, const QVector<FabricHistoryRecord> &history,
                        const FleetRule &rule = {});

} // namespace FabricFleet

} // namespace strata
