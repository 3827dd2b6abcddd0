#pragma once

#include "profile/cluster_profile.h"

#include "model/source_status.h"

#include <QVector>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace strata {

// The cluster list (saved profiles) with add/edit/remove and connect/disconnect, and for the
// connected cluster how each source (SSH, Slurm, Prometheus, Kubernetes) stands and how old
// its data is. Errors are spelled out below the list, not hidden in tooltips. GUI thread.
class ConnectionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionsPanel(QWidget *parent = nullptr);

    void setProfiles(const QVector<ClusterProfile> &profiles);
    QString selectedProfile() const;
    void selectProfile(const QString &name);
    // name empty: disconnected.
    void setConnected(const QString &name);
    void setSources(const QVector<SourceStatus> &sources);
    void setMessage(const QString &text);
    QString message() const;
    QString problemsText() const;
    QTreeWidget *sourceTree() const { return m_sources; }
    QListWidget *profileList() const { return m_profiles; }

Q_SIGNALS:
    void addRequested();
    void editRequested(const QString &name);
    void removeRequested(const QString &name);
    void connectRequested(const QString &name);
    void disconnectRequested();

private:
    void renderSources();
    void updateButtons();

    QListWidget *m_profiles;
    QPushButton *m_add;
    QPushButton *m_edit;
    QPushButton *m_remove;
    QPushButton *m_connect;
    QPushButton *m_disconnect;
    QLabel *m_message;
    QTreeWidget *m_sources;
    QLabel *m_problems;
    QTimer *m_ageTimer;
    QString m_connected;
    QVector<SourceStatus> m_statuses;
};

} // namespace strata
