#pragma once

#include "model/error_kind.h"
#include "model/node.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

class GpuCatalog;

struct SinfoParseResult
{
    QVector<Node> nodes;   // sorted by name
    QString error;         // the whole document failed
    ErrorKind errorKind = ErrorKind::None; // with error: ParseFailed, CommandFailed (Slurm's own
                                          // error inside), SourceUnsupported (a grouped 23.02+ sinfo)
    QString warning;       // some fields were not understood (named)
    QString apiVersion;    // plugin version the document carried, e.g. "0.0.38", "0.0.42"
    QString release;       // Slurm release the document names, e.g. "24.11.5"
};

// The per-node JSON of every Slurm release Strata reads, one object per node in "nodes":
//  - 22.05 `sinfo --json` (openapi v0.0.38: state + state_flags, features as one string);
//  - 23.02+ `scontrol --json show nodes` (data_parser v0.0.39 .. v0.0.44: state lists,
//    features/partitions as lists, some numbers wrapped), shapes read by SlurmJson.
// Both carry name, gres, gres_used ("gpu:h100:2(IDX:0-1)"), cpus, alloc_cpus, real_memory,
// reason, reason_set_by_user, partitions, features/active_features. The grouped
// `{"sinfo": [...]}` of 23.02+ `sinfo --json` is refused with an error that says so. The instance
// type is the cloud "instance_type" (v0.0.40+) or the node feature that names a catalog
// instance type (e.g. "p5.48xlarge"); the GPU model comes from the GRES type via the catalog.
namespace SinfoJsonParser {
// About 3 KB a node: 2,000 nodes are 6 MB.
constexpr qsizetype maxInputBytes = qsizetype(256) * 1024 * 1024;

SinfoParseResult parse(const QByteArray &json, const GpuCatalog &catalog);
// "MIXED+DRAIN" style display state from the base state and flags, lower-case.
QString displayState(const QString &base, const QStringList &flags);
// Whether the node's machine runs, from Slurm's power flags (POWERING_UP `#`, POWERED_DOWN `~`,
// POWERING_DOWN `%`) and, for a powered-down node that is DOWN, its reason: Slurm's own
// "ResumeTimeout reached" (possibly after an admin's text) is a launch that failed.
PowerState powerState(const QString &base, const QStringList &flags, const QString &reason);

} // namespace SinfoJsonParser
} // namespace strata
