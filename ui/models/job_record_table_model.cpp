#include "job_record_table_model.h"

#include "unit_formatter.h"

#include <limits>
#include <optional>

namespace strata {

namespace {

// A figure that was measured (>= 0), or nothing.
std::optional<double> measured(bool isMeasured, double value)
{
    return isMeasured && value >= 0 ? std::optional<double>(value) : std::nullopt;
}

QString utc(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : UnitFormatter::dash();
}

QString hours(double value)
{
    return value < 0 ? UnitFormatter::dash() : QString::number(value, 'f', 1);
}

} // namespace

QString JobRecordTableModel::oneLine(const QString &text)
{
    QString shown;
    shown.reserve(text.size());
    for (QChar c : text)
        shown += c.isPrint() ? c : QChar(0xfffd);
    return shown;
}

void JobRecordTableModel::setRecords(std::shared_ptr<const QVector<JobRecord>> records, const HistoryPeriod &period)
{
    beginResetModel();
    m_records = std::move(records);
    m_period = period;
    m_rows.clear();
    m_gpuHours.clear();
    if (m_records) {
        m_rows.reserve(m_records->size());
        m_gpuHours.reserve(m_records->size());
        for (int i = 0; i < m_records->size(); ++i) {
            const double hours = (*m_records)[i].gpuHours(period);
            // A job that never started, or ran only before the period, is not the period's.
            if (hours <= 0)
                continue;
            m_rows << i;
            m_gpuHours << hours;
        }
    }
    endResetModel();
}

const JobRecord *JobRecordTableModel::record(int row) const
{
    return row >= 0 && row < m_rows.size() ? &(*m_records)[m_rows[row]] : nullptr;
}

int JobRecordTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int JobRecordTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString JobRecordTableModel::basisText(JobEfficiency::Basis basis)
{
    switch (basis) {
    case JobEfficiency::Basis::Exact: return tr("exporter's job label");
    case JobEfficiency::Basis::Indices: return tr("GPU indices from accounting");
    case JobEfficiency::Basis::WholeNodes: return tr("whole nodes");
    case JobEfficiency::Basis::Unattributable: return tr("shared nodes: not attributable");
    case JobEfficiency::Basis::None: break;
    }
    return tr("not measured");
}

QVariant JobRecordTableModel::display(const JobRecord &r, int column) const
{
    const JobEfficiency &e = r.efficiency;
    switch (column) {
    case Id: return r.id;
    case Name: return oneLine(r.name);
    case User: return r.user.isEmpty() ? UnitFormatter::dash() : oneLine(r.user);
    case Account: return r.account.isEmpty() ? UnitFormatter::dash() : oneLine(r.account);
    case Partition: return r.partition.isEmpty() ? UnitFormatter::dash() : oneLine(r.partition);
    case State: return r.stateWord.isEmpty() ? UnitFormatter::dash() : oneLine(r.stateWord);
    case Started: return utc(r.started);
    case Ended: return r.ended.isValid() ? utc(r.ended) : tr("running");
    case Gpus: return QString::number(r.gpus);
    case Util: return UnitFormatter::percent(measured(e.isMeasured(), e.utilMeanPercent));
    case MemPeak: return UnitFormatter().memoryMiB(measured(e.isMeasured(), e.memPeakMiB));
    case Power: return UnitFormatter::power(measured(e.isMeasured(), e.powerMeanW));
    case IdleGpuHours: return e.isMeasured() ? hours(e.gpuHoursIdle) : UnitFormatter::dash();
    case Basis: return basisText(e.basis);
    default: return {};
    }
}

QVariant JobRecordTableModel::sortValue(const JobRecord &r, int column) const
{
    const JobEfficiency &e = r.efficiency;
    const bool measured = e.isMeasured();
    switch (column) {
    case Started: return r.started.isValid() ? r.started.toSecsSinceEpoch() : qint64(-1);
    case Ended: return r.ended.isValid() ? r.ended.toSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    case Gpus: return r.gpus;
    case Util: return measured ? e.utilMeanPercent : -1.0;
    case MemPeak: return measured ? e.memPeakMiB : -1.0;
    case Power: return measured ? e.powerMeanW : -1.0;
    case IdleGpuHours: return measured ? e.gpuHoursIdle : -1.0;
    default: return display(r, column);
    }
}

QVariant JobRecordTableModel::data(const QModelIndex &index, int role) const
{
    const JobRecord *r = index.isValid() ? record(index.row()) : nullptr;
    if (!r)
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return column == GpuHours ? hours(m_gpuHours[index.row()]) : display(*r, column);
    case SortRole:
        return column == GpuHours ? QVariant(m_gpuHours[index.row()]) : sortValue(*r, column);
    case Qt::ToolTipRole:
        if (column == Name)
            return r->name.toHtmlEscaped();
        if ((column == Basis || (column >= Util && column <= Power)) && !r->efficiency.isMeasured()
            && !r->efficiency.why.isEmpty())
            return r->efficiency.why.toHtmlEscaped();
        return {};
    case Qt::TextAlignmentRole:
        if (column >= Gpus && column <= Power)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant JobRecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id: return tr("Job");
    case Name: return tr("Name");
    case User: return tr("User");
    case Account: return tr("Account");
    case Partition: return tr("Partition");
    case State: return tr("State");
    case Started: return tr("Started (UTC)");
    case Ended: return tr("Ended (UTC)");
    case Gpus: return tr("GPUs");
    case GpuHours: return tr("GPU-hours");
    case Util: return tr("Util");
    case MemPeak: return tr("Memory peak");
    case Power: return tr("Power");
    case IdleGpuHours: return tr("Idle GPU-h");
    case Basis: return tr("Measured by");
    default: return {};
    }
}

} // namespace strata
