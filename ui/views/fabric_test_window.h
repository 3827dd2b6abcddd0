#pragma once

#include "fabric/fabric_request.h"
#include "model/fabric_history_record.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace strata {

class FabricTestRunner;
struct FabricGroupResult;
struct FabricVerdict;

// A fabric test from the window: the nodes picked, the probe's backend, whether to bisect and
// the floor (from the instance type, 0: judged against the other nodes), then each round's
// groups live as their jobs run and end (nodes, job, all-reduce busbw, latency, short or ok)
// and the verdict naming the node that slows the set. Start runs it, Cancel stops it (its
// jobs are cancelled and its reservation deleted); closing the window cancels a run.
// Drives a FabricTestRunner it owns over the session's login shell; nothing here waits on
// the network. A top-level window on the GUI thread.
class FabricTestWindow : public QWidget
{
    Q_OBJECT
public:
    // Takes ownership of the runner. request: the nodes, and the floor the catalog gives
    // (floorSource says where it comes from); the rest the window's fields decide.
    FabricTestWindow(FabricTestRunner *runner, const FabricRequest &request, const QString &floorSource, QWidget *parent = nullptr);
    ~FabricTestWindow() override;

    FabricTestRunner *runner() const { return m_runner; }
    QTableWidget *rounds() const { return m_table; }
    QString stageText() const;
    QString verdictText() const;
    QComboBox *backendBox() const { return m_backend; }
    QPushButton *startButton() const { return m_start; }
    bool isFinished() const { return m_finished; }

    void start();
    // The nodes cannot run the test (FabricNodesRefusal): said in the window, Start stays off.
    void refuseStart(const QString &reason);
    // Where each group's result is compared with its fleet and recorded (the burn-in history
    // file), and the nodes' one instance type (empty: mixed or unknown, no fleet). An empty
    // path: neither (the "Against the fleet" column stays empty).
    void setFleetHistory(const QString &historyPath, const QString &instanceType);
    QString fleetText(int row) const;

Q_SIGNALS:
    void ended();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void roundStarted(int round, const QList<QStringList> &groups, const QStringList &jobIds);
    void groupFinished(int round, const FabricGroupResult &result, bool shortOfReference);
    void finish(const QString &text, bool good);
    void judgeAgainstFleet();

    FabricTestRunner *m_runner;
    FabricRequest m_request;
    QComboBox *m_backend;
    QCheckBox *m_isolate;
    QDoubleSpinBox *m_floor;
    QPushButton *m_start;
    QPushButton *m_cancel;
    QTableWidget *m_table;
    QLabel *m_stage;
    QLabel *m_verdict;
    bool m_finished = false;
    QString m_refusal;                            // why Start is off for good (refuseStart)
    QString m_historyPath;
    QString m_instanceType;
    QVector<FabricHistoryRecord> m_fleetRecords; // this run's groups with a figure
    QList<int> m_fleetRows;                       // their rows in the table
    quint64 m_runGeneration = 0;                  // a new start() makes an older judgement stale
};

} // namespace strata
