#pragma once

#include "remote_shell.h"
#include "ssh_options.h"
#include "streaming_shell.h"

#include <QPromise>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace strata {

class SshSession;

// RemoteShell over one SSH connection. Owns a worker thread that owns the libssh session:
// calls queue work and return at once; the worker runs it in order and finishes the futures.
// Connects lazily on first use and reconnects after a drop, with exponential backoff between
// failed connects (1 s doubling to 30 s): inside the backoff window calls fail fast with the
// last error instead of hammering a dead host.
//
// Streams (StreamingShell) share the connection: between queued commands the worker reads
// every open stream's channel without blocking, and waits at most 50 ms for new work while
// streams are open.
class SshRemoteShell : public RemoteShell, public StreamingShell
{
public:
    explicit SshRemoteShell(const SshOptions &options);
    ~SshRemoteShell() override;

    QFuture<CommandResult> run(const QStringList &argv, const QByteArray &stdinData = {}) override;
    QFuture<CommandResult> upload(const QString &remotePath, const QByteArray &data, int mode) override;
    QFuture<CommandResult> stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                  std::shared_ptr<std::atomic_bool> stop) override;
    QString describe() const override { return m_options.describe(); }

    void trustFingerprint(const QString &fingerprint) override;
    void setPassphrase(const QString &passphrase) override;
    // The command line that run() sends for argv, with the remote environment (for logs, tests).
    QString commandLine(const QStringList &argv) const;

private:
    using Work = std::function<void(SshSession &)>;
    struct ActiveStream;
    void post(Work work);
    void workerLoop();
    // Reads every open stream once; true when any had output.
    bool pumpStreams(SshSession &session);
    CommandResult ensureConnected(SshSession &session);

    const SshOptions m_options;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Work> m_queue;
    bool m_stopping = false;
    std::thread m_worker;

    // Touched by the worker thread only.
    std::vector<std::shared_ptr<ActiveStream>> m_streams;
    qint64 m_nextConnectAllowedMs = 0;
    int m_backoffSeconds = 0;
    CommandResult m_lastConnectFailure;
};

} // namespace strata
