#pragma once

#include "display_preferences.h"
#include "models/prepared_snapshot.h"
#include "models/relations.h"
#include "models/stack_element.h"

#include <QHash>
#include <QPointer>
#include <QStackedWidget>
#include <QWidget>

class QAbstractItemView;
class QTabWidget;
class QTableView;

namespace strata {

class FindingTableModel;
class FleetMapPanel;
class HeatmapPanel;
class InstanceTypeModel;
class WorkloadModel;
class JobDetailPane;
class JobTableModel;
class MetricHistory;
class NodeDetailPane;
class NodeTableModel;
class PartitionModel;
class StackOverviewView;
class TablePage;

// Shows one cluster's snapshots: the Overview, Heatmap, Nodes and Jobs tabs and the detail
// pane, all fed from the same models. A new snapshot is prepared on a worker
// (PreparedSnapshot: diffs, relation index, totals) and then applied here; while one is being
// prepared, newer ones replace each other so only the latest is shown next. Keeps one picked
// StackElement and highlights its relatives everywhere. GUI thread; owned by the MainWindow.
class ClusterView : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterView(QWidget *parent = nullptr);
    ~ClusterView() override;

    void setSnapshot(const SnapshotPtr &snapshot);
    void clear();
    // How the window stands with its cluster, for what the views say while they have no node to
    // draw: "Not connected.", "Connecting to HOST…" (until the session's first answer or error),
    // then either "The cluster reports no nodes." or, when the scheduler or SSH failed, that
    // HOST did not answer. The window says it from the session, never from a text.
    enum class Reach { NotConnected, Connecting, Connected };
    void setReach(Reach reach, const QString &host = {});
    Reach reach() const { return m_reach; }
    QString placeholderText() const;
    SnapshotPtr snapshot() const { return m_snapshot; }
    // snapshot()->totals(), counted on the worker that prepared it (an O(jobs + GPUs) walk that
    // the status bar would otherwise repeat on the GUI thread every second).
    const ClusterSnapshot::Totals &totals() const { return m_totals; }
    bool isUpdating() const { return m_preparing; }

    void select(const StackElement &element);
    const StackElement &selection() const { return m_selection; }
    const Relations &relations() const { return m_relations; }

    void setPreferences(const DisplayPreferences &preferences);
    void setMetricHistory(MetricHistory *history, const QString &unavailableReason);
    void focusFilter();
    // "Filter to this": the Nodes table filtered to a node, partition or instance type, the
    // Jobs table to a job; that table's tab comes to the front.
    void filterTo(const StackElement &element);
    // The nodes an action should act on: those selected in the Nodes table, else the picked
    // node (or the node of the picked GPU).
    QStringList actionNodes() const;
    // The job an action should act on: selected in the Jobs table, else the picked job.
    QString actionJob() const;

    QTabWidget *tabs() const { return m_tabs; }
    StackOverviewView *overview() const { return m_overview; }
    HeatmapPanel *heatmap() const { return m_heatmap; }
    FleetMapPanel *fleet() const { return m_fleet; }
    TablePage *nodesPage() const { return m_nodesPage; }
    TablePage *jobsPage() const { return m_jobsPage; }
    QStackedWidget *details() const { return m_details.data(); }
    NodeDetailPane *nodeDetail() const { return m_nodeDetail; }
    JobDetailPane *jobDetail() const { return m_jobDetail; }
    NodeTableModel *nodeModel() const { return m_nodeModel; }
    JobTableModel *jobModel() const { return m_jobModel; }

Q_SIGNALS:
    // After a snapshot is on screen: how long its preparation took on the worker and how long
    // applying it held the GUI thread.
    void snapshotApplied(const strata::SnapshotPtr &snapshot, qint64 prepareMs, qint64 applyMs);
    void selectionChanged(const strata::StackElement &element);
    // A right click on a row, an overview item or a heatmap cell, or the Menu key or Shift+F10
    // on the current one: the element and, for nodes, every node it stands for (the selected
    // rows when it is one of them).
    void contextMenuRequested(const strata::StackElement &element, const QStringList &nodes,
                              const QPoint &globalPos);

protected:
    // The Menu key and Shift+F10 on a table: the menu of its current row.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void prepareNext();
    void showPlaceholder();
    void apply(const PreparedSnapshot &prepared);
    void showRelations();
    void showDetail();
    void watchContextMenus();
    void requestContextMenu(QAbstractItemView *view, const QPoint &pos, StackElement::Layer layer);
    void requestContextMenuAtCurrentRow(QTableView *view, StackElement::Layer layer);
    void openContextMenu(QAbstractItemView *view, const QModelIndex &index, const QPoint &viewportPos,
                         StackElement::Layer layer);

    NodeTableModel *m_nodeModel;
    JobTableModel *m_jobModel;
    PartitionModel *m_partitionModel;
    InstanceTypeModel *m_instanceTypeModel;
    WorkloadModel *m_workloadModel;
    FindingTableModel *m_findingModel;

    QTabWidget *m_tabs;
    StackOverviewView *m_overview;
    HeatmapPanel *m_heatmap;
    FleetMapPanel *m_fleet;
    TablePage *m_nodesPage;
    TablePage *m_jobsPage;
    QPointer<QStackedWidget> m_details; // lives in the window's dock, which may die first
    QWidget *m_noDetail;
    NodeDetailPane *m_nodeDetail;
    JobDetailPane *m_jobDetail;

    SnapshotPtr m_snapshot;
    ClusterSnapshot::Totals m_totals;
    SnapshotPtr m_pending;
    bool m_preparing = false;
    RelationIndex m_index;
    StackElement m_selection;
    Relations m_relations;
    Reach m_reach = Reach::NotConnected;
    QString m_host;
    QHash<const QObject *, StackElement::Layer> m_menuLayers; // the tables with a context menu
};

} // namespace strata
