#pragma once

#include "model/cluster_snapshot.h"

class QCoreApplication;

namespace strata {

struct ClusterProfile;
struct SourceStatus;

// One refresh of a profile's cluster, for a command that prints what it read (`strata snapshot`,
// `strata queues`): the session runs until its first snapshot and is freed before the snapshot
// is handed back (what it keeps for a next refresh, tens of MB at 50,000 jobs, is not needed to
// print). Null when there is nothing to print: the orchestrator gave no answer or failed, said
// on stderr, and *exitCode is the command's status; otherwise *orchestrator is its status
// (ok, with its warnings in `error`).
namespace OneRefresh {
SnapshotPtr take(QCoreApplication &app, const ClusterProfile &profile, const SourceStatus **orchestrator,
                 int *exitCode);
} // namespace OneRefresh

} // namespace strata
