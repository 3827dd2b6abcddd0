#pragma once

#include "finding.h"

#include <QString>
#include <QVector>

namespace strata {

struct Job;
struct Node;

// Findings about cloud nodes' power: a node whose launch failed (Slurm's ResumeTimeout: the
// instance never registered, the node is `down~`, the jobs that waited for it are requeued).
// Nodes that are simply not launched are no finding: that is what power saving is for.
namespace PowerFindings {

inline QString launchFailedCode() { return QStringLiteral("node-launch-failed"); }
// One finding per node whose power is FailedToLaunch, naming the node, Slurm's reason and the
// jobs that waited for it (Node::jobsAwaitingLaunch, with their state now from `jobs`).
QVector<Finding> findings(const QVector<Node> &nodes, const QVector<Job> &jobs);

} // namespace PowerFindings
} // namespace strata
