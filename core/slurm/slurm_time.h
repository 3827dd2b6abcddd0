#pragma once

#include <QHash>
#include <QString>

namespace strata::SlurmTime {

// "[D-]HH:MM:SS", "MM:SS", "M" (minutes), "UNLIMITED" -> seconds; 0 for UNLIMITED/INFINITE,
// -1 for "N/A", "INVALID", "NOT_SET" or malformed text.
qint64 parseDuration(const QString &text);
// The zone offset of each local hour already converted, for one parse of many stamps: a
// local-time conversion costs a time-zone lookup (glibc stats /etc/localtime on every mktime),
// and 50,000 jobs carry 100,000 stamps within a few distinct hours. Use one per parse, not
// longer (the zone may change between refreshes).
struct LocalHourCache
{
    QHash<qint64, qint64> hourOffset;
};

// "2026-12-02T13:45:00" (local time of the controller) -> seconds since epoch; 0 for N/A/Unknown.
qint64 parseTimestamp(const QString &text, LocalHourCache *cache = nullptr);
// Seconds -> Slurm's "D-HH:MM:SS" form (as sbatch --time accepts); "UNLIMITED" for 0.
QString formatDuration(qint64 seconds);

} // namespace strata::SlurmTime
