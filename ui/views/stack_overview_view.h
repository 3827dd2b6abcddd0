#pragma once

#include "models/relations.h"
#include "models/stack_element.h"

#include "model/cluster_snapshot.h"

#include <QWidget>

class QLabel;
class QSplitter;
class QTableView;

namespace strata {

class FindingTableModel;
class GpuHeatmapView;
class InstanceTypeModel;
class JobTableModel;
class LayerPanel;
class NodeTableModel;
class PartitionModel;
class QueueModel;
class WorkloadModel;

// The whole stack side by side: instance types -> nodes -> GPUs -> partitions -> jobs ->
// frameworks (what runs inside the jobs), the
// totals above and the health findings below, and on Kubernetes with Kueue its queues (quota and
// usage of GPUs per flavor, what waits and why; a QueueModel of its own). Picking an element in one layer highlights
// its relatives in the others (a job lights up its nodes and GPUs). Shares the window's
// models; owns no data of its own. GUI thread.
class StackOverviewView : public QWidget
{
    Q_OBJECT
public:
    StackOverviewView(InstanceTypeModel *instanceTypes, NodeTableModel *nodes,
                      PartitionModel *partitions, JobTableModel *jobs, WorkloadModel *workloads,
                      FindingTableModel *findings,
                      QWidget *parent = nullptr);

    void setSnapshot(const SnapshotPtr &snapshot, const ClusterSnapshot::Totals &totals);
    void showRelations(const StackElement &picked, const Relations &relations);

    GpuHeatmapView *gpuView() const { return m_gpus; }
    QTableView *findingsView() const { return m_findings; }
    QTableView *queuesView() const { return m_queues; }
    LayerPanel *panel(StackElement::Layer layer) const;
    QString totalsText() const;
    QString relationText() const;

Q_SIGNALS:
    void picked(const strata::StackElement &element);

private:
    QSplitter *m_layers = nullptr;
    bool m_sized = false;
    LayerPanel *m_instanceTypes;
    LayerPanel *m_nodes;
    GpuHeatmapView *m_gpus;
    QLabel *m_gpuHeader;
    LayerPanel *m_partitions;
    LayerPanel *m_jobs;
    LayerPanel *m_frameworks;
    QLabel *m_totals;
    QLabel *m_relation;
    QTableView *m_findings;
    QLabel *m_findingsHeader;
    QueueModel *m_queueModel;
    QLabel *m_queuesHeader;
    QTableView *m_queues; // hidden while the cluster has no queues
};

} // namespace strata
