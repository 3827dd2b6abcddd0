#pragma once

#include "burnin_request.h"

#include <QByteArray>
#include <QDateTime>
#include <QMap>
#include <QSet>
#include <QString>

namespace strata {

// Everything one burn-in run holds while a transport launches and follows it. A transport
// starts a run by assigning a fresh one (m_run = BurninRunState{...}), so nothing from an
// earlier run survives into the next; each transport uses the fields it needs.
struct BurninRunState
{
    BurninRequest request;               // as launched, with the paths the transport resolved
    QString jobId;                       // what submitted() said (Slurm job id, SSH run id, Jobs)
    QMap<QString, QString> handleByNode; // SSH: node -> agent pid; Kubernetes: node -> "ns/job"
    QMap<QString, qint64> offsets;       // node -> bytes (files) or lines (pod logs) consumed
    QMap<QString, QByteArray> partialLines; // node -> bytes after the last newline
    QSet<QString> nodesDone;             // nodes whose agent wrote its summary
    bool running = false;
    bool polling = false;                // a poll is under way (never two at once)
    bool outcomeUnknown = false;         // after failed(): launched or not is unknown
    bool jobsEnded = false;              // Kubernetes: the cluster says every Job ended
    int pollsAfterEnd = 0;               // one more read after the end, for the last lines
    int pollCount = 0;
    QString pendingReason;               // Slurm: last reason said for a pending job
    QDateTime deadline;                  // Kubernetes: give up following after this
};

} // namespace strata
