#pragma once

#include "queue.h"

#include <QJsonObject>

namespace strata {

// A queue in the documented JSON form (README "Snapshot JSON", `queues`): `strata snapshot
// --format json` and `strata queues --format json`. Quotas a queue does not set are null.
namespace QueueJson {

QJsonObject toJson(const Queue &queue);
QLatin1StringView kindName(Queue::Kind kind);                     // "ClusterQueue", "LocalQueue"
QLatin1StringView positionSourceName(Queue::PositionSource source); // "kueue", "creation-order", null-ish "none"

} // namespace QueueJson
} // namespace strata
