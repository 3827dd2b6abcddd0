#pragma once

#include "model/source_status.h"
#include "model/login_challenge.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QVector>

class QWidget;

namespace strata {

class ClusterSession;
class ConnectionsPanel;
class HostKeyDialog;
class LogPanel;

// What the connection asks of the person, and what its failures mean: the unknown host key
// (HostKeyDialog, the answer through ClusterSession::acceptHostKey), the key's passphrase (an
// input dialog, through ClusterSession::setPassphrase), a keyboard-interactive login's questions
// (LoginQuestionDialog, through ClusterSession::answerLoginQuestion, while the session's SSH
// thread waits), the explanation of a changed host key,
// and one log line per change of a source's error. Every decision is on the ErrorKind, never on
// the error's words. GUI thread; owned by the MainWindow, which parents the dialogs.
class ConnectionPrompts : public QObject
{
    Q_OBJECT
public:
    ConnectionPrompts(QWidget *dialogParent, ConnectionsPanel *connections, LogPanel *log, QObject *parent = nullptr);

    // The session whose prompts these are; null closes any prompt still open (as refused).
    void setSession(ClusterSession *session);
    // Logs each source whose error changed since the last report and opens the prompt its
    // kind calls for.
    void report(const QVector<SourceStatus> &sources);
    // The log line for a failing source: its error, and for some kinds what to do about it.
    static QString describe(const SourceStatus &source);

Q_SIGNALS:
    // The person refused the offered host key: the session should be closed.
    void hostKeyRefused(const QString &host);

private:
    void onHostKeyUnknown(const QString &host, const QString &fingerprint);
    void askPassphrase(const QString &identity);
    void onLoginQuestion(int id, const LoginChallenge &challenge);

    QWidget *m_dialogParent;
    ConnectionsPanel *m_connections;
    LogPanel *m_log;
    QPointer<ClusterSession> m_session;
    QPointer<HostKeyDialog> m_hostKeyDialog;
    QPointer<QWidget> m_passphraseDialog;
    QMap<SourceKind, QString> m_reportedErrors; // source -> last error logged
};

} // namespace strata
