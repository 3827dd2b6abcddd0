#pragma once

#include "port_forwarding_shell.h"
#include "remote_shell.h"
#include "shell_quote.h"
#include "ssh_options.h"
#include "streaming_shell.h"

#include <QPromise>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace strata {

class SshChannelCommand;
class SshSession;

// RemoteShell over one SSH connection. Owns one I/O thread that owns the libssh session (libssh
// sessions and their channels are used by one thread only): calls queue work and return at
// once. The thread runs up to kMaxChannels commands at the same time, each on its own channel
// of the one session, pumping them without blocking and sleeping in poll() on the connection's
// socket and a wake-up eventfd between pumps; so independent reads (Slurm's node list, job list
// and partitions) overlap instead of queueing. Uploads (SFTP) and the person's answers run in
// between, in order. Connects lazily on first use and reconnects after a drop, with exponential
// backoff between failed connects (1 s doubling to 30 s): inside the backoff window calls fail
// fast with the last error instead of hammering a dead host.
//
// Streams (StreamingShell) share the connection and count against kMaxChannels while they run
// (commands keep at least one channel): each turn of the thread also reads every open stream's
// channel without blocking; while streams are open and nothing else runs, the thread
// waits at most 50 ms for the connection or new work. Tunnels (PortForwardingShell: direct-tcpip
// channels to a service the host reaches, the Kubernetes API server) are pumped the same way;
// they do not count against the limit (sshd's MaxSessions counts sessions only).
class SshRemoteShell : public RemoteShell, public StreamingShell, public PortForwardingShell
{
public:
    // OpenSSH's sshd allows 10 sessions per connection by default (MaxSessions).
    static constexpr int kMaxChannels = 8;

    explicit SshRemoteShell(const SshOptions &options);
    ~SshRemoteShell() override;

    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override;
    QFuture<CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) override;
    QFuture<CommandResult> stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                  std::shared_ptr<std::atomic_bool> stop) override;
    QFuture<CommandResult> converse(const QString &host, int port, std::shared_ptr<TunnelConversation> conversation,
                                    std::shared_ptr<std::atomic_bool> stop) override;
    QString describe() const override { return m_options.describe(); }

    void trustFingerprint(const QString &fingerprint) override;
    void setPassphrase(const QString &passphrase) override;
    // The command line that run() sends for argv, with the remote environment, or why it
    // refuses to send one (for logs, tests).
    ShellQuote::CommandLine commandLine(const QStringList &argv) const;
    // The most commands that ran at the same time so far (for tests).
    int mostChannelsAtOnce() const;

private:
    // A command waiting for a channel (line set), or other work run in turn (action set).
    struct Work
    {
        QString line;
        QString logLine; // line without the environment's values
        QByteArray stdinData;
        std::shared_ptr<QPromise<CommandResult>> promise;
        std::function<void(SshSession &)> action;
    };
    struct ActiveStream;
    struct ActiveTunnel;
    struct Running
    {
        std::unique_ptr<SshChannelCommand> command;
        std::shared_ptr<QPromise<CommandResult>> promise;
        QString line; // for the debug log of how long each command took (no environment values)
    };
    void post(Work work);
    void wake();
    void workerLoop();
    // False when the host refused one more channel while others run: the work waits for one.
    bool startCommand(SshSession &session, Work &work);
    bool pumpAll(SshSession &session);
    // Reads every open stream once; true when any had output or ended.
    bool pumpStreams(SshSession &session);
    // Moves every open tunnel's bytes once; true when any moved something or finished.
    bool pumpTunnels(SshSession &session);
    CommandResult ensureConnected(SshSession &session);
    void waitForWake() const;

    const SshOptions m_options;
    mutable std::mutex m_mutex;
    std::deque<Work> m_queue;
    bool m_stopping = false;
    int m_wakeFd = -1;
    int m_mostChannels = 0; // under m_mutex
    std::thread m_worker;

    // Touched by the worker thread only.
    std::vector<Running> m_running;
    std::vector<std::shared_ptr<ActiveStream>> m_streams;
    std::vector<std::shared_ptr<ActiveTunnel>> m_tunnels;
    // kMaxChannels, or fewer once the host refused a channel (MaxSessions set lower); per connection.
    int m_channelLimit = kMaxChannels;
    qint64 m_nextConnectAllowedMs = 0;
    int m_backoffSeconds = 0;
    CommandResult m_lastConnectFailure;
};

} // namespace strata
