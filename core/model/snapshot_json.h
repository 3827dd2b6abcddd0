#pragma once

#include "cluster_snapshot.h"

#include <QByteArray>
#include <QJsonObject>

#include <functional>

namespace strata {

// The documented, stable JSON form of a snapshot (README "Snapshot JSON"). Missing metrics are
// null, never 0. Used by `strata snapshot --format json` and report export.
namespace SnapshotJson {

QJsonObject toJson(const ClusterSnapshot &snapshot);
// QJsonDocument(toJson(snapshot)).toJson(QJsonDocument::Indented), byte for byte, handed to
// `sink` in pieces of about `chunkBytes`, without ever holding all jobs' JSON: each job is made
// and written in turn. At 50,000 jobs the whole document and its QJsonObject tree were ~190 MB
// of the CLI's peak (heaptrack); this holds the rest of the snapshot's JSON and one chunk.
void writeIndented(const ClusterSnapshot &snapshot, const std::function<void(const QByteArray &)> &sink,
                   qsizetype chunkBytes = 1 << 20);
QJsonObject nodeToJson(const Node &node);
QJsonObject jobToJson(const Job &job);
QJsonObject findingToJson(const Finding &finding);

} // namespace SnapshotJson
} // namespace strata
