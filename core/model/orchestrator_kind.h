#pragma once

#include "source_kind.h"

#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// The scheduler behind a cluster (ClusterProfile::orchestrator, ClusterSnapshot::orchestrator,
// OrchestratorSource::kind()). The profile file and the snapshot JSON keep the word.
enum class OrchestratorKind {
    Slurm,
    Kubernetes,
};

// "slurm" or "kubernetes".
QString orchestratorKindName(OrchestratorKind kind);
// The kind a word names, as orchestratorKindName writes it; nullopt for any other word.
std::optional<OrchestratorKind> parseOrchestratorKind(QStringView word);
// The source that reports on this orchestrator in SourceStatus.
SourceKind sourceKind(OrchestratorKind kind);

} // namespace strata
