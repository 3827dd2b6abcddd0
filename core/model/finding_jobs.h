#pragma once

#include "finding.h"
#include "job.h"
#include "node.h"

#include <QHash>
#include <QVector>

namespace strata {

// Which jobs a finding about a GPU or a node affects, so the operator does not have to work it
// out: a GPU's is the job holding it (Gpu::jobId; in MIG mode every instance's job), a node's
// every job placed on it (running, configuring, completing or suspended). Pure; run by
// ClusterSnapshot::finalize over the joined snapshot.
namespace FindingJobs {

// Fills Finding::jobs (and Finding::job, the first) of each finding with a node that names no
// job yet; a finding that already names one (an alert's hpc_job label) keeps it.
void attach(QVector<Finding> &findings, const QVector<Node> &nodes, const QVector<Job> &jobs,
            const QHash<QString, int> &nodeIndexByName);

} // namespace FindingJobs
} // namespace strata
