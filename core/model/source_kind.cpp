#include "source_kind.h"

namespace strata {

QString sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Ssh: return QStringLiteral("ssh");
    case SourceKind::Slurm: return QStringLiteral("slurm");
    case SourceKind::Prometheus: return QStringLiteral("prometheus");
    case SourceKind::Kubernetes: return QStringLiteral("kubernetes");
    }
    return QString();
}

std::optional<SourceKind> parseSourceKind(QStringView word)
{
    for (SourceKind kind : {SourceKind::Ssh, SourceKind::Slurm, SourceKind::Prometheus, SourceKind::Kubernetes})
        if (word == sourceKindName(kind))
            return kind;
    return std::nullopt;
}

} // namespace strata
