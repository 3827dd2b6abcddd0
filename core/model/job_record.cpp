#include "job_record.h"

#include "history_period.h"

#include <algorithm>

namespace strata {

double JobRecord::gpuHours(const HistoryPeriod &period) const
{
    if (gpus <= 0 || !started.isValid() || !period.isValid())
        return 0;
    const QDateTime from = std::max(started, period.start);
    const QDateTime to = ended.isValid() ? std::min(ended, period.end) : period.end;
    if (to <= from)
        return 0;
    return double(gpus) * double(from.msecsTo(to)) / 3'600'000.0;
}

} // namespace strata
