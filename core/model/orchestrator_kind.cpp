#include "orchestrator_kind.h"

namespace strata {

QString orchestratorKindName(OrchestratorKind kind)
{
    switch (kind) {
    case OrchestratorKind::Slurm: return QStringLiteral("slurm");
    case OrchestratorKind::Kubernetes: return QStringLiteral("kubernetes");
    }
    return QString();
}

std::optional<OrchestratorKind> parseOrchestratorKind(QStringView word)
{
    for (OrchestratorKind kind : {OrchestratorKind::Slurm, OrchestratorKind::Kubernetes})
        if (word == orchestratorKindName(kind))
            return kind;
    return std::nullopt;
}

SourceKind sourceKind(OrchestratorKind kind)
{
    return kind == OrchestratorKind::Kubernetes ? SourceKind::Kubernetes : SourceKind::Slurm;
}

} // namespace strata
