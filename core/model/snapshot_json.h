#pragma once

#include "cluster_snapshot.h"

#include <QJsonObject>

namespace strata {

// The documented, stable JSON form of a snapshot (README "Snapshot JSON"). Missing metrics are
// null, never 0. Used by `strata snapshot --format json` and report export.
namespace SnapshotJson {

QJsonObject toJson(const ClusterSnapshot &snapshot);
QJsonObject nodeToJson(const Node &node);
QJsonObject jobToJson(const Job &job);
QJsonObject findingToJson(const Finding &finding);

} // namespace SnapshotJson
} // namespace strata
