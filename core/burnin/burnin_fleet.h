#pragma once

#include "burnin_history.h"
#include "burnin_verdict.h"

namespace strata {

// A run judged against the fleet, not only against its own best GPU and the datasheet: each
// GPU's headline figure per test beside the latest figure of every other GPU of the same model
// in the history, of the same test, backend and (GEMM) engine, by median and MAD
// (compareWithFleet). An outlier is named in the GPU's notes with its distance; it does not
// fail the GPU by itself (the spec floor and the run's peers decide pass or fail): a history
// written on another driver or clock policy would otherwise fail a whole healthy run.
namespace BurninFleet {

// Pure: one figure per other GPU (the latest it recorded) among `records`, of `backend` and
// `engine` (read from each row's figures; "" matches rows without one), never `excludeUuid`'s,
// never the rows of job `excludeJobId` (a run judged again, after --attach, is not its own
// fleet), never skipped rows or rows without a figure.
QVector<double> peerFigures(const QVector<BurninHistoryRecord> &records, const QString &backend, const QString &engine,
                            const QString &excludeUuid, const QString &excludeJobId = {});

// Sets `fleet` on every judged test with a figure and adds a note to each outlier GPU; reads
// the history once per model and test. Call before recording the run. Errors come back as a
// value (empty: compared), and leave the verdict as it was.
QString compare(BurninVerdict &verdict, const BurninHistory &history, const QString &jobId = {}, const FleetRule &rule = {});

} // namespace BurninFleet

} // namespace strata
