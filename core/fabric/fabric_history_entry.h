#pragma once

#include "fabric_isolation.h"
#include "model/fabric_history_record.h"

#include <QDateTime>
#include <QVector>

#include <optional>

namespace strata {

// What the history keeps of one group of a fabric run (FabricHistoryRecord): its all-reduce
// figure at the largest message size and its latency at the smallest. Nothing for a group that
// measured no figure (it failed: there is nothing to compare a fleet with). Pure.
std::optional<FabricHistoryRecord> fabricHistoryEntry(const FabricRoundGroup &group, const QString &runId,
                                                      const QDateTime &time, const QString &instanceType);

} // namespace strata
