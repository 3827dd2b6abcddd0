#pragma once

#include "burnin/burnin_live_state.h"

#include <QAbstractTableModel>

namespace strata {

// One row per GPU of a running burn-in: test and progress, TFLOPS, GB/s, temperature, power,
// clocks and the verdict as it forms. Wraps a BurninLiveState; each event repaints only the
// rows it changed. GUI thread; owned by its BurninWindow.
class BurninLiveModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NodeColumn, GpuColumn, TestColumn, ProgressColumn, TflopsColumn, BandwidthColumn,
                  TempColumn, PowerColumn, SmClockColumn, MemClockColumn, VerdictColumn, ColumnCount };
    // The verdict, as BurninLiveGpu::Verdict, under this role in every column.
    static constexpr int VerdictRole = Qt::UserRole + 1;

    explicit BurninLiveModel(QObject *parent = nullptr);

    void reset(const QMap<QString, int> &gpusByNode, const QStringList &tests);
    void add(const QString &node, const BurninEvent &event);
    void finish(const BurninVerdict &verdict);
    const BurninLiveState &state() const { return m_state; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    BurninLiveState m_state;
};

} // namespace strata
