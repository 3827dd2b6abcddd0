#pragma once

#include "model/history_period.h"
#include "model/usage_report.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QDateTime>
#include <QList>
#include <QString>

namespace strata {

// What `strata report` was asked for, read from its options: the period (--since, or --start
// and --end), the grouping, the output, per-job rows, how many wasteful jobs. Pure: no I/O, any
// thread; the command and the window's tests use it.
struct ReportRequest
{
    enum class Format { Text, Csv, Json };

    HistoryPeriod period;
    UsageReport::Grouping grouping = UsageReport::Grouping::User;
    bool groupingGiven = false; // --by was given; else the command picks (account on Kubernetes)
    Format format = Format::Text;
    bool jobs = false;
    int top = 10;
    QString error; // non-empty: the options did not fit, said for a person (exit status 2)

    static QList<QCommandLineOption> options();
    // The options of `parser` (configured with options() and --format) at `nowUtc`.
    static ReportRequest parse(const QCommandLineParser &parser, const QDateTime &nowUtc);
    // A time as --start/--end take it: ISO 8601 with a zone ("2026-12-01T00:00:00Z") or a date
    // ("2026-12-01", midnight UTC). Invalid for anything else.
    static QDateTime parseTime(const QString &text);
};

} // namespace strata
