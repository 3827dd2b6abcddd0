#include "finding.h"

namespace strata {

Finding Finding::make(Severity severity, const QString &node, int gpu, const QString &code, const QString &message)
{
    Finding f;
    f.severity = severity;
    f.node = node;
    f.gpu = gpu;
    f.code = code;
    f.message = message;
    return f;
}

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
