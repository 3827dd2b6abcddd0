#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace strata {

class ClusterSession;
class KubePortForward;

// Port-forwards in the Inspect window: a pod of the workload (or a typed svc/NAME), its port
// (a number or a port name) and a local port (0: a free one); Forward resolves the target
// through the session's KubeInspector off the GUI thread and opens a KubePortForward (each
// connection an SSH channel from the login node to the pod's IP). The open forwards are listed
// with their local URL, connections and last error, each with Close, which ends its connections.
// GUI thread; owns the forwards (they end with it).
class PortForwardPanel : public QWidget
{
    Q_OBJECT
public:
    PortForwardPanel(ClusterSession *session, const QStringList &pods, QWidget *parent = nullptr);
    ~PortForwardPanel() override;

    QComboBox *targetChooser() const { return m_target; }
    QLineEdit *remotePortEdit() const { return m_remote; }
    QSpinBox *localPortBox() const { return m_local; }
    QPushButton *forwardButton() const { return m_forward; }
    QTableWidget *forwardsTable() const { return m_table; }
    QString statusText() const;
    int forwardCount() const { return int(m_forwards.size()); }
    const KubePortForward *forwardAt(int row) const { return m_forwards.at(row).get(); }
    void closeForward(int row);
    // Starts a forward as the fields say (what the button does).
    void startForward();

private:
    void updateTable();

    QPointer<ClusterSession> m_session;
    QComboBox *m_target;
    QLineEdit *m_remote;
    QSpinBox *m_local;
    QPushButton *m_forward;
    QLabel *m_status;
    QTableWidget *m_table;
    std::vector<std::unique_ptr<KubePortForward>> m_forwards;
    bool m_resolving = false;
};

} // namespace strata
