#include "node_table_model.h"

#include "status_mark.h"

#include <QSet>

namespace strata {

namespace {

bool sameRow(const Node &a, const Node &b, const NodeSummary &sa, const NodeSummary &sb)
{
    return a.state == b.state && a.reason == b.reason && a.gpusAllocated == b.gpusAllocated
           && a.cpusAllocated == b.cpusAllocated && a.gpuCount == b.gpuCount && a.gpuCountRefused == b.gpuCountRefused && a.gpuSharing == b.gpuSharing
           && a.partitions == b.partitions && a.instanceType == b.instanceType
           && a.gpuModel == b.gpuModel && a.cpus == b.cpus && a.memoryMiB == b.memoryMiB
           && sa == sb;
}

template <typename T>
int compareOptional(const std::optional<T> &a, const std::optional<T> &b)
{
    // Missing values sort before any value.
    if (!a || !b)
        return int(bool(a)) - int(bool(b));
    return *a < *b ? -1 : (*b < *a ? 1 : 0);
}

} // namespace

NodeTableModel::NodeTableModel(QObject *parent)
    : SnapshotRowModel(parent), m_summaries(std::make_shared<QVector<NodeSummary>>())
{
}

NodeTableModel::Plan NodeTableModel::plan(const Current &current, const SnapshotPtr &next)
{
    Plan plan;
    auto summaries = std::make_shared<QVector<NodeSummary>>(NodeSummary::build(*next));
    plan.summaries = summaries;
    const QVector<NodeSummary> &oldSummaries = *current.summaries;
    plan.rows = diff(
        current.snapshot, current.rows, next, int(next->nodes.size()),
        [](const ClusterSnapshot &s, int item) -> const QString & { return s.nodes[item].name; },
        [&](const QString &name) { return next->nodeIndexByName.value(name, -1); },
        [&](int oldItem, int newItem) {
            return !sameRow(current.snapshot->nodes[oldItem], next->nodes[newItem],
                            oldSummaries[oldItem], (*summaries)[newItem]);
        });
    QSet<QString> states, partitions;
    for (const Node &n : next->nodes) {
        states.insert(stateCategory(n));
        for (const QString &p : n.partitions)
            partitions.insert(p);
    }
    plan.choices.states = QStringList(states.begin(), states.end());
    plan.choices.partitions = QStringList(partitions.begin(), partitions.end());
    plan.choices.states.sort();
    plan.choices.partitions.sort();
    return plan;
}

void NodeTableModel::apply(const Plan &plan)
{
    applyPlan(plan.rows, [&] { m_summaries = plan.summaries; });
}

void NodeTableModel::setFormatter(const UnitFormatter &formatter)
{
    m_formatter = formatter;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString NodeTableModel::stateCategory(const Node &node)
{
    if (node.power == PowerState::FailedToLaunch)
        return QStringLiteral("launch failed");
    if (node.isDown())
        return QStringLiteral("down");
    if (node.isDrained())
        return node.gpusAllocated > 0 || node.cpusAllocated > 0 ? QStringLiteral("draining")
                                                                : QStringLiteral("drained");
    switch (node.power) {
    case PowerState::PoweringUp: return QStringLiteral("powering up");
    case PowerState::PoweredDown: return QStringLiteral("powered down");
    case PowerState::PoweringDown: return QStringLiteral("powering down");
    case PowerState::FailedToLaunch:
    case PowerState::Launched:
        break;
    }
    return node.state.section(QLatin1Char('+'), 0, 0);
}

int NodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString NodeTableModel::key(int row) const
{
    return node(row).name;
}

QString NodeTableModel::text(int row, int column) const
{
    const Node &n = node(row);
    const NodeSummary &s = summary(row);
    switch (column) {
    case Name: return n.name;
    case State: return n.state;
    case Reason: return n.reason.isEmpty() ? QString() : n.reason;
    case Partitions: return n.partitions.join(QLatin1Char(','));
    case InstanceType: return n.instanceType.isEmpty() ? UnitFormatter::dash() : n.instanceType;
    case GpuModel: return n.gpuModel.isEmpty() ? UnitFormatter::dash() : n.gpuModel;
    case Gpus:
        if (!n.gpuCountKnown())
            return QStringLiteral("? / ?"); // refused: a finding names what the node said
        return n.gpuSharing.isShared()
                   ? QStringLiteral("%1 / %2 (%3)").arg(n.gpusAllocated).arg(n.gpuCount).arg(n.gpuSharing.summary())
                   : QStringLiteral("%1 / %2").arg(n.gpusAllocated).arg(n.gpuCount);
    case Cpus: return QStringLiteral("%1 / %2").arg(n.cpusAllocated).arg(n.cpus);
    case Util: return UnitFormatter::percent(s.utilMean);
    case Temp: return m_formatter.temperature(s.tempMax);
    case Power: return UnitFormatter::power(s.powerSum);
    case Memory: return m_formatter.memoryMiB(s.memUsedMiB);
    case Jobs: return QString::number(s.jobs);
    case Findings: return s.findings ? QString::number(s.findings) : QString();
    }
    return {};
}

QVariant NodeTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const int row = index.row();
    switch (role) {
    case Qt::DisplayRole: return text(row, index.column());
    case KeyRole: return key(row);
    case Qt::TextAlignmentRole:
        if (index.column() >= Gpus)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case StatusRole:
        if (index.column() == State)
            return QVariant::fromValue(StatusMark::nodeState(stateCategory(node(row))));
        if (index.column() == Findings && summary(row).findings > 0)
            return QVariant::fromValue(StatusMark::ofSeverity(summary(row).criticalFindings > 0
                                                                  ? Finding::Severity::Critical
                                                                  : Finding::Severity::Warning));
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Reason && !node(row).reason.isEmpty())
            return QStringLiteral("%1 (set by %2)").arg(node(row).reason, node(row).reasonUser);
        // The free-text columns are elided at their width; the tooltip holds them whole.
        if (index.column() == Name || index.column() == Partitions || index.column() == InstanceType
            || index.column() == State)
            return text(row, index.column());
        return {};
    }
    return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Node");
    case State: return tr("State");
    case Reason: return tr("Reason");
    case Partitions: return tr("Partitions");
    case InstanceType: return tr("Instance type");
    case GpuModel: return tr("GPU");
    case Gpus: return tr("GPUs used");
    case Cpus: return tr("CPUs used");
    case Util: return tr("GPU util");
    case Temp: return tr("Max temp");
    case Power: return tr("Power");
    case Memory: return tr("GPU memory");
    case Jobs: return tr("Jobs");
    case Findings: return tr("Findings");
    }
    return {};
}

bool NodeTableModel::matches(int row, const RowFilter &filter) const
{
    const Node &n = node(row);
    if (!filter.state.isEmpty() && stateCategory(n) != filter.state)
        return false;
    if (!filter.partition.isEmpty() && !n.partitions.contains(filter.partition))
        return false;
    if (filter.text.isEmpty())
        return true;
    const auto has = [&](const QString &field) {
        return field.contains(filter.text, Qt::CaseInsensitive);
    };
    return has(n.name) || has(n.reason) || has(n.instanceType) || has(n.gpuModel)
           || has(n.state) || std::any_of(n.features.cbegin(), n.features.cend(), has);
}

bool NodeTableModel::lessThan(int leftRow, int rightRow, int column) const
{
    const Node &a = node(leftRow), &b = node(rightRow);
    const NodeSummary &sa = summary(leftRow), &sb = summary(rightRow);
    int c = 0;
    switch (column) {
    case Gpus: c = a.gpusAllocated - b.gpusAllocated; break;
    case Cpus: c = a.cpusAllocated - b.cpusAllocated; break;
    case Util: c = compareOptional(sa.utilMean, sb.utilMean); break;
    case Temp: c = compareOptional(sa.tempMax, sb.tempMax); break;
    case Power: c = compareOptional(sa.powerSum, sb.powerSum); break;
    case Memory: c = compareOptional(sa.memUsedMiB, sb.memUsedMiB); break;
    case Jobs: c = sa.jobs - sb.jobs; break;
    case Findings: c = sa.findings - sb.findings; break;
    case Name: break;
    default: c = text(leftRow, column).compare(text(rightRow, column)); break;
    }
    // Ties (and the name column) fall back to the name, which is unique.
    return c != 0 ? c < 0 : a.name < b.name;
}

} // namespace strata
