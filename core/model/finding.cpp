#include "finding.h"

namespace strata {

QString Finding::severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info: return QStringLiteral("info");
    case Severity::Warning: return QStringLiteral("warning");
    case Severity::Critical: return QStringLiteral("critical");
    }
    return QStringLiteral("warning");
}

} // namespace strata
