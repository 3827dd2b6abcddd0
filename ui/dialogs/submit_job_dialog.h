#pragma once

#include "model/cluster_snapshot.h"
#include "model/job_submission.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace strata {

// Submits a batch job: partition, node count or the nodes picked in the Nodes table, GPUs
// per node, time limit, and a script started from a template. On a Kubernetes cluster it is a
// Job form: image and namespace, the script run by /bin/sh -c in the container. The dialog is the confirmation:
// nothing is sent until Submit. GUI thread; open() it.
class SubmitJobDialog : public QDialog
{
    Q_OBJECT
public:
    SubmitJobDialog(const SnapshotPtr &snapshot, const QStringList &pickedNodes,
                    QWidget *parent = nullptr);

    JobSubmission submission() const;
    QString validationError() const;
    QStringList templateNames() const;
    void useTemplate(const QString &name);
    QPlainTextEdit *scriptEditor() const { return m_script; }

    void accept() override;

private:
    void revalidate();
    void updateGpuLimit();

    SnapshotPtr m_snapshot;
    QLineEdit *m_name;
    QComboBox *m_partition;
    QSpinBox *m_nodes;
    QLineEdit *m_nodeList;
    QSpinBox *m_gpusPerNode;
    QSpinBox *m_timeLimit;
    QLineEdit *m_output;
    // Kubernetes clusters get a Job form: image and namespace instead of partition and output.
    bool m_kubernetes = false;
    QLineEdit *m_image = nullptr;
    QLineEdit *m_namespace = nullptr;
    QCheckBox *m_exclusive;
    QComboBox *m_template;
    QPlainTextEdit *m_script;
    QLabel *m_error;
    QPushButton *m_submit = nullptr;
};

} // namespace strata
