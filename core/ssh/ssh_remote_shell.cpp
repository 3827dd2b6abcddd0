#include "ssh_remote_shell.h"

#include "shell_quote.h"
#include "ssh_channel_command.h"
#include "ssh_session.h"
#include "tunnel_conversation.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>

Q_DECLARE_LOGGING_CATEGORY(lcSsh)

namespace strata {

namespace {

void finish(const std::shared_ptr<QPromise<CommandResult>> &promise, const CommandResult &result)
{
    promise->addResult(result);
    promise->finish();
}

} // namespace

struct SshRemoteShell::ActiveStream
{
    SshSession::Stream *stream = nullptr;
    std::function<void(const QByteArray &)> onOutput;
    std::shared_ptr<std::atomic_bool> stop;
    std::shared_ptr<QPromise<CommandResult>> promise;
    QByteArray stderrData;
};

struct SshRemoteShell::ActiveTunnel
{
    SshSession::Stream *channel = nullptr;
    std::shared_ptr<TunnelConversation> conversation;
    std::shared_ptr<std::atomic_bool> stop;
    std::shared_ptr<QPromise<CommandResult>> promise;
};

SshRemoteShell::SshRemoteShell(const SshOptions &options) : m_options(options)
{
    m_wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    m_worker = std::thread([this] { workerLoop(); });
}

SshRemoteShell::~SshRemoteShell()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    wake();
    m_worker.join();
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
}

void SshRemoteShell::wake()
{
    const quint64 one = 1;
    if (m_wakeFd >= 0)
        [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
}

void SshRemoteShell::post(Work work)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(work));
    }
    wake();
}

int SshRemoteShell::mostChannelsAtOnce() const
{
    std::lock_guard lock(m_mutex);
    return m_mostChannels;
}

ShellQuote::CommandLine SshRemoteShell::commandLine(const QStringList &argv) const
{
    return ShellQuote::withEnvironment(m_options.remoteEnvironment, argv);
}

QFuture<CommandResult> SshRemoteShell::run(const QStringList &argv, const QByteArray &stdinData)
{
    auto promise = std::make_shared<QPromise<CommandResult>>();
    QFuture<CommandResult> future = promise->future();
    promise->start();
    const ShellQuote::CommandLine line = commandLine(argv);
    if (!line.ok()) {
        finish(promise, CommandResult::transportFailure(ErrorKind::InvalidRequest, line.error));
        return future;
    }
    post(Work{line.text, line.forLog, stdinData, promise, {}});
    return future;
}

QFuture<CommandResult> SshRemoteShell::upload(const QString &remotePath, const QByteArray &data, int mode)
{
    auto promise = std::make_shared<QPromise<CommandResult>>();
    QFuture<CommandResult> future = promise->future();
    promise->start();
    post(Work{{}, {}, {}, {}, [this, promise, remotePath, data, mode](SshSession &session) {
                  // SFTP blocks this thread; what the running commands send meanwhile is kept
                  // in their channels' buffers by libssh and read on the next pump.
                  CommandResult result = ensureConnected(session);
                  if (result.ran())
                      result = session.upload(remotePath, data, mode);
                  finish(promise, result);
              }});
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
    const ShellQuote::CommandLine made = commandLine(
        QStringList{QStringLiteral("sh"), QStringLiteral("-c"), watchdog, QStringLiteral("strata-stream")} + argv);
    if (!made.ok()) {
        finish(promise, CommandResult::transportFailure(ErrorKind::InvalidRequest, made.error));
        return future;
    }
    const QString line = made.text;
    post(Work{{}, {}, {}, {}, [this, promise, line, onOutput = std::move(onOutput), stop = std::move(stop)](SshSession &session) mutable {
                  CommandResult failure = ensureConnected(session);
                  SshSession::Stream *opened = failure.ran() ? session.openStream(line, &failure) : nullptr;
                  if (!opened) {
                      finish(promise, failure);
                      return;
                  }
                  auto active = std::make_shared<ActiveStream>();
                  active->stream = opened;
                  active->onOutput = std::move(onOutput);
                  active->stop = stop ? std::move(stop) : std::make_shared<std::atomic_bool>(false);
                  active->promise = promise;
                  m_streams.push_back(std::move(active));
              }});
    return future;
}

QFuture<CommandResult> SshRemoteShell::converse(const QString &host, int port,
                                                std::shared_ptr<TunnelConversation> conversation,
                                                std::shared_ptr<std::atomic_bool> stop)
{
    auto promise = std::make_shared<QPromise<CommandResult>>();
    QFuture<CommandResult> future = promise->future();
    promise->start();
    post(Work{{}, {}, {}, {}, [this, promise, host, port, conversation = std::move(conversation), stop = std::move(stop)](SshSession &session) mutable {
                  CommandResult failure = ensureConnected(session);
                  SshSession::Stream *opened = failure.ran() ? session.openTunnel(host, port, &failure) : nullptr;
                  if (!opened && failure.failure == ErrorKind::ConnectFailed && session.isConnected()) {
                      // The host answered: it could not connect there (as `nc` exiting 1 would).
                      CommandResult refused;
                      refused.exitStatus = 1;
                      refused.stderrData = failure.transportError.toUtf8();
                      failure = refused;
                  }
                  if (!opened) {
                      finish(promise, failure);
                      return;
                  }
                  auto active = std::make_shared<ActiveTunnel>();
                  active->channel = opened;
                  active->conversation = std::move(conversation);
                  active->stop = stop ? std::move(stop) : std::make_shared<std::atomic_bool>(false);
                  active->promise = promise;
                  m_tunnels.push_back(std::move(active));
              }});
    return future;
}

bool SshRemoteShell::pumpTunnels(SshSession &session)
{
    bool progressed = false;
    for (auto it = m_tunnels.begin(); it != m_tunnels.end();) {
        ActiveTunnel &t = **it;
        TunnelConversation &conversation = *t.conversation;
        CommandResult failure;
        bool broken = false;
        if (!t.stop->load() && !conversation.isFinished()) {
            const QByteArray outgoing = conversation.takeOutgoing();
            if (!outgoing.isEmpty()) {
                broken = !session.writeTunnel(t.channel, outgoing, &failure);
                progressed = true;
            }
            QByteArray in;
            bool closed = false;
            if (!broken)
                broken = !session.pumpTunnel(t.channel, &in, &closed, &failure);
            if (!in.isEmpty()) {
                conversation.received(in);
                progressed = true;
            }
            if (closed)
                conversation.remoteClosed();
            // What the answer asked for (a TLS record) goes out in the same turn.
            const QByteArray reply = broken ? QByteArray() : conversation.takeOutgoing();
            if (!reply.isEmpty())
                broken = !session.writeTunnel(t.channel, reply, &failure);
        }
        if (!broken && !t.stop->load() && !conversation.isFinished()) {
            ++it;
            continue;
        }
        session.closeTunnel(t.channel);
        CommandResult result = broken ? failure : conversation.result();
        if (!broken && !conversation.isFinished()) { // stopped by its owner (a watch): not a failure
            result = CommandResult{};
            result.exitStatus = 0;
        }
        finish(t.promise, result);
        it = m_tunnels.erase(it);
        progressed = true;
    }
    return progressed;
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
        finish(s.promise, result);
        it = m_streams.erase(it);
        progressed = true;
    }
    return progressed;
}

void SshRemoteShell::trustFingerprint(const QString &fingerprint)
{
    post(Work{{}, {}, {}, {}, [this, fingerprint](SshSession &session) {
                  session.setTrustedFingerprint(fingerprint);
                  m_nextConnectAllowedMs = 0; // the person just answered: try at once
                  m_backoffSeconds = 0;
              }});
}

void SshRemoteShell::setPassphrase(const QString &passphrase)
{
    post(Work{{}, {}, {}, {}, [this, passphrase](SshSession &session) {
                  session.setPassphrase(passphrase);
                  m_nextConnectAllowedMs = 0;
                  m_backoffSeconds = 0;
              }});
}

CommandResult SshRemoteShell::ensureConnected(SshSession &session)
{
    if (session.isConnected())
        return {};
    // Connecting frees the old session and with it every channel: the commands still on it
    // lost their connection (one of them broke it), and may have run.
    for (Running &r : m_running) {
        r.command->abandon(QStringLiteral("the connection to %1 broke while the command ran").arg(m_options.describe()));
        finish(r.promise, r.command->result());
    }
    m_running.clear();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now < m_nextConnectAllowedMs) {
        CommandResult r = m_lastConnectFailure;
        r.transportError += QStringLiteral(" (next attempt in %1 s)").arg((m_nextConnectAllowedMs - now + 999) / 1000);
        return r;
    }
    CommandResult r = session.connect();
    m_channelLimit = kMaxChannels; // a new connection, perhaps to another host
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

bool SshRemoteShell::startCommand(SshSession &session, Work &work)
{
    CommandResult failure = ensureConnected(session);
    if (!failure.ran()) {
        finish(work.promise, failure);
        return true;
    }
    std::unique_ptr<SshChannelCommand> command = session.start(work.line, work.stdinData, &failure);
    if (!command && !failure.mayHaveRun && session.isConnected() && !m_running.empty()) {
        // The host allows fewer channels at once than kMaxChannels (sshd's MaxSessions): use
        // as many as it took, and let this command wait for one of them.
        m_channelLimit = int(m_running.size() + m_streams.size());
        qCDebug(lcSsh) << m_options.describe() << "allows" << m_channelLimit << "channels at once:" << failure.transportError;
        return false;
    }
    // A connection that died while idle shows up as a channel that cannot open: reconnect once.
    // Never when the command may have reached the host: a resent sbatch or drain could act twice
    // (the caller reads the cluster back instead).
    if (!command && failure.failure == ErrorKind::ConnectionLost && !failure.mayHaveRun && !session.isConnected()) {
        failure = ensureConnected(session);
        if (failure.ran())
            command = session.start(work.line, work.stdinData, &failure);
    }
    if (!command) {
        finish(work.promise, failure);
        return true;
    }
    m_running.push_back(Running{std::move(command), std::move(work.promise), work.logLine});
    std::lock_guard lock(m_mutex);
    m_mostChannels = qMax(m_mostChannels, int(m_running.size()));
    return true;
}

// Pumps every running command once; true when any read something or finished.
bool SshRemoteShell::pumpAll(SshSession &session)
{
    bool progressed = false;
    for (Running &r : m_running) {
        if (r.command->pump()) {
            if (r.command->brokeConnection())
                session.markBroken();
            qCDebug(lcSsh).noquote() << "took" << r.command->result().durationMs << "ms, exit"
                                     << r.command->result().exitStatus << "," << r.command->result().stdoutData.size()
                                     << "bytes:" << r.line.left(100);
            finish(r.promise, r.command->result());
            r.promise.reset();
            progressed = true;
        } else if (r.command->progressed()) {
            progressed = true;
        }
    }
    m_running.erase(std::remove_if(m_running.begin(), m_running.end(), [](const Running &r) { return !r.promise; }),
                    m_running.end());
    return progressed;
}

// Idle: only new work can wake the thread (the socket of an idle connection is not watched, so
// a host closing it cannot spin the loop; the next command finds it closed).
void SshRemoteShell::waitForWake() const
{
    pollfd wake{m_wakeFd, POLLIN, 0};
    ::poll(&wake, 1, -1);
}

void SshRemoteShell::workerLoop()
{
    SshSession session(m_options);
    std::deque<Work> waiting; // taken from the queue, in order
    while (true) {
        // The wake-up is cleared before the queue is looked at: work posted after this point
        // makes the eventfd readable again, so the wait below cannot miss it.
        quint64 drained = 0;
        [[maybe_unused]] const ssize_t n = ::read(m_wakeFd, &drained, sizeof drained);
        bool stopping = false;
        {
            std::lock_guard lock(m_mutex);
            stopping = m_stopping;
            while (!m_queue.empty()) {
                waiting.push_back(std::move(m_queue.front()));
                m_queue.pop_front();
            }
        }
        // Work is taken in order; a command waits for a free channel, and what follows it waits
        // with it (a trusted key or an upload after a command still applies after it).
        bool progressed = false;
        while (!waiting.empty()) {
            Work &work = waiting.front();
            if (work.action) {
                work.action(session);
            } else {
                // Open streams hold their channels as long as they run: commands get what is
                // left of the limit, and always one.
                const int commandChannels = std::max(1, m_channelLimit - int(m_streams.size()));
                if (int(m_running.size()) >= commandChannels || !startCommand(session, work))
                    break;
            }
            waiting.pop_front();
            progressed = true;
        }
        if (m_running.empty() && waiting.empty()) {
            if (stopping) {
                // Everything asked for before the destructor has its answer; streams end here.
                for (const auto &s : m_streams)
                    s->stop->store(true);
                for (const auto &t : m_tunnels)
                    t->stop->store(true);
                pumpStreams(session);
                pumpTunnels(session);
                return;
            }
            if (m_streams.empty() && m_tunnels.empty()) {
                waitForWake();
            } else {
                const bool streamed = pumpStreams(session);
                if (!pumpTunnels(session) && !streamed)
                    session.waitForActivity(m_wakeFd, 50);
            }
            continue;
        }
        const bool streamed = (!m_streams.empty() && pumpStreams(session)) | (!m_tunnels.empty() && pumpTunnels(session));
        if (pumpAll(session) || streamed || m_running.empty() || progressed)
            continue;
        qint64 wait = 50; // also bounds a wait on output libssh still has to flush
        for (const Running &r : m_running)
            wait = qMin(wait, r.command->msUntilDeadline() + 1);
        session.waitForActivity(m_wakeFd, int(wait));
    }
}

} // namespace strata
