#include "source_health.h"

#include <QCoreApplication>

namespace strata {

SourceHealth SourceHealth::assess(const QVector<SourceStatus> &sources)
{
    SourceHealth health;
    for (const SourceStatus &s : sources) {
        if (!s.configured)
            continue;
        if (!s.ok)
            health.failing.push_back({s.source, s.error, s.lastSuccess, s.stale});
        if (s.lastSuccess.isValid() && (!health.oldestData.isValid() || s.lastSuccess < health.oldestData)) {
            health.oldestData = s.lastSuccess;
            health.oldestSource = s.source;
        }
    }
    return health;
}

QString SourceHealth::displayName(const QString &source)
{
    if (source == QLatin1String("ssh"))
        return QCoreApplication::translate("SourceHealth", "SSH (login node)");
    if (source == QLatin1String("slurm"))
        return QStringLiteral("Slurm");
    if (source == QLatin1String("kubernetes"))
        return QStringLiteral("Kubernetes");
    if (source == QLatin1String("prometheus"))
        return QStringLiteral("Prometheus");
    return source;
}

} // namespace strata
