#pragma once

#include "model/source_status.h"

#include <QDateTime>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// How fresh the data on screen is, read from a snapshot's SourceStatus list: which configured
// sources are failing (and since when their data is), and the oldest data still shown. The
// snapshot's takenAt is when it was merged, not when its parts were read, so it says nothing
// about staleness; this does. Pure; any thread.
struct SourceHealth
{
    struct Problem
    {
        SourceKind source = SourceKind::Ssh;
        QString error;         // as the source reported it
        ErrorKind kind = ErrorKind::None;
        QDateTime lastSuccess; // null: nothing from this source is shown
        bool stale = false;    // its last good data is still shown
    };

    QVector<Problem> failing;   // configured sources whose last refresh failed, in snapshot order
    QDateTime oldestData;       // the earliest lastSuccess among configured sources (null: none)
    std::optional<SourceKind> oldestSource; // whose data that is

    static SourceHealth assess(const QVector<SourceStatus> &sources);

    bool healthy() const { return failing.isEmpty(); }
    // "Slurm", "SSH (login node)", "Prometheus", "Kubernetes".
    static QString displayName(SourceKind source);
    // What a kind of failure means, in a few words ("timed out", "cannot reach the host");
    // empty for None.
    static QString kindText(ErrorKind kind);
};

} // namespace strata
