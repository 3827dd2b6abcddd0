#pragma once

#include "health_thresholds.h"
#include "job_usage.h"
#include "model/finding.h"
#include "model/job.h"
#include "profile/idle_gpu_limits.h"

#include <QVector>

namespace strata {

// Running jobs whose GPUs have all stayed idle (under HealthThresholds::idleUtilPercent) for
// longer than their partition's limit in the profile (IdleGpuLimits): one warning each, code
// "idle-gpu-limit", naming the job, its owner, how long and the limit, and offering the action
// (`strata cancel JOB`); Strata never takes it. Idle time is read from the usage history
// (JobUsage::summarise: since the last step at or over the threshold, from the job's start), so
// its resolution is the history's step; a job with a GPU without metrics is not judged (it may
// be busy). Recomputed with every refresh: it clears as soon as a GPU works again or the job
// ends. Pure; any thread.
namespace IdleGpuLimitFindings {

inline QString findingCode() { return QStringLiteral("idle-gpu-limit"); }

QVector<Finding> find(const QVector<Job> &jobs, const JobUsage::Input &input, const HealthThresholds &thresholds,
                      const IdleGpuLimits &limits);

} // namespace IdleGpuLimitFindings
} // namespace strata
