#pragma once

#include "model/fabric_history_record.h"
#include "model/fleet_comparison.h"

#include <QVector>

namespace strata {

// A fabric run's groups against the history file (issue 27): each group's figure compared with
// its fleet (FabricFleet), read before the run's own rows are written, then (with `record`) the
// run's rows appended. Blocking SQLite I/O: the CLI calls it on its main thread, the window on a
// worker thread (the history's connection belongs to the thread that calls this).
struct FabricFleetHistory
{
    QVector<FleetComparison> standings; // one per record, in order
    QString error;                      // empty: read (and recorded) without a problem

    static FabricFleetHistory judge(const QString &historyPath, const QVector<FabricHistoryRecord> &records, bool record);
};

} // namespace strata
