#pragma once

#include "time_series.h"

#include <QVector>

namespace strata {

// A job's chart with one line per node instead of one per GPU (issue 27's straggler evidence):
// the series of a job's GPUs, labelled "NODE:GPU" as GpuHistoryLoader names them over several
// nodes, become one series per node, its label the node's name, each point the mean of that
// node's GPUs that have a value at that time (a NaN where none has: the gap stays a gap).
// A label without "NODE:" is one node of its own, named by the whole label. Nodes keep the
// order of their first GPU; times are the union of the GPUs' times, ascending.
// Pure; any thread.
namespace NodeMeanSeries {

QVector<TimeSeries> meanPerNode(const QVector<TimeSeries> &perGpu);
// The node a per-GPU series belongs to: the label before its last ':' (or the whole label).
QString nodeOf(const TimeSeries &series);
// How many nodes the series name (labels "NODE:GPU"; one node's chart, labelled by GPU index
// only, names none: 0).
int nodeCount(const QVector<TimeSeries> &perGpu);

} // namespace NodeMeanSeries
} // namespace strata
