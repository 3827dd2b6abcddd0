#include "finding_table_model.h"

#include "status_mark.h"

namespace strata {

QString FindingTableModel::keyOf(const Finding &f)
{
    return f.node + QLatin1Char('/') + QString::number(f.gpu) + QLatin1Char('/') + f.code;
}

QString FindingTableModel::jobsText(const Finding &f)
{
    if (f.jobs.isEmpty())
        return f.job;
    return f.jobs.join(QLatin1String(", "));
}

RowPlan FindingTableModel::plan(const SnapshotPtr &current, const QVector<int> &rows,
                                const SnapshotPtr &next)
{
    QHash<QString, int> byKey;
    byKey.reserve(next->findings.size());
    for (int i = 0; i < next->findings.size(); ++i)
        byKey.insert(keyOf(next->findings[i]), i);
    // The key is computed, not stored: keep the old keys alive for the diff's lookups.
    QVector<QString> oldKeys;
    if (current)
        for (const Finding &f : current->findings)
            oldKeys << keyOf(f);
    return diff(
        current, rows, next, int(next->findings.size()),
        [&](const ClusterSnapshot &, int item) -> const QString & { return oldKeys[item]; },
        [&](const QString &key) { return byKey.value(key, -1); },
        [&](int oldItem, int newItem) {
            const Finding &a = current->findings[oldItem], &b = next->findings[newItem];
            return a.severity != b.severity || a.message != b.message || a.job != b.job || a.jobs != b.jobs;
        });
}

int FindingTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FindingTableModel::key(int row) const
{
    return keyOf(finding(row));
}

QVariant FindingTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Finding &f = finding(index.row());
    switch (role) {
    case KeyRole: return key(index.row());
    case StatusRole:
        return index.column() == Severity ? QVariant::fromValue(StatusMark::ofSeverity(f.severity)) : QVariant();
    case Qt::DisplayRole:
        switch (index.column()) {
        case Severity: return Finding::severityName(f.severity);
        case Node: return f.node;
        case Gpu: return f.gpu < 0 ? QStringLiteral("all") : QString::number(f.gpu);
        case Jobs: return jobsText(f);
        case Code: return f.code;
        case Message: return f.message;
        }
    }
    return {};
}

QVariant FindingTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Severity: return tr("Severity");
    case Node: return tr("Node");
    case Gpu: return tr("GPU");
    case Jobs: return tr("Jobs");
    case Code: return tr("Finding");
    case Message: return tr("What to do");
    }
    return {};
}

bool FindingTableModel::matches(int row, const RowFilter &filter) const
{
    const Finding &f = finding(row);
    return filter.text.isEmpty() || f.node.contains(filter.text, Qt::CaseInsensitive)
           || f.code.contains(filter.text, Qt::CaseInsensitive) || jobsText(f).contains(filter.text, Qt::CaseInsensitive)
           || f.message.contains(filter.text, Qt::CaseInsensitive);
}

bool FindingTableModel::lessThan(int leftRow, int rightRow, int column) const
{
    const Finding &a = finding(leftRow), &b = finding(rightRow);
    if (column == Severity && a.severity != b.severity)
        return a.severity < b.severity;
    if (column == Jobs && jobsText(a) != jobsText(b))
        return jobsText(a) < jobsText(b);
    if (column == Code && a.code != b.code)
        return a.code < b.code;
    if (a.node != b.node)
        return a.node < b.node;
    return a.gpu < b.gpu;
}

} // namespace strata
