#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;

namespace strata {

class ClusterSession;

// A workload's pods' logs in the Inspect window: a pod and one of its containers (init
// containers too, each with its restarts), Previous (the instance before the last restart,
// offered where the container has one), the last N lines, Refresh. Read through the session's
// KubeInspector off the GUI thread; a failure shows in the status line, the API's words.
// GUI thread; a child of InspectWindow.
class PodLogPanel : public QWidget
{
    Q_OBJECT
public:
    PodLogPanel(ClusterSession *session, const QStringList &pods, QWidget *parent = nullptr);

    void refresh();
    QComboBox *podChooser() const { return m_pod; }
    QComboBox *containerChooser() const { return m_container; }
    QCheckBox *previousBox() const { return m_previous; }
    QString logText() const;
    QString statusText() const;
    bool isReading() const { return m_reading > 0; }

private:
    void readContainers();
    void readLog();

    QPointer<ClusterSession> m_session;
    QComboBox *m_pod;
    QComboBox *m_container;
    QCheckBox *m_previous;
    QSpinBox *m_tail;
    QPlainTextEdit *m_text;
    QLabel *m_status;
    int m_reading = 0;
    quint64 m_generation = 0; // answers to an older choice are dropped
};

} // namespace strata
