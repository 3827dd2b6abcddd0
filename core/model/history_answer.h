#pragma once

#include "error_kind.h"
#include "history_period.h"
#include "job_record.h"

#include <QString>
#include <QVector>

namespace strata {

// What ClusterSession::readHistory produced over a period: the finished jobs from accounting
// and the running ones from the latest refresh, with their efficiency where metrics could be
// read. Each part's failure is its own: records may be there with metricsError set.
struct HistoryAnswer
{
    HistoryPeriod period;
    QVector<JobRecord> records;
    QString accountingError;
    ErrorKind accountingErrorKind = ErrorKind::None;
    int skippedRows = 0;
    QStringList warnings;
    QString metricsError;
    ErrorKind metricsErrorKind = ErrorKind::None;
    QString accountingCommand;
    qint64 accountingBytes = 0;
    qint64 accountingMs = 0;
    qint64 metricsMs = 0;
    qint64 totalMs = 0;
};

} // namespace strata
