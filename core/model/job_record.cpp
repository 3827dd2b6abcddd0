#include "job_record.h"

#include "history_period.h"

#include <algorithm>

namespace strata {

namespace {

double spanHours(int gpus, const QDateTime &started, const QDateTime &ended, const HistoryPeriod &period)
{
    if (gpus <= 0 || !started.isValid())
        return 0;
    const QDateTime from = std::max(started, period.start);
    const QDateTime to = ended.isValid() ? std::min(ended, period.end) : period.end;
    if (to <= from)
        return 0;
    return double(gpus) * double(from.msecsTo(to)) / 3'600'000.0;
}

} // namespace

double JobRecord::gpuHours(const HistoryPeriod &period) const
{
    if (!period.isValid())
        return 0;
    if (!pods.isEmpty()) {
        double hours = 0;
        for (const PodSpan &pod : pods)
            hours += spanHours(pod.gpus, pod.started, pod.ended, period);
        return hours;
    }
    return spanHours(gpus, started, ended, period);
}

} // namespace strata
