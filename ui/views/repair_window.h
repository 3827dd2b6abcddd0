#pragma once

#include "model/cluster_snapshot.h"

#include <QSet>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace strata {

class ClusterSession;
class RepairEngine;
struct RepairStep;

// The repair loop in the window (issue 28), the same RepairEngine as `strata watch`: the policy
// (the profile's "repair", editable here for this session, checked as it is typed), Plan (a dry
// run on the latest snapshot: every step with its hold and its drain preview), Apply (after a
// confirmation listing the drains and the nodes running other users' jobs: the engine acts, pass
// after pass as refreshes come, until nothing more is to be done now), and the records as the
// cluster's Prometheus holds them: each node's state and evidence, each GPU's lifetime events by
// UUID. The engine works through the session; the window opens no connection. GUI thread.
class RepairWindow : public QWidget
{
    Q_OBJECT
public:
    // agentPath: the local strata-burn the tests deploy; historyPath: the burn-in history file.
    RepairWindow(ClusterSession *session, const QString &agentPath, const QString &historyPath, QWidget *parent = nullptr);
    ~RepairWindow() override;

    RepairEngine *engine() const { return m_engine; }
    QTableWidget *steps() const { return m_steps; }
    QTableWidget *nodeRecords() const { return m_nodes; }
    QTableWidget *gpuRecords() const { return m_gpus; }
    QPlainTextEdit *policyEditor() const { return m_policy; }
    QPushButton *planButton() const { return m_plan; }
    QPushButton *applyButton() const { return m_apply; }
    QString statusText() const;

    // A dry-run pass on `snapshot` (Plan uses the session's latest).
    void planOn(const SnapshotPtr &snapshot);
    // Acts from now on: passes on the latest snapshot and the next refreshes until settled.
    // confirmed: nodes whose drain the operator confirmed despite other users' jobs.
    void applyWith(const QSet<QString> &confirmed);

private:
    void policyEdited();
    void plan();
    void apply();
    void showStep(const RepairStep &step, const QString &error);
    void showRecords();
    void onSnapshot(const SnapshotPtr &snapshot);
    void say(const QString &text, bool bad = false);

    ClusterSession *m_session;
    RepairEngine *m_engine; // a child
    QLabel *m_policyState;
    QPlainTextEdit *m_policy;
    QPushButton *m_plan;
    QPushButton *m_apply;
    QLabel *m_status;
    QTableWidget *m_steps;
    QTableWidget *m_nodes;
    QTableWidget *m_gpus;
    bool m_policyOk = false;
    bool m_applying = false;
    int m_passes = 0;
};

} // namespace strata
