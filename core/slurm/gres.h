#pragma once

#include <QString>
#include <QVector>

namespace strata {

// One generic resource from Slurm's GRES strings: "gpu:h100:8(S:0-1)", "gpu:h100:2(IDX:0-1)".
struct GresEntry
{
    QString name;          // "gpu"
    QString type;          // "h100", empty when untyped
    int count = 0;
    QVector<int> indices;  // from (IDX:...), empty when absent or N/A
};

namespace Gres {

// Parses a comma-separated GRES list. Unparseable items are skipped and named in *error.
QVector<GresEntry> parseList(const QString &text, QString *error = nullptr);
// "0-1,4" -> {0,1,4}; false when malformed.
bool parseIndexList(const QString &text, QVector<int> *indices);
// Sum of the GPU entries' counts, their type (first seen) and indices.
GresEntry gpuTotal(const QVector<GresEntry> &entries);

} // namespace Gres
} // namespace strata
