#include "burnin_live_model.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace strata {

namespace {

QString number(const std::optional<double> &v, int decimalsAbove100 = 0)
{
    if (!v)
        return QStringLiteral("–");
    const double a = std::fabs(*v);
    return a >= 100 ? QString::number(*v, 'f', decimalsAbove100) : QString::number(*v, 'g', 3);
}

} // namespace

BurninLiveModel::BurninLiveModel(QObject *parent) : QAbstractTableModel(parent) {}

void BurninLiveModel::reset(const QMap<QString, int> &gpusByNode, const QStringList &tests)
{
    beginResetModel();
    m_state.reset(gpusByNode, tests);
    endResetModel();
}

void BurninLiveModel::add(const QString &node, const BurninEvent &event)
{
    // Rows are only ever appended: announce them before the state holds them.
    const int coming = m_state.newRows(node, event);
    if (coming > 0) {
        const int before = rowCount();
        beginInsertRows({}, before, before + coming - 1);
        m_state.add(node, event);
        endInsertRows();
        return;
    }
    for (int row : m_state.add(node, event))
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void BurninLiveModel::finish(const BurninVerdict &verdict)
{
    m_state.finish(verdict);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int BurninLiveModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_state.gpus().size());
}

int BurninLiveModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BurninLiveModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const BurninLiveGpu &g = m_state.gpus()[index.row()];
    using V = BurninLiveGpu::Verdict;
    if (role == VerdictRole)
        return int(g.verdict);
    if (role == Qt::ToolTipRole)
        return g.reasons.isEmpty() ? QVariant() : QVariant(g.reasons.join(QLatin1Char('\n')));
    if (role == Qt::TextAlignmentRole)
        return index.column() == NodeColumn || index.column() == TestColumn || index.column() == VerdictColumn
            ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
            : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ForegroundRole && index.column() == VerdictColumn) {
        if (g.verdict == V::Failing || g.verdict == V::Failed)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if (g.verdict == V::Passed)
            return QBrush(QColor(0x1a, 0x7f, 0x37));
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NodeColumn: return g.node;
    case GpuColumn: return g.gpu;
    case TestColumn:
        return g.currentTest.isEmpty() ? QString() : g.currentTest;
    case ProgressColumn: {
        const int tests = m_state.testsPerGpu();
        if (tests == 0)
            return QString();
        const double done = std::min(1.0, (std::min(g.testsDone, tests) + (g.currentTest.isEmpty() || g.fraction >= 1 ? 0 : g.fraction)) / tests);
        return QStringLiteral("%1%").arg(std::lround(done * 100));
    }
    case TflopsColumn: return number(g.tflops);
    case BandwidthColumn: return number(g.bandwidthGBps);
    case TempColumn: return number(g.tempC);
    case PowerColumn: return number(g.powerW);
    case SmClockColumn: return number(g.smClockMHz);
    case MemClockColumn: return number(g.memClockMHz);
    case VerdictColumn: {
        const QString text = BurninLiveGpu::verdictText(g.verdict);
        return g.reasons.isEmpty() ? text : text + QStringLiteral(": ") + g.reasons.first();
    }
    }
    return {};
}

QVariant BurninLiveModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NodeColumn: return tr("Node");
    case GpuColumn: return tr("GPU");
    case TestColumn: return tr("Test");
    case ProgressColumn: return tr("Done");
    case TflopsColumn: return tr("TFLOPS");
    case BandwidthColumn: return tr("GB/s");
    case TempColumn: return tr("°C");
    case PowerColumn: return tr("W");
    case SmClockColumn: return tr("SM MHz");
    case MemClockColumn: return tr("Mem MHz");
    case VerdictColumn: return tr("Verdict");
    }
    return {};
}

} // namespace strata
