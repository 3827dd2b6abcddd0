#pragma once

#include "detail_pane.h"
#include "unit_formatter.h"

#include "model/cluster_snapshot.h"

class QLabel;
class QListWidget;
class QTableWidget;

namespace strata {

class BurninHistoryPanel;

// One node in detail: Slurm state and reason, its GPUs with their current metrics and jobs,
// the jobs on it, GPU time series and the burn-in history of its GPUs. Updated in place on every refresh. GUI thread.
// The title, form and chart are DetailPane's.
class NodeDetailPane : public DetailPane
{
    Q_OBJECT
public:
    explicit NodeDetailPane(QWidget *parent = nullptr);

    void setFormatter(const UnitFormatter &formatter) { m_formatter = formatter; }
    void showNode(const SnapshotPtr &snapshot, const QString &name);
    QString nodeName() const { return m_name; }
    QTableWidget *gpuTable() const { return m_gpus; }
    BurninHistoryPanel *burninHistory() const { return m_burninHistory; }
    void setBurninHistoryPath(const QString &path);
    // After a burn-in was stored: read the shown node's history again.
    void reloadBurninHistory();
    QString stateText() const;

Q_SIGNALS:
    void jobPicked(const QString &jobId);

private:
    UnitFormatter m_formatter;
    QString m_name;
    QLabel *m_state;
    QLabel *m_reason;
    QLabel *m_partitions;
    QLabel *m_hardware;
    QLabel *m_usage;
    QLabel *m_fabric;
    QLabel *m_storage;
    QTableWidget *m_gpus;
    QListWidget *m_jobs;
    BurninHistoryPanel *m_burninHistory;
};

} // namespace strata
