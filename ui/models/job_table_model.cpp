#include "job_table_model.h"

#include "slurm/hostlist.h"
#include "status_mark.h"

#include "unit_formatter.h"

#include <QSet>

#include <algorithm>

namespace strata {

namespace {

bool sameRow(const Job &a, const Job &b)
{
    return a.state == b.state && a.reason == b.reason && a.timeUsedSeconds == b.timeUsedSeconds
           && a.timeLimitSeconds == b.timeLimitSeconds && a.nodes == b.nodes
           && a.gpusRequested == b.gpusRequested && a.gpuUtilMean == b.gpuUtilMean
           && a.efficiencyVerdict == b.efficiencyVerdict && a.name == b.name && a.user == b.user
           && a.partition == b.partition && a.gpus == b.gpus;
}

int gpuCount(const Job &job)
{
    const int held = job.gpuCountHeld();
    return held > 0 ? held : job.gpusRequested;
}

} // namespace

JobTableModel::JobTableModel(QObject *parent)
    : SnapshotRowModel(parent), m_idKeys(std::make_shared<QVector<quint64>>())
{
}

JobTableModel::Plan JobTableModel::plan(const Current &current, const SnapshotPtr &next)
{
    Plan plan;
    auto keys = std::make_shared<QVector<quint64>>();
    keys->reserve(next->jobs.size());
    for (const Job &j : next->jobs)
        *keys << idKey(j.id);
    plan.idKeys = keys;
    plan.rows = diff(
        current.snapshot, current.rows, next, int(next->jobs.size()),
        [](const ClusterSnapshot &s, int item) -> const QString & { return s.jobs[item].id; },
        [&](const QString &id) { return next->jobIndexById.value(id, -1); },
        [&](int oldItem, int newItem) {
            return !sameRow(current.snapshot->jobs[oldItem], next->jobs[newItem]);
        });
    QSet<QString> states, partitions, users;
    for (const Job &j : next->jobs) {
        states.insert(j.state);
        partitions.insert(j.partition);
        users.insert(j.user);
    }
    plan.choices.states = QStringList(states.begin(), states.end());
    plan.choices.partitions = QStringList(partitions.begin(), partitions.end());
    plan.choices.users = QStringList(users.begin(), users.end());
    plan.choices.states.sort();
    plan.choices.partitions.sort();
    plan.choices.users.sort();
    // At 50,000 jobs sorted by time used every running job's row changes each refresh: sorting
    // them here keeps that O(n log n) off the GUI thread (the proxy then only adopts it).
    for (RowOrder order : current.orders) {
        if (order.column < 0)
            continue;
        const QVector<int> &items = plan.rows.rows;
        order.rows.reserve(items.size());
        for (int row = 0; row < items.size(); ++row)
            if (order.filter.isEmpty() || itemMatches(next->jobs[items[row]], order.filter))
                order.rows << row;
        const bool ascending = order.order == Qt::AscendingOrder;
        std::stable_sort(order.rows.begin(), order.rows.end(), [&](int a, int b) {
            return ascending ? itemLess(*next, *keys, items[a], items[b], order.column)
                             : itemLess(*next, *keys, items[b], items[a], order.column);
        });
        plan.rows.orders << std::move(order);
    }
    return plan;
}

namespace {

// "1234" -> (1234, 0), "1234_7" -> (1234, 8); anything else (Kubernetes names) -> no key.
// Hand-rolled: sorting 50,000 rows calls this a million times.
bool parseId(const QString &id, quint64 *main, quint64 *task)
{
    const QChar *c = id.constData(), *end = c + id.size();
    if (c == end)
        return false;
    quint64 m = 0, t = 0;
    for (; c != end && c->unicode() >= '0' && c->unicode() <= '9'; ++c)
        m = m * 10 + (c->unicode() - '0');
    if (c != end) {
        if (c->unicode() != '_' || c + 1 == end)
            return false;
        for (++c; c != end; ++c) {
            if (c->unicode() < '0' || c->unicode() > '9')
                return false;
            t = t * 10 + (c->unicode() - '0');
        }
        ++t; // the parent (no task) sorts before task 0
    }
    *main = m;
    *task = t;
    return true;
}

} // namespace

void JobTableModel::apply(const Plan &plan)
{
    applyPlan(plan.rows, [&] { m_idKeys = plan.idKeys; });
}

quint64 JobTableModel::idKey(const QString &id)
{
    quint64 main = 0, task = 0;
    if (!parseId(id, &main, &task) || main >= (quint64(1) << 43) || task >= (quint64(1) << 20))
        return ~quint64(0);
    return main << 20 | task;
}


int JobTableModel::compareIds(const QString &a, const QString &b)
{
    quint64 ma = 0, ta = 0, mb = 0, tb = 0;
    const bool na = parseId(a, &ma, &ta), nb = parseId(b, &mb, &tb);
    if (na && nb) {
        if (ma != mb)
            return ma < mb ? -1 : 1;
        if (ta != tb)
            return ta < tb ? -1 : 1;
        return 0;
    }
    if (na != nb)
        return na ? -1 : 1; // numeric ids before names
    return a.compare(b);
}

int JobTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString JobTableModel::key(int row) const
{
    return job(row).id;
}

QString JobTableModel::text(int row, int column) const
{
    return itemText(job(row), column);
}

QString JobTableModel::itemText(const Job &j, int column)
{
    switch (column) {
    case Id: return j.id;
    case Name: return j.name;
    case User: return j.user;
    case State: return j.state;
    case Reason: return j.reason == QStringLiteral("None") ? QString() : j.reason;
    case Partition: return j.partition;
    case Nodes: return Hostlist::compress(j.nodes); // Slurm's form: gpu-node[01-04]
    case Gpus: return QString::number(gpuCount(j));
    case TimeUsed: return UnitFormatter::duration(j.timeUsedSeconds);
    case TimeLimit: return UnitFormatter::timeLimit(j.timeLimitSeconds);
    case Util: return UnitFormatter::percent(j.gpuUtilMean);
    case Efficiency: return j.efficiencyVerdict.isEmpty() ? UnitFormatter::dash() : j.efficiencyVerdict;
    case Framework: return j.framework.isEmpty() ? UnitFormatter::dash() : j.framework;
    case Kind: return j.workloadKind.isEmpty() ? UnitFormatter::dash() : j.workloadKind;
    }
    return {};
}

QVariant JobTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    switch (role) {
    case Qt::DisplayRole: return text(index.row(), index.column());
    case KeyRole: return key(index.row());
    case Qt::TextAlignmentRole:
        if (index.column() >= Gpus && index.column() <= Util)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case StatusRole:
        if (index.column() == State)
            return QVariant::fromValue(StatusMark::ofJobState(job(index.row()).stateKind));
        return {};
    case Qt::ToolTipRole:
        // The free-text columns are elided at their width; the tooltip holds them whole.
        switch (index.column()) {
        case Name:
        case Reason:
        case Nodes:
        case Framework: {
            const QString whole = text(index.row(), index.column());
            return whole.isEmpty() ? QVariant() : QVariant(whole);
        }
        case Kind: { // the API's full name: kubeflow.org/v1 PyTorchJob
            const Job &j = job(index.row());
            return j.workloadApiVersion.isEmpty() ? QVariant() : QVariant(j.workloadApiVersion + u' ' + j.workloadKind);
        }
        default: return {};
        }
    }
    return {};
}

QVariant JobTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Id: return tr("Job");
    case Name: return tr("Name");
    case User: return tr("User");
    case State: return tr("State");
    case Reason: return tr("Reason");
    case Partition: return tr("Partition");
    case Nodes: return tr("Nodes");
    case Gpus: return tr("GPUs");
    case TimeUsed: return tr("Time used");
    case TimeLimit: return tr("Limit");
    case Util: return tr("GPU util");
    case Efficiency: return tr("Efficiency");
    case Framework: return tr("Framework");
    case Kind: return tr("Kind");
    }
    return {};
}

bool JobTableModel::matches(int row, const RowFilter &filter) const
{
    return itemMatches(job(row), filter);
}

bool JobTableModel::itemMatches(const Job &j, const RowFilter &filter)
{
    if (!filter.state.isEmpty() && j.state != filter.state)
        return false;
    if (!filter.partition.isEmpty() && j.partition != filter.partition)
        return false;
    if (!filter.user.isEmpty() && j.user != filter.user)
        return false;
    if (filter.text.isEmpty())
        return true;
    const auto has = [&](const QString &field) {
        return field.contains(filter.text, Qt::CaseInsensitive);
    };
    return has(j.id) || has(j.name) || has(j.user) || has(j.reason) || has(j.framework) || has(j.kind)
           || has(j.workloadKind)
           || std::any_of(j.nodes.cbegin(), j.nodes.cend(), has);
}

bool JobTableModel::lessThan(int leftRow, int rightRow, int column) const
{
    return itemLess(*m_snapshot, *m_idKeys, m_rows[leftRow], m_rows[rightRow], column);
}

bool JobTableModel::itemLess(const ClusterSnapshot &snapshot, const QVector<quint64> &idKeys, int leftItem,
                             int rightItem, int column)
{
    const Job &a = snapshot.jobs[leftItem], &b = snapshot.jobs[rightItem];
    int c = 0;
    switch (column) {
    case Id: break;
    case Gpus: c = gpuCount(a) - gpuCount(b); break;
    case Nodes: // by first node, then how many (compressing 50,000 lists per sort costs too much)
        c = a.nodes.value(0).compare(b.nodes.value(0));
        if (c == 0)
            c = int(a.nodes.size()) - int(b.nodes.size());
        break;
    case TimeUsed: c = a.timeUsedSeconds < b.timeUsedSeconds ? -1 : a.timeUsedSeconds > b.timeUsedSeconds; break;
    case TimeLimit: c = a.timeLimitSeconds < b.timeLimitSeconds ? -1 : a.timeLimitSeconds > b.timeLimitSeconds; break;
    case Util: {
        const double ua = a.gpuUtilMean.value_or(-1), ub = b.gpuUtilMean.value_or(-1);
        c = ua < ub ? -1 : ua > ub;
        break;
    }
    default: c = itemText(a, column).compare(itemText(b, column)); break;
    }
    if (c != 0)
        return c < 0;
    const quint64 ka = idKeys[leftItem], kb = idKeys[rightItem];
    if (ka != kb)
        return ka < kb;
    return ka == ~quint64(0) && a.id < b.id;
}

} // namespace strata
