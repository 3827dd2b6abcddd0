#pragma once

#include "burnin/burnin_event.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace strata {

// How far a burn-in is and how long it has left, from the agents' events: every (node, GPU,
// test) counts once, a result as done, a progress event as its fraction. Time left comes from
// the rate so far once there is some progress, else from the plan (tests x duration, GPUs in
// parallel). Pure: the caller passes the clock. Owned by BurninCommand; main thread.
class BurninProgressMeter
{
public:
    // gpusByNode: expected GPUs per node (0 when unknown: the agent's start event says).
    BurninProgressMeter(const QMap<QString, int> &gpusByNode, const QStringList &tests, int durationSeconds);

    void record(const QString &node, const BurninEvent &event, qint64 nowMs);

    double fraction() const;            // 0..1
    int resultsDone() const { return m_results; }
    int resultsExpected() const;
    bool started() const { return m_startMs >= 0; }
    std::optional<qint64> secondsLeft(qint64 nowMs) const;
    // "[#######             ]  35%  11/32 GPU tests  about 1m 05s left"
    QString line(qint64 nowMs) const;

    static QString formatDuration(qint64 seconds); // "45s", "1m 05s", "2h 03m"

private:
    QMap<QString, int> m_gpusByNode;
    QStringList m_tests;
    int m_durationSeconds;
    QHash<QString, double> m_done; // "node/gpu/test" -> 0..1
    int m_results = 0;
    qint64 m_startMs = -1;
};

} // namespace strata
