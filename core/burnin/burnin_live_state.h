#pragma once

#include "burnin_event.h"
#include "burnin_verdict.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

// What one GPU shows while its burn-in runs: the test it is in, the latest figures and
// telemetry, and the verdict as it forms (the agent's own per-test verdicts; the judge's
// comparison with the datasheet and the peers comes with finish()).
struct BurninLiveGpu
{
    enum class Verdict { Waiting, Running, Passing, Failing, Passed, Failed };

    QString node;
    int gpu = -1;
    QString uuid;
    QString currentTest;
    double fraction = 0;                  // of the current test
    int testsDone = 0;
    std::optional<double> tflops;         // gemm: the running figure, then the result
    std::optional<double> bandwidthGBps;  // hbm copy bandwidth, likewise
    std::optional<double> tempC;
    std::optional<double> powerW;
    std::optional<double> smClockMHz;
    std::optional<double> memClockMHz;
    QStringList throttleReasons;
    Verdict verdict = Verdict::Waiting;
    QStringList reasons;

    static QString verdictText(Verdict verdict);
};

// Folds the agent's events of one burn-in into one row per GPU. Pure (no I/O, no QObject);
// the window's live model wraps it. Rows exist from the start for every GPU the scheduler
// said a node has, so a GPU that never reports stays visible as waiting.
class BurninLiveState
{
public:
    void reset(const QMap<QString, int> &gpusByNode, const QStringList &tests);
    // Applies one event; returns the rows it changed (indexes into gpus()). *added is set when
    // rows were appended (a node with more GPUs than expected).
    QVector<int> add(const QString &node, const BurninEvent &event, bool *added = nullptr);
    // How many rows add() would append for this event (GPUs not seen before).
    int newRows(const QString &node, const BurninEvent &event) const;
    // The judge's verdict replaces the forming one.
    void finish(const BurninVerdict &verdict);

    const QVector<BurninLiveGpu> &gpus() const { return m_gpus; }
    int indexOf(const QString &node, int gpu) const;
    int testsPerGpu() const { return int(m_tests.size()); }
    // Completed tests over all GPUs, and how many are expected: for an overall progress bar.
    int testsDone() const;
    int testsExpected() const { return int(m_gpus.size() * m_tests.size()); }
    int failing() const;
    // Agent errors and unreadable lines, "node: message".
    const QStringList &problems() const { return m_problems; }

private:
    int ensureRow(const QString &node, int gpu, bool *added);

    QStringList m_tests;
    QVector<BurninLiveGpu> m_gpus;
    QHash<QString, int> m_rows; // "node\ngpu" -> index
    QStringList m_problems;
};

} // namespace strata
