#include "ssh_remote_shell.h"

#include "shell_quote.h"
#include "ssh_session.h"

#include <QDateTime>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcSsh)

namespace strata {

SshRemoteShell::SshRemoteShell(const SshOptions &options) : m_options(options)
{
    m_worker = std::thread([this] { workerLoop(); });
}

SshRemoteShell::~SshRemoteShell()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_worker.join();
}

void SshRemoteShell::post(Work work)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(work));
    }
    m_wake.notify_one();
}

QString SshRemoteShell::commandLine(const QStringList &argv) const
{
    return ShellQuote::withEnvironment(m_options.remoteEnvironment, argv);
}

QFuture<CommandResult> SshRemoteShell::run(const QStringList &argv, const QByteArray &stdinData)
{
    auto promise = std::make_shared<QPromise<CommandResult>>();
    QFuture<CommandResult> future = promise->future();
    promise->start();
    const QString line = commandLine(argv);
    post([this, promise, line, stdinData](SshSession &session) {
        CommandResult result = ensureConnected(session);
        if (result.ran()) {
            result = session.exec(line, stdinData);
            // A connection that died while idle shows up as a channel that cannot open: reconnect
            // once. Never when the command may have reached the host: a resent sbatch or drain
            // could act twice (the caller reads the cluster back instead).
            if (result.failure == ErrorKind::ConnectionLost && !result.mayHaveRun && !session.isConnected()) {
                result = ensureConnected(session);
                if (result.ran())
                    result = session.exec(line, stdinData);
            }
        }
        promise->addResult(result);
        promise->finish();
    });
    return future;
}

QFuture<CommandResult> SshRemoteShell::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    auto promise = std::make_shared<QPromise<CommandResult>>();
    QFuture<CommandResult> future = promise->future();
    promise->start();
    post([this, promise, remotePath, data, mode](SshSession &session) {
        CommandResult result = ensureConnected(session);
        if (result.ran())
            result = session.upload(remotePath, data, mode);
        promise->addResult(result);
        promise->finish();
    });
    return future;
}

void SshRemoteShell::trustFingerprint(const QString &fingerprint)
{
    post([this, fingerprint](SshSession &session) {
        session.setTrustedFingerprint(fingerprint);
        m_nextConnectAllowedMs = 0; // the person just answered: try at once
        m_backoffSeconds = 0;
    });
}

void SshRemoteShell::setPassphrase(const QString &passphrase)
{
    post([this, passphrase](SshSession &session) {
        session.setPassphrase(passphrase);
        m_nextConnectAllowedMs = 0;
        m_backoffSeconds = 0;
    });
}

CommandResult SshRemoteShell::ensureConnected(SshSession &session)
{
    if (session.isConnected())
        return {};
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now < m_nextConnectAllowedMs) {
        CommandResult r = m_lastConnectFailure;
        r.transportError += QStringLiteral(" (next attempt in %1 s)").arg((m_nextConnectAllowedMs - now + 999) / 1000);
        return r;
    }
    CommandResult r = session.connect();
    if (r.ran()) {
        m_backoffSeconds = 0;
        m_nextConnectAllowedMs = 0;
        return r;
    }
    // Host-key and passphrase answers need a person, not a retry; others back off.
    const bool needsPerson = r.failure == ErrorKind::HostKeyUnknown || r.failure == ErrorKind::HostKeyChanged
        || r.failure == ErrorKind::PassphraseNeeded;
    if (!needsPerson) {
        m_backoffSeconds = m_backoffSeconds == 0 ? 1 : qMin(30, m_backoffSeconds * 2);
        m_nextConnectAllowedMs = QDateTime::currentMSecsSinceEpoch() + m_backoffSeconds * 1000;
    }
    m_lastConnectFailure = r;
    qCWarning(lcSsh) << "connect failed:" << r.transportError;
    return r;
}

void SshRemoteShell::workerLoop()
{
    SshSession session(m_options);
    while (true) {
        Work work;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_stopping && m_queue.empty())
                return;
            work = std::move(m_queue.front());
            m_queue.pop_front();
        }
        work(session);
    }
}

} // namespace strata
