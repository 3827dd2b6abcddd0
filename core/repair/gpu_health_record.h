#pragma once

#include <QDateTime>
#include <QMap>
#include <QString>

namespace strata {

// One GPU's lifetime in the repair loop, keyed by its UUID (the exporter's UUID label, NVML's in
// the agent), not by node name: it follows the GPU through a node rename, a reinstall or a move
// to another instance. Counts of what happened to it, when each last happened, and where it was
// last seen. A value.
struct GpuHealthRecord
{
    QString uuid;              // "GPU-8f6c..."
    QString node;              // where it was last seen
    int index = -1;            // its index there
    // event -> count: "suspected", "drained", "test-passed", "test-failed", "returned", "replace",
    // and the code of each finding that suspected it ("xid-79", "remapped-rows-uncorrectable")
    QMap<QString, int> events;
    QMap<QString, QDateTime> lastEvent; // event -> when it last happened (UTC)
    // The last burn-in figure per test ("gemm": TFLOPS, "hbm": TB/s copy bandwidth, as the
    // verdict's headline), from the loop's own tests.
    QMap<QString, double> burninFigures;

    // Counts one more `event` at `at` on `node`'s GPU `index`.
    void count(const QString &event, const QString &atNode, int atIndex, const QDateTime &at)
    {
        node = atNode;
        index = atIndex;
        ++events[event];
        lastEvent[event] = at;
    }
};

} // namespace strata
