#pragma once

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
    QString warning;       // some fields were not understood (named)
    QString apiVersion;    // openapi version the document carried, e.g. "0.0.38"
};

// `sinfo --json` (Slurm 22.05, openapi v0.0.38: "nodes" with state, state_flags, gres,
// gres_used, partitions, features, cpus, alloc_cpus, real_memory, reason). The instance type
// is the node feature that names a catalog instance type (e.g. "p5.48xlarge"); the GPU model
// comes from the GRES type through the catalog.
namespace SinfoJsonParser {

SinfoParseResult parse(const QByteArray &json, const GpuCatalog &catalog);
// "MIXED+DRAIN" style display state from the base state and flags, lower-case.
QString displayState(const QString &base, const QStringList &flags);

} // namespace SinfoJsonParser
} // namespace strata
