#pragma once

#include "usage_report.h"

#include <QByteArray>
#include <QJsonObject>

#include <functional>

namespace strata {

// A usage report as JSON, schema "strata.report/1" (README "Report JSON"): the period, the
// grouping, groups, total, weeks and the most wasteful jobs; with the records, one object per
// job. Figures not measured are null, never 0.
namespace UsageReportJson {

QJsonObject toJson(const UsageReport &report);
QJsonObject figuresToJson(const UsageReport::Figures &figures);
QJsonObject jobToJson(const JobRecord &record, const HistoryPeriod &period);
// The document, indented, handed to `sink` in pieces; with `jobs`, a "jobs" array of the records
// with GPU-hours in the period, one compact object per line, made and written in turn (50,000
// jobs' QJsonObject tree is not held at once).
void write(const UsageReport &report, const QVector<JobRecord> *jobs,
           const std::function<void(const QByteArray &)> &sink);

} // namespace UsageReportJson
} // namespace strata
