#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace strata {

// How one fabric group was judged in its own run (against the floor or its peer groups).
enum class FabricHistoryVerdict { Ok, Short };

QString fabricHistoryVerdictName(FabricHistoryVerdict verdict); // "ok", "short"
// "ok" or "short"; false for any other word (a row a newer Strata wrote).
bool fabricHistoryVerdictFromName(const QString &name, FabricHistoryVerdict *verdict);

// One fabric group's measured figure as the history keeps it (issue 27): what it ran on
// (instance type, node count), how it measured (tool, backend, collective, largest message
// size) and what it reached. Only groups that measured a figure are recorded. The strings
// that key a fleet (tool, backend, op) are the names the fabric room writes: fabricToolName,
// the backend's "nccl"/"gloo", fabricOpName.
struct FabricHistoryRecord
{
    QString runId;
    QDateTime time;           // UTC
    QString instanceType;     // empty: mixed or unknown types (no fleet to compare with)
    int nodeCount = 0;
    QString tool;             // "nccl-tests", "torch.distributed"
    QString backend;          // "nccl", "gloo"
    QString op;               // "all_reduce"
    qint64 largestMessageBytes = 0;
    double busbwGBps = 0;     // at the largest message size
    double latencyMicroseconds = 0; // one operation at the smallest size
    QStringList nodes;
    FabricHistoryVerdict verdict = FabricHistoryVerdict::Ok;
};

} // namespace strata
