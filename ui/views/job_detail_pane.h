#pragma once

#include "detail_pane.h"

#include "model/cluster_snapshot.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace strata {

// One job in detail: state and reason, where it runs (nodes and GPU indices), time, the
// efficiency verdict, its command and output path, and its GPUs' utilisation over time.
// GUI thread. The title, form and chart are DetailPane's.
class JobDetailPane : public DetailPane
{
    Q_OBJECT
public:
    explicit JobDetailPane(QWidget *parent = nullptr);

    void showJob(const SnapshotPtr &snapshot, const QString &id);
    QString jobId() const { return m_id; }
    QString verdictText() const;
    QString placementText() const;
    QString applicationText() const;
    // The command box's text: Slurm's command line, else (a --wrap job, a script given on
    // standard input) the commands of its batch script when read, else why there is none.
    static QString commandText(const Job &job, OrchestratorKind orchestrator);

Q_SIGNALS:
    void nodePicked(const QString &node);
    // Inspect (Kubernetes): the workload's YAML, events, logs and port-forwards.
    void inspectRequested(const QString &jobId);

private:
    QString m_id;
    QLabel *m_state;
    QLabel *m_owner;
    QLabel *m_placement;
    QLabel *m_time;
    QLabel *m_verdict;
    QLabel *m_workload;
    QLabel *m_kubernetes;
    QLabel *m_app;
    QLabel *m_launch;
    QLabel *m_fabric;
    QLabel *m_script;
    QLabel *m_stdout;
    QLabel *m_workDir;
    QPlainTextEdit *m_command;
    QPushButton *m_inspect; // Kubernetes workloads only
};

} // namespace strata
