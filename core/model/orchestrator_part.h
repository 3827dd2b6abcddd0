#pragma once

#include "error_kind.h"
#include "finding.h"
#include "job.h"
#include "node.h"
#include "partition.h"
#include "queue.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// What one refresh of an orchestrator (Slurm or Kubernetes) produced. error non-empty: the
// refresh failed and the other fields are empty.
struct OrchestratorPart
{
    QString error;
    ErrorKind errorKind = ErrorKind::None; // what to decide on; error is what to show
    QStringList warnings;                  // parts of the answer that could not be read (counted, named)
    // Set when the transport failed before the scheduler answered (see SourceStatus "ssh").
    bool transportFailed = false;
    QString hostKeyFingerprint; // with ErrorKind::HostKeyUnknown/Changed: the key offered
    QVector<Node> nodes;
    QVector<Partition> partitions;
    QVector<Queue> queues; // Kubernetes with Kueue: ClusterQueues, then LocalQueues (KueueFacts)
    QVector<Job> jobs;
    // Kubernetes: every listed pod bound to a node, "pod" and "namespace/pod" -> node name (the
    // metrics join finds an exporter pod's node by it).
    QHash<QString, QString> podNodes;
    // Set by a source that ran WorkloadDetector::apply on its jobs itself (on its own thread):
    // that call's findings. The session's merge then takes the jobs as they are, sharing them
    // with the part it keeps, instead of copying 50,000 of them to fill the same fields.
    std::optional<QVector<Finding>> workloadFindings;
    qint64 durationMs = 0;
    qint64 bytesRead = 0;
    // How the source reached its scheduler, for a person ("https://... through an SSH tunnel
    // from ..."); empty when there is only one way.
    QString via;
};

} // namespace strata
