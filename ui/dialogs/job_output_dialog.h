#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace strata {

class OutputFollower;

// "Show output": a job's output followed live, as the session offers it
// (ClusterSession::followOutput: a Slurm job's stdout file through JobOutputFollower, a pod's
// `kubectl logs -f` through KubeLogFollower), with a
// search field (Enter: next match, Shift+Enter: previous) and a line saying what is shown (the
// last N KiB of a larger file, following, ended, or why it cannot be read). Non-modal.
class JobOutputDialog : public QDialog
{
    Q_OBJECT
public:
    // Any follower (the dialog takes it over and starts it).
    JobOutputDialog(const QString &jobId, OutputFollower *follower, QWidget *parent = nullptr);

    OutputFollower *source() const { return m_follower; }
    QPlainTextEdit *text() const { return m_text; }
    QLineEdit *searchEdit() const { return m_search; }
    QString statusText() const;
    bool find(const QString &what, bool backwards = false);

private:
    void updateStatus();

    OutputFollower *m_follower;
    QPlainTextEdit *m_text;
    QLineEdit *m_search;
    QLabel *m_status;
    QString m_error;
};

} // namespace strata
