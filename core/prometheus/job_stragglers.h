#pragma once

#include "health_thresholds.h"
#include "job_usage.h"
#include "model/finding.h"
#include "model/job.h"

#include <QVector>

namespace strata {

// Stragglers in running jobs: in a synchronous job over several nodes the slowest node sets the
// pace for all of them, while every pass/fail check stays green. From the usage history (one
// utilisation series per GPU, JobUsage::Input), each step of the last window compares each of
// a job's nodes (the mean of its GPUs) with the median of the job's other nodes; a node that
// lags by the thresholds' gap in most steps is a finding ("job-straggler", warning) naming the
// job, the node and the evidence. Robust to a job whose nodes differ a little (the gap is at
// least three scaled median absolute deviations of the other nodes) and to a history with gaps
// (a step counts only where the node and at least one other node have values).
// Pure; any thread. Thresholds: HealthThresholds::straggler*.
namespace JobStragglers {

// The findings' code.
inline QString findingCode() { return QStringLiteral("job-straggler"); }

QVector<Finding> find(const QVector<Job> &jobs, const JobUsage::Input &input, const HealthThresholds &thresholds);

} // namespace JobStragglers
} // namespace strata
