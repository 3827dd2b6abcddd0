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

struct SshRemoteShell::ActiveStream
{
    SshSession::Stream *stream = nullptr;
    std::function<void(const QByteArray &)> onOutput;
    std::shared_ptr<std::atomic_bool> stop;
    std::shared_ptr<QPromise<CommandResult>> promise;
    QByteArray stderrData;
};

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

QFuture<CommandResult> SshRemoteShell::stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                              std::shared_ptr<std::atomic_bool> stop)
{
    auto promise = std::make_shared<QPromise<CommandResult>>();
    QFuture<CommandResult> future = promise->future();
    promise->start();
    // Without a terminal sshd does not end a command when its channel closes, and it refuses
    // the "signal" request for root logins (no privilege separation after auth): kubectl logs -f
    // on a quiet pod would outlive the window. So the command runs in the background of a small
    // sh that watches the channel's stdin (kept as fd 3: a background job's own stdin is
    // /dev/null) and kills it when stdin closes (the channel went), and otherwise waits for it
    // and exits with its status. argv stays arguments, never spliced.
    static const QString watchdog = QStringLiteral(
        "exec 3<&0; \"$@\" 3<&- & pid=$!; (cat <&3 >/dev/null; kill $pid 2>/dev/null) >/dev/null 2>&1 & "
        "exec 3<&-; wait $pid");
    const QString line = commandLine(QStringList{QStringLiteral("sh"), QStringLiteral("-c"), watchdog,
                                                 QStringLiteral("strata-stream")} + argv);
    post([this, promise, line, onOutput = std::move(onOutput), stop = std::move(stop)](SshSession &session) mutable {
        CommandResult failure = ensureConnected(session);
        SshSession::Stream *opened = failure.ran() ? session.openStream(line, &failure) : nullptr;
        if (!opened) {
            promise->addResult(failure);
            promise->finish();
            return;
        }
        auto active = std::make_shared<ActiveStream>();
        active->stream = opened;
        active->onOutput = std::move(onOutput);
        active->stop = stop ? std::move(stop) : std::make_shared<std::atomic_bool>(false);
        active->promise = promise;
        m_streams.push_back(std::move(active));
    });
    return future;
}

bool SshRemoteShell::pumpStreams(SshSession &session)
{
    bool progressed = false;
    for (auto it = m_streams.begin(); it != m_streams.end();) {
        ActiveStream &s = **it;
        CommandResult result;
        bool running = false;
        if (s.stop->load()) {
            result.exitStatus = 0; // stopped by its owner: not a failure
        } else {
            QByteArray out;
            running = session.pumpStream(s.stream, &out, &s.stderrData, &result);
            if (!out.isEmpty()) {
                s.onOutput(out);
                progressed = true;
            }
        }
        if (running) {
            ++it;
            continue;
        }
        session.closeStream(s.stream);
        result.stderrData = s.stderrData;
        s.promise->addResult(result);
        s.promise->finish();
        it = m_streams.erase(it);
    }
    return progressed;
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
            if (m_streams.empty()) {
                m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            } else if (m_queue.empty() && !m_stopping) {
                // Streams open and nothing queued: read them, then wait briefly for work.
                lock.unlock();
                const bool progressed = pumpStreams(session);
                lock.lock();
                if (!progressed)
                    m_wake.wait_for(lock, std::chrono::milliseconds(50),
                                    [this] { return m_stopping || !m_queue.empty(); });
                continue;
            }
            if (m_stopping && m_queue.empty()) {
                lock.unlock();
                for (const auto &s : m_streams)
                    s->stop->store(true);
                pumpStreams(session); // finishes every stream's future
                return;
            }
            work = std::move(m_queue.front());
            m_queue.pop_front();
        }
        work(session);
        // A connection that dropped (or was remade) took its streams' channels with it.
        if (!m_streams.empty() && !session.isConnected())
            pumpStreams(session);
    }
}

} // namespace strata
