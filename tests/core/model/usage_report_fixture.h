#pragma once

// The records tst_usage_report and tst_usage_report_export share: a 7.5-day period from Monday
// 2026-11-30 00:00 UTC, jobs inside it, across its start, across a week's end, still running,
// before it, never started, and one with a hostile user and name.
#include "model/history_period.h"
#include "model/job_record.h"

namespace strata::usage_report_fixture {

inline QDateTime at(const char *iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODate).toUTC();
}

inline HistoryPeriod period()
{
    return HistoryPeriod{at("2026-11-30T00:00:00Z"), at("2026-12-07T12:00:00Z")};
}

inline const QString &hostileUser()
{
    static const QString user = QStringLiteral("=cmd|' /C calc'!A0");
    return user;
}

inline const QString &hostileName()
{
    static const QString name = QStringLiteral("a,\"b\"\nc\x1b[2J");
    return name;
}

inline JobRecord record(const char *id, const QString &user, int gpus, const char *started, const char *ended,
                        JobEfficiency::Basis basis = JobEfficiency::Basis::None, double measured = 0, double idle = 0)
{
    JobRecord r;
    r.id = QString::fromLatin1(id);
    r.name = QStringLiteral("train-") + r.id;
    r.user = user;
    r.account = user == QLatin1String("bob") ? QStringLiteral("chemistry") : QStringLiteral("physics");
    r.partition = QStringLiteral("gpu");
    r.stateWord = ended ? QStringLiteral("COMPLETED") : QStringLiteral("RUNNING");
    r.state = ended ? JobState::Completed : JobState::Running;
    r.gpus = gpus;
    if (started)
        r.started = at(started);
    if (ended)
        r.ended = at(ended);
    r.efficiency.basis = basis;
    if (r.efficiency.isMeasured()) {
        r.efficiency.gpuHoursMeasured = measured;
        r.efficiency.gpuHoursIdle = idle;
        r.efficiency.gpusMeasured = gpus;
        r.efficiency.utilMeanPercent = measured > 0 ? 100.0 * (measured - idle) / measured : -1;
    } else {
        r.efficiency.why = QStringLiteral("no Prometheus in the profile");
    }
    return r;
}

// By user: carol 32 allocated (16 idle), alice 14 (8 measured, 2 idle, 6 unmeasured), bob 12
// (9 idle), the hostile user 1 (unattributable). Total 59 / 52 measured / 27 idle; 2 outside.
inline QVector<JobRecord> records()
{
    using B = JobEfficiency::Basis;
    QVector<JobRecord> r;
    r << record("101", QStringLiteral("alice"), 4, "2026-11-30T10:00:00Z", "2026-11-30T12:00:00Z", B::Exact, 8, 2)
      // Started before the period: 6 of its 12 hours are inside.
      << record("102", QStringLiteral("bob"), 2, "2026-11-29T18:00:00Z", "2026-11-30T06:00:00Z", B::WholeNodes, 12, 9)
      // Still running: counts up to the period's end.
      << record("103", QStringLiteral("alice"), 1, "2026-12-07T06:00:00Z", nullptr)
      // Across the week's end: 16 GPU-hours in each week.
      << record("104", QStringLiteral("carol"), 8, "2026-12-06T22:00:00Z", "2026-12-07T02:00:00Z", B::Indices, 32, 16)
      // Before the period, and one that never started: outside.
      << record("105", QStringLiteral("dave"), 2, "2026-11-28T00:00:00Z", "2026-11-30T00:00:00Z", B::Exact, 96, 96)
      << record("106", QStringLiteral("dave"), 4, nullptr, nullptr)
      << record("107", hostileUser(), 1, "2026-12-01T00:00:00Z", "2026-12-01T01:00:00Z", B::Unattributable);
    r[6].name = hostileName();
    r[6].account = QStringLiteral("-2+3");
    r[6].partition = QStringLiteral("@SUM(A1)");
    return r;
}

} // namespace strata::usage_report_fixture
