#pragma once

#include "usage_report.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace strata {

// A usage report as CSV (RFC 4180, UTF-8, CRLF rows), for a spreadsheet: `strata report
// --format csv` and the Reports window's export. Names come from users (a job's name, an
// account), so every text cell is quoted and one that a spreadsheet would run as a formula
// (starting with = + - @, tab or carriage return) is prefixed with an apostrophe, as OWASP
// advises against CSV injection; numbers are written as numbers.
namespace UsageReportCsv {

// One row per group, then a "total" row: grouped_by,key,jobs,jobs_measured,gpu_hours_allocated,
// gpu_hours_used,gpu_hours_idle,gpu_hours_unmeasured,idle_percent (empty when nothing was measured).
QByteArray groups(const UsageReport &report);
// One row per calendar week.
QByteArray weeks(const UsageReport &report);
// One row per record with GPU-hours in the period (--jobs): its fields and efficiency.
QByteArray jobs(const QVector<JobRecord> &records, const HistoryPeriod &period);
// A text cell: quoted, quotes doubled, a formula's first character neutralised.
QString textCell(const QString &text);

} // namespace UsageReportCsv
} // namespace strata
