#pragma once

#include "model/output_follower.h"

#include <QStringDecoder>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <memory>

namespace strata {

class RemoteShell;

// Follows a Kubernetes pod's (or a Job's pods') log with `kubectl logs -f` streamed over the
// Kubernetes source's shell (made by KubernetesSource::followOutput; StreamingShell::stream: on
// the SSH connection's worker, between the refreshes' commands). The chunks land in a buffer shared with that worker, capped at capBytes (older
// bytes are dropped and counted), and are handed on from the GUI thread every 200 ms, so a
// chatty pod costs the window one append per tick. Stopped when destroyed (kubectl gets
// SIGTERM). GUI thread.
class KubeLogFollower : public OutputFollower
{
    Q_OBJECT
public:
    // argv: the whole kubectl command (KubectlCommands::followLogs); label: what it follows.
    KubeLogFollower(std::shared_ptr<RemoteShell> shell, const QStringList &argv, const QString &label,
                    qint64 capBytes = 256 * 1024, QObject *parent = nullptr);
    ~KubeLogFollower() override;

    void start() override;
    void stop() override;
    QString label() const override { return m_label; }
    QString progress() const override;

    qint64 received() const { return m_received; }
    qint64 dropped() const { return m_dropped; }
    bool ended() const { return m_ended; }

private:
    struct Buffer;
    void drain();

    std::shared_ptr<RemoteShell> m_shell;
    QStringList m_argv;
    QString m_label;
    qint64 m_cap;
    std::shared_ptr<Buffer> m_buffer;
    std::shared_ptr<std::atomic_bool> m_stop;
    QStringDecoder m_decoder{QStringDecoder::Utf8};
    QTimer m_timer;
    qint64 m_received = 0;
    qint64 m_dropped = 0;
    bool m_started = false;
    bool m_ended = false;
};

} // namespace strata
