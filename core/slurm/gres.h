#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// One generic resource from Slurm's GRES strings: "gpu:h100:8(S:0-1)", "gpu:h100:2(IDX:0-1)".
struct GresEntry
{
    QString name;          // "gpu"
    QString type;          // "h100", empty when untyped
    int count = 0;         // 0..INT_MAX: an item with a negative count or one past int is unreadable
    QVector<int> indices;  // from (IDX:...), empty when absent or N/A
};

// A node's GPUs from its GRES (Gres= or GresUsed=), checked against GpuCount's bounds.
struct GresGpus
{
    GresEntry total;  // the GPU items summed (Gres::gpuTotal); count 0 when refused
    QVector<GresEntry> items; // the GPU items, in the order the node lists them; empty when refused
    QString refused;  // what the node reported, e.g. "GRES gpu:h100:2000000000", when its GPU
                      // count cannot be taken: a GPU item unreadable (negative, past int64, not
                      // a count) or more GPUs than GpuCount::kMaxPerNode
    bool ok() const { return refused.isEmpty(); }
};

namespace Gres {

// Parses a comma-separated GRES list. Unparseable items are skipped and named in *error, and
// listed in *unreadable. A count is decimal digits with Slurm's optional binary suffix (K, M, G,
// T, P: "1953125K"), within int; nothing else ("+2", " 2", "1e9", "-3" make the item unreadable).
QVector<GresEntry> parseList(const QString &text, QString *error = nullptr, QStringList *unreadable = nullptr);
// "0-1,4" -> {0,1,4}; false when malformed, or more than kMaxIndices indices in all.
bool parseIndexList(const QString &text, QVector<int> *indices);
constexpr int kMaxIndices = 4096;
// Sum of the GPU entries' counts (at most INT_MAX: the sum of hostile counts saturates instead
// of wrapping), their type (first seen) and indices.
GresEntry gpuTotal(const QVector<GresEntry> &entries);
// The GRES type of each of a node's `count` GPUs, by index ("" where no item says). Slurm
// numbers a node's GPUs in its gres.conf order, so the first item's GPUs take the lowest
// indices ("gpu:h100:2,gpu:h200:4": 0-1 h100, 2-5 h200); an item that names its indices
// (IDX:...) is taken at its word. `used` (GresUsed, which carries the indices Gres= lacks)
// then sets the type of every index it names: what the controller holds is the last word.
QStringList gpuTypesByIndex(const QVector<GresEntry> &configured, const QVector<GresEntry> &used, int count);
// A node's GPU count from its GRES: gpuTotal, refused past GpuCount::kMaxPerNode or when a GPU
// item could not be read. Other items that cannot be read are named in *error only.
GresGpus nodeGpus(const QString &text, QString *error = nullptr);

} // namespace Gres
} // namespace strata
