#pragma once

#include "kubernetes/kube_object_ref.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableWidget;

namespace strata {

class ClusterSession;
class PodLogPanel;
class PortForwardPanel;
struct Job;

// "Inspect": one Kubernetes object as a person looks into it, read through the session's
// KubeInspector (never a connection of the window's own): its YAML as kubectl prints it, its
// events (warnings first, then newest), its pods' container logs (PodLogPanel) and
// port-forwards to them (PortForwardPanel). With an empty object: the cluster's recent events
// only. Every read runs off the GUI thread; what is being read and what failed show in the
// status line. GUI thread; owned by ClusterActions (kept while the session lasts, so open
// forwards survive closing the window).
class InspectWindow : public QWidget
{
    Q_OBJECT
public:
    InspectWindow(ClusterSession *session, const KubeObjectRef &object, const QStringList &pods,
                  QWidget *parent = nullptr);

    // The object a workload of the Jobs table stands for (its top owner's kind and version).
    static KubeObjectRef referenceOf(const Job &job);

    const KubeObjectRef &object() const { return m_object; }
    // Reads the YAML and the events again (the logs panel refreshes itself).
    void refresh();
    QString yamlText() const;
    QString statusText() const;
    QTableWidget *eventsTable() const { return m_events; }
    QTabWidget *tabs() const { return m_tabs; }
    PodLogPanel *logPanel() const { return m_logs; }
    PortForwardPanel *forwardPanel() const { return m_forwards; }
    // Reads under way (for tests and the status line).
    int pending() const { return m_pending; }

private:
    void readYaml();
    void readEvents();
    void setStatus();

    QPointer<ClusterSession> m_session;
    KubeObjectRef m_object;
    QLabel *m_status;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_yaml = nullptr;
    QTableWidget *m_events;
    PodLogPanel *m_logs = nullptr;
    PortForwardPanel *m_forwards = nullptr;
    int m_pending = 0;
    QString m_yamlError;
    QString m_eventsError;
};

} // namespace strata
