#pragma once

#include "burnin_history.h"

#include <QDateTime>
#include <QJsonArray>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// One run of one GPU in its trend: the headline figures of that run.
struct BurninTrendPoint
{
    QString runId;
    QString jobId;
    QDateTime time;                       // UTC
    QString backend;
    std::optional<double> tflops;         // gemm
    std::optional<double> bandwidthGBps;  // hbm copy bandwidth
    bool passed = true;                   // every test of the run passed or was skipped
};

// One GPU across the runs stored for it, oldest first, with the change a straight line fitted
// through the runs shows from the first run to the last: a slow decline shows as a negative
// percentage long before one run falls below the judge's floor.
struct BurninGpuTrend
{
    QString node;
    int gpu = -1;
    QString uuid;
    QString model;
    QVector<BurninTrendPoint> points;
    std::optional<double> tflopsChangePct;
    std::optional<double> bandwidthChangePct;

    int failedRuns() const;
};

// Pure: from history rows to per-GPU trends. Rows of one GPU (by UUID, else node and index)
// and one run become one point; GPUs come sorted by node and index.
class BurninTrend
{
public:
    static QVector<BurninGpuTrend> build(const QVector<BurninHistoryRecord> &records);
    // The least-squares line through the values (one per run, equally spaced): its change from
    // the first run to the last, in percent of its value at the first. Empty for fewer than two
    // values or a line that starts at or below zero.
    static std::optional<double> fittedChangePct(const QVector<double> &values);
    // schema strata.burnin-history/1's "gpus" array.
    static QJsonArray toJson(const QVector<BurninGpuTrend> &trends);
};

} // namespace strata
