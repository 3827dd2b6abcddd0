#pragma once

#include "metrics_part.h"

#include "model/error_kind.h"
#include "model/job_record.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

// What one read of jobs' efficiency over a history period produced
// (MetricsSource::readEfficiency): the records it was given, same order, each with its
// JobEfficiency set (measured, or basis None/Unattributable with why). error non-empty: the read
// failed as a whole (no Prometheus, every query refused) and every record says so in its why.
struct HistoryEfficiencyAnswer
{
    QVector<JobRecord> records;
    QString error;
    ErrorKind errorKind = ErrorKind::None;
    QStringList warnings;              // a chunk that failed while others answered, series skipped
    QVector<MetricsQueryStat> queries; // one per metric per chunk
    qint64 stepSeconds = 0;
    int chunks = 0;
    qint64 bytes = 0;
    qint64 elapsedMs = 0;
    bool cancelled = false;
};

} // namespace strata
