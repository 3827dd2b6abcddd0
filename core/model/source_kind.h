#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// The data sources a session reports on (SourceStatus::source). Code decides on the value; the
// word ("ssh", "slurm", "prometheus", "kubernetes") is what logs, JSON and messages show.
enum class SourceKind {
    Ssh,
    Slurm,
    Prometheus,
    Kubernetes,
};

// "ssh", "slurm", "prometheus", "kubernetes": the word the snapshot JSON and the CLI use.
QString sourceKindName(SourceKind kind);
// The kind a word names, as sourceKindName writes it; nullopt for any other word.
std::optional<SourceKind> parseSourceKind(QStringView word);

} // namespace strata
