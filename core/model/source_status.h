#pragma once

#include "error_kind.h"
#include "source_kind.h"

#include <QDateTime>
#include <QString>

namespace strata {

// How one data source (SSH, Slurm, Prometheus, Kubernetes) stands at the time of a snapshot.
// A source that fails keeps its last good part: `stale` is then true and `error` says why.
struct SourceStatus
{
    SourceKind source = SourceKind::Ssh;
    bool configured = false;
    bool ok = false;       // last refresh succeeded
    bool stale = false;    // data shown is from an earlier refresh
    QString error;         // last error, empty when ok
    ErrorKind errorKind = ErrorKind::None; // the last error's kind: what the window and CLI act on
    QDateTime lastSuccess; // UTC, null when never
    QDateTime lastAttempt;
    qint64 lastDurationMs = -1;
    QString via; // how the source is reached, when it has more than one way (OrchestratorPart::via)
};

} // namespace strata
