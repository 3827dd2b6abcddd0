#pragma once

#include "profile/cluster_profile.h"
#include "session/connection_check.h"
#include "session/queued_login_prompter.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace strata {

// The "Add a cluster" form of the first run: name, login host, user, port, key, scheduler and
// Prometheus URL. "Connect" checks the profile for real (ConnectionCheck: SSH, one scheduler
// refresh, one Prometheus query) with a progress bar and Cancel, and only a profile that
// answered is handed on (accepted). Failures are spelled out inline by kind: an unknown host
// key offers its fingerprint to trust, a changed one is refused with what it may mean, an
// encrypted key asks for its passphrase, a keyboard-interactive login (a one-time code) asks in
// a LoginQuestionDialog. GUI thread; the check's I/O runs on its transports' workers.
class AddClusterForm : public QWidget
{
    Q_OBJECT
public:
    explicit AddClusterForm(QWidget *parent = nullptr);
    ~AddClusterForm() override;

    // Fills the fields; what the form does not show (known_hosts file, remote environment,
    // timeouts) is kept from this profile too.
    void setProfile(const ClusterProfile &profile);
    ClusterProfile profile() const;
    void setTakenNames(const QStringList &names) { m_taken = names; }
    // Empty when the fields can be checked, else what to fix.
    QString validationError() const;

    void connectToCluster(); // the Connect button
    void cancel();           // the Cancel button
    bool isChecking() const;
    QString errorText() const;
    QString statusText() const;
    ErrorKind lastErrorKind() const { return m_lastResult.errorKind; }
    ConnectionCheck *check() const { return m_check; }

Q_SIGNALS:
    // The profile answered: save it and connect.
    void accepted(const strata::ClusterProfile &profile, const strata::ConnectionCheckResult &result);

private:
    void onProgress(int step, int steps, const QString &text);
    // A keyboard-interactive question of the check's login (a one-time code): asked in a dialog.
    void onLoginQuestion(int id, const LoginChallenge &challenge);
    void onFinished(const ConnectionCheckResult &result);
    void setChecking(bool checking);
    QString describeFailure(const ConnectionCheckResult &result) const;
    QLineEdit *lineEdit(const QString &objectName, const QString &placeholder);

    ClusterProfile m_base;
    QStringList m_taken;
    ConnectionCheck *m_check;
    // The check's login questions, from its SSH thread to this form's dialogs.
    std::shared_ptr<QueuedLoginPrompter> m_loginQuestions;
    ConnectionCheckResult m_lastResult;
    QString m_trustedFingerprint;
    QLineEdit *m_name;
    QLineEdit *m_host;
    QLineEdit *m_user;
    QSpinBox *m_port;
    QLineEdit *m_identity;
    QComboBox *m_scheduler;
    QLineEdit *m_prometheus;
    QLineEdit *m_passphrase;
    QLabel *m_passphraseLabel;
    QProgressBar *m_progress;
    QLabel *m_status;
    QLabel *m_error;
    QPushButton *m_connect;
    QPushButton *m_cancel;
    QPushButton *m_trust;
};

} // namespace strata
