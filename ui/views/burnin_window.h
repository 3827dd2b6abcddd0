#pragma once

#include "burnin/burnin_report.h"
#include "burnin/burnin_request.h"

#include <QDateTime>
#include <QPointer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace strata {

class BurninLiveModel;
class BurninSession;

// One burn-in, live and then judged: per GPU the test, progress, TFLOPS, GB/s, temperature,
// power, clocks and the verdict as it forms (Live tab); when the run ends the report per GPU
// against its datasheet and its peers (Report tab), exportable as JSON or one HTML page.
// Cancel stops the job; closing the window only stops following it (the job runs on and is
// re-attached later). Follows a BurninSession it owns; nothing here waits on the network.
// A top-level window on the GUI thread; created by BurninController.
class BurninWindow : public QWidget
{
    Q_OBJECT
public:
    // Takes ownership of the session. The request is the one it runs (nodes, tests, GPUs).
    BurninWindow(BurninSession *session, const BurninRequest &request, QWidget *parent = nullptr);
    ~BurninWindow() override;

    BurninSession *session() const { return m_session; }
    BurninLiveModel *liveModel() const { return m_model; }
    QTableView *liveTable() const { return m_table; }
    QTableWidget *reportTable() const { return m_reportTable; }
    QTabWidget *tabs() const { return m_tabs; }
    bool isFinished() const { return m_finished; }
    QString jobId() const { return m_jobId; }
    QString stateText() const;
    const BurninReport &report() const { return m_report; }
    // Re-attached: the job id is known from the start (no submitted() comes).
    void setAttachedJob(const QString &jobId);

    // Writes the report; errors as values (empty: written).
    QString exportJson(const QString &path) const;
    QString exportHtml(const QString &path) const;

Q_SIGNALS:
    // The run ended and was judged (the report is ready) or could not run at all.
    void finished(const strata::BurninReport &report);
    void failed(const QString &error);
    // Closed while the job runs: it is no longer followed (the job itself runs on).
    void detached(const QString &jobId);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void onStage(const QString &stage);
    void onCompleted(const BurninVerdict &verdict, const QStringList &drained, const QStringList &notDrained);
    void onFailed(const QString &error);
    void updateHeader();
    void fillReport();
    void exportAs(const QString &format);

    BurninSession *m_session;
    BurninRequest m_request;
    BurninLiveModel *m_model;
    QLabel *m_title;
    QLabel *m_state;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QPushButton *m_exportJson;
    QPushButton *m_exportHtml;
    QTabWidget *m_tabs;
    QTableView *m_table;
    QLabel *m_problems;
    QTableWidget *m_reportTable;
    QLabel *m_reportNotes;
    QString m_stage;
    QString m_jobId;
    QString m_error;
    bool m_finished = false;
    bool m_cancelRequested = false; // the operator cancelled: the end is "cancelled", not a verdict
    QDateTime m_startedAt;
    BurninReport m_report;
};

} // namespace strata
