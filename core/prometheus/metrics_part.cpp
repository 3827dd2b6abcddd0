#include "metrics_part.h"

namespace strata {

SourceStatus MetricsPart::status() const
{
    SourceStatus s;
    s.source = QStringLiteral("prometheus");
    s.configured = true;
    s.ok = ok();
    s.error = error;
    s.lastAttempt = takenAt;
    if (s.ok)
        s.lastSuccess = takenAt;
    s.lastDurationMs = durationMs;
    return s;
}

} // namespace strata
