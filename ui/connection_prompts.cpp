#include "connection_prompts.h"

#include "dialogs/host_key_dialog.h"
#include "dialogs/login_question_dialog.h"
#include "views/connections_panel.h"
#include "views/log_panel.h"

#include "session/cluster_session.h"

#include <QInputDialog>

namespace strata {

ConnectionPrompts::ConnectionPrompts(QWidget *dialogParent, ConnectionsPanel *connections, LogPanel *log,
                                     QObject *parent)
    : QObject(parent), m_dialogParent(dialogParent), m_connections(connections), m_log(log)
{
}

void ConnectionPrompts::setSession(ClusterSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    m_reportedErrors.clear();
    if (session) {
        connect(session, &ClusterSession::hostKeyUnknown, this, &ConnectionPrompts::onHostKeyUnknown);
        connect(session, &ClusterSession::loginQuestion, this, &ConnectionPrompts::onLoginQuestion);
        session->setAnswersLoginQuestions(true);
    }
    // Asked of the session that is gone: the handlers see no session and do nothing.
    if (m_hostKeyDialog)
        m_hostKeyDialog->reject();
    if (m_passphraseDialog)
        m_passphraseDialog->close();
}

QString ConnectionPrompts::describe(const SourceStatus &s)
{
    QString text = tr("%1: %2").arg(sourceKindName(s.source), s.error);
    if (s.errorKind == ErrorKind::HostKeyChanged)
        text += tr(" \u2014 The host now offers a different key than known_hosts records. "
                   "Strata refuses to connect: this may be an attack, or the host was "
                   "reinstalled. Ask the cluster's admins, then remove the old entry "
                   "(ssh-keygen -R host) if the change is expected.");
    return text;
}

void ConnectionPrompts::report(const QVector<SourceStatus> &sources)
{
    for (const SourceStatus &s : sources) {
        QString &last = m_reportedErrors[s.source];
        if (s.error == last)
            continue;
        last = s.error;
        if (s.error.isEmpty()) {
            m_log->append(LogPanel::Level::Success, tr("%1: working again").arg(sourceKindName(s.source)));
            continue;
        }
        const QString text = describe(s);
        m_log->append(s.ok ? LogPanel::Level::Info : LogPanel::Level::Error, text);
        if (!s.ok)
            m_connections->setMessage(text);
        if (s.errorKind == ErrorKind::PassphraseNeeded && m_session)
            askPassphrase(m_session->profile().identityFile);
    }
}

void ConnectionPrompts::askPassphrase(const QString &identity)
{
    if (m_passphraseDialog)
        return;
    auto *dialog = new QInputDialog(m_dialogParent);
    dialog->setObjectName(QStringLiteral("passphraseDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Key passphrase"));
    dialog->setLabelText(tr("Passphrase for %1 (kept in memory for this session only):").arg(identity));
    dialog->setTextEchoMode(QLineEdit::Password);
    m_passphraseDialog = dialog;
    connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString &passphrase) {
        if (!m_session)
            return;
        m_reportedErrors.remove(SourceKind::Ssh); // a wrong one asks again
        m_session->setPassphrase(passphrase);
    });
    dialog->open();
}

void ConnectionPrompts::onLoginQuestion(int id, const LoginChallenge &challenge)
{
    if (!m_session)
        return;
    m_log->append(LogPanel::Level::Info, tr("%1 asks for a %2 login").arg(challenge.host, challenge.method));
    auto *dialog = new LoginQuestionDialog(challenge, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The session answers (or, if it is gone, its SSH thread was released when it closed).
    QPointer<ClusterSession> session = m_session;
    connect(dialog, &QDialog::accepted, this, [session, id, dialog] {
        if (session)
            session->answerLoginQuestion(id, dialog->answers());
    });
    connect(dialog, &QDialog::rejected, this, [session, id] {
        if (session)
            session->declineLoginQuestion(id);
    });
    dialog->open();
}

void ConnectionPrompts::onHostKeyUnknown(const QString &host, const QString &fingerprint)
{
    if (m_hostKeyDialog)
        return;
    m_log->append(LogPanel::Level::Info, tr("%1 offers an unknown host key %2").arg(host, fingerprint));
    auto *dialog = new HostKeyDialog(host, fingerprint, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_hostKeyDialog = dialog;
    connect(dialog, &QDialog::accepted, this, [this, host, fingerprint] {
        if (!m_session)
            return;
        m_log->append(LogPanel::Level::Info, tr("Trusted %1 for %2; connecting").arg(fingerprint, host));
        m_connections->setMessage(tr("Host key trusted; connecting…"));
        m_session->acceptHostKey(fingerprint);
    });
    connect(dialog, &QDialog::rejected, this, [this, host] {
        if (!m_session)
            return;
        m_log->append(LogPanel::Level::Error, tr("Refused the host key of %1: not connected").arg(host));
        m_hostKeyDialog = nullptr; // answered: closing the session has nothing left to reject
        Q_EMIT hostKeyRefused(host);
    });
    dialog->open();
}

} // namespace strata
