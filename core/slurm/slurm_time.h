#pragma once

#include <QString>

namespace strata::SlurmTime {

// "[D-]HH:MM:SS", "MM:SS", "M" (minutes), "UNLIMITED" -> seconds; 0 for UNLIMITED/INFINITE,
// -1 for "N/A", "INVALID", "NOT_SET" or malformed text.
qint64 parseDuration(const QString &text);
// "2026-12-02T13:45:00" in UTC -> seconds since epoch; 0 for N/A, Unknown, None or malformed.
// Slurm's clients print times in their own process's zone, without saying which: Strata runs
// them with TZ=UTC0 (squeueArguments), so the console's zone and the login node's never matter.
qint64 parseTimestamp(const QString &text);
// Seconds -> Slurm's "D-HH:MM:SS" form (as sbatch --time accepts); "UNLIMITED" for 0.
QString formatDuration(qint64 seconds);

} // namespace strata::SlurmTime
