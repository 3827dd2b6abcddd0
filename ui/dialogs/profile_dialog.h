#pragma once

#include "profile/cluster_profile.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace strata {

// Adds or edits a cluster profile: every ClusterProfile field, grouped in tabs (SSH,
// Prometheus, Kubernetes, burn-in). Checks what it can before accepting (a name not taken,
// a host, valid environment variable names, an http(s) URL) and says what is wrong inline.
// The Prometheus token and password are edited here but stored by the caller in the keyring,
// never in the profile file. GUI thread; open() it, do not exec().
class ProfileDialog : public QDialog
{
    Q_OBJECT
public:
    // takenNames: names of the other profiles (a new name must differ).
    explicit ProfileDialog(const QStringList &takenNames, QWidget *parent = nullptr);

    void setProfile(const ClusterProfile &profile);
    ClusterProfile profile() const;
    // Editing a profile whose Prometheus secrets are in the keyring (they are not read into the
    // form): empty fields keep them, the placeholders say so, and a box offers to forget them.
    bool forgetStoredSecrets() const;
    // Empty when the form can be accepted, else what to fix.
    QString validationError() const;

    QLineEdit *field(const QString &objectName) const;

    void accept() override;

private:
    QWidget *sshTab();
    QWidget *prometheusTab();
    QWidget *kubernetesTab();
    QWidget *burninTab();
    QLineEdit *lineEdit(const QString &objectName, const QString &placeholder = {});
    QWidget *withBrowse(QLineEdit *edit, const QString &caption);
    static QTableWidget *pairTable(const QString &objectName, const QStringList &headers);
    void revalidate();

    QStringList m_taken;
    QLineEdit *m_name;
    QComboBox *m_orchestrator;
    QLineEdit *m_sshHost;
    QSpinBox *m_sshPort;
    QLineEdit *m_sshUser;
    QLineEdit *m_identity;
    QLineEdit *m_knownHosts;
    QCheckBox *m_acceptNewHostKey;
    QSpinBox *m_connectTimeout;
    QSpinBox *m_commandTimeout;
    QSpinBox *m_refresh;
    QTableWidget *m_environment;
    QLineEdit *m_prometheusUrl;
    QLineEdit *m_prometheusToken;
    QLineEdit *m_prometheusUser;
    QLineEdit *m_prometheusPassword;
    QCheckBox *m_forgetSecrets;
    QLineEdit *m_prometheusCa;
    QLineEdit *m_alertmanagerUrl;
    QLineEdit *m_grafanaNodeUrl;
    QLineEdit *m_grafanaJobUrl;
    QComboBox *m_hostLabel;
    QTableWidget *m_relabel;
    QLineEdit *m_kubeContext;
    QLineEdit *m_kubeNamespace;
    QLineEdit *m_burninPath;
    QLineEdit *m_burninImage;
    QLabel *m_error;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace strata
