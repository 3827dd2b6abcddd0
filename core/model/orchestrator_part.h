#pragma once

#include "job.h"
#include "node.h"
#include "partition.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// What one refresh of an orchestrator (Slurm or Kubernetes) produced. error non-empty: the
// refresh failed and the other fields are empty.
struct OrchestratorPart
{
    QString error;
    QStringList warnings;
    // Set when the transport failed before the scheduler answered (see SourceStatus "ssh").
    bool transportFailed = false;
    bool hostKeyUnknown = false;   // a person must accept hostKeyFingerprint first
    QString hostKeyFingerprint; // parts of the answer that could not be read (counted, named)
    QVector<Node> nodes;
    QVector<Partition> partitions;
    QVector<Job> jobs;
    // Kubernetes: every listed pod bound to a node, "pod" and "namespace/pod" -> node name (the
    // metrics join finds an exporter pod's node by it).
    QHash<QString, QString> podNodes;
    qint64 durationMs = 0;
    qint64 bytesRead = 0;
};

} // namespace strata
