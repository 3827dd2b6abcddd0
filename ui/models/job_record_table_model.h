#pragma once

#include "model/history_period.h"
#include "model/job_record.h"

#include <QAbstractTableModel>

#include <memory>

namespace strata {

// Every job of a history read (the Reports window's Jobs tab, issue 32): the finished ones from
// the accounting and the running ones, each with its GPU-hours inside the period and its
// efficiency as jobstats gives it (mean utilisation, memory peak, mean power, idle GPU-hours),
// or a dash with the reason in the tooltip where it was not measured. Shares the records the
// window read (50,000 rows: nothing is copied per row); names from the cluster are shown on one
// line. SortRole gives numbers and times as numbers. GUI thread.
class JobRecordTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        // What an operator looks for first (who held how many GPUs, how well used), then the rest.
        Id, Name, User, Account, Gpus, GpuHours, Util, IdleGpuHours, MemPeak, Power, State, Partition, Started, Ended,
        Basis, ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;

    void setRecords(std::shared_ptr<const QVector<JobRecord>> records, const HistoryPeriod &period);
    const JobRecord *record(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // A name from the cluster in a cell: one line, control characters as U+FFFD.
    static QString oneLine(const QString &text);
    // How the job's GPUs were found in the metrics, in words ("exporter's job label", ...).
    static QString basisText(JobEfficiency::Basis basis);

private:
    QVariant display(const JobRecord &r, int column) const;
    QVariant sortValue(const JobRecord &r, int column) const;

    std::shared_ptr<const QVector<JobRecord>> m_records;
    QVector<int> m_rows; // records that ran inside the period (or hold GPUs now), in answer order
    QVector<double> m_gpuHours; // by row
    HistoryPeriod m_period;
};

} // namespace strata
