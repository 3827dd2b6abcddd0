#pragma once

#include "burnin/burnin_request.h"
#include "model/cluster_snapshot.h"

#include <QDialog>
#include <QMap>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace strata {

// Asks what a burn-in should do on the nodes a selection stands for: which tests, how long,
// which backend, whether to drain the nodes that fail; says in one plain paragraph what will
// happen (the job, the GPU time, what is drained) and warns about nodes that run other jobs.
// Nodes the scheduler will not start a job on (drained, down, powering down, failed to launch,
// not in the last refresh) are left out of the request, each named with why: a job that asks
// for them would pend until someone resumes them. GUI thread; created by BurninController.
class BurninDialog : public QDialog
{
    Q_OBJECT
public:
    // scope: what the selection was, for the title ("partition gpu", "gpu-node03 GPU 2").
    BurninDialog(const SnapshotPtr &snapshot, const QStringList &nodes, const QString &scope, QWidget *parent = nullptr);

    BurninRequest request() const;
    // The selected nodes the burn-in leaves out, each with why ("drained: bad fan").
    QMap<QString, QString> leftOut() const { return m_leftOut; }
    void setTests(const QStringList &tests);
    void setDurationSeconds(int seconds);
    void setBackend(const QString &backend);
    void setDrainOnFail(bool drain);
    // The paragraph shown: what the burn-in will do.
    QString summary() const;

    // The plan in words, for a request on a snapshot.
    static QString describe(const BurninRequest &request, const SnapshotPtr &snapshot);

private:
    void update();

    SnapshotPtr m_snapshot;
    QStringList m_nodes;            // the ones the burn-in runs on
    QMap<QString, QString> m_leftOut; // node -> why the scheduler would not start it there
    QMap<QString, int> m_gpusByNode;
    QMap<QString, QCheckBox *> m_tests;
    QSpinBox *m_duration;
    QComboBox *m_backend;
    QCheckBox *m_drainOnFail;
    QLabel *m_summary;
    QLabel *m_warning;
    QPushButton *m_start;
};

} // namespace strata
