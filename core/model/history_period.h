#pragma once

#include <QDateTime>
#include <QString>
#include <QStringView>

#include <optional>

namespace strata {

// A span of time that history (finished jobs, their efficiency, reports) is read over: from
// start to end, both UTC. A job counts in it for the part of its run that falls inside.
struct HistoryPeriod
{
    QDateTime start; // UTC, inclusive
    QDateTime end;   // UTC, exclusive

    bool isValid() const { return start.isValid() && end.isValid() && start < end; }
    qint64 seconds() const { return isValid() ? start.secsTo(end) : 0; }

    // The span before `nowUtc` that a person names as "7d", "24h", "30m", "2w" (a positive
    // whole number and one unit of m, h, d, w; at most 3660 days). nullopt for anything else,
    // never a guess.
    static std::optional<HistoryPeriod> parse(QStringView text, const QDateTime &nowUtc);
};

} // namespace strata
