#include "kube_log_follower.h"

#include "model/when_finished.h"
#include "ssh/remote_shell.h"
#include "ssh/streaming_shell.h"

#include <QLocale>

#include <mutex>

namespace strata {

// Filled on the shell's worker thread, emptied on the GUI thread.
struct KubeLogFollower::Buffer
{
    std::mutex mutex;
    QByteArray pending;
    qint64 received = 0;
    qint64 dropped = 0;
};

KubeLogFollower::KubeLogFollower(std::shared_ptr<RemoteShell> shell, const QStringList &argv, const QString &label,
                                 qint64 capBytes, QObject *parent)
    : OutputFollower(parent), m_shell(std::move(shell)), m_argv(argv), m_label(label),
      m_cap(qMax<qint64>(1024, capBytes))
{
    m_timer.setInterval(200);
    connect(&m_timer, &QTimer::timeout, this, &KubeLogFollower::drain);
}

KubeLogFollower::~KubeLogFollower()
{
    stop();
}

void KubeLogFollower::start()
{
    if (m_started || !m_shell)
        return;
    m_started = true;
    m_buffer = std::make_shared<Buffer>();
    m_stop = std::make_shared<std::atomic_bool>(false);
    const qint64 cap = m_cap;
    auto onOutput = [buffer = m_buffer, cap](const QByteArray &chunk) {
        std::lock_guard lock(buffer->mutex);
        buffer->received += chunk.size();
        buffer->pending += chunk;
        if (buffer->pending.size() > cap) {
            const qint64 over = buffer->pending.size() - cap;
            // Keep whole lines: drop up to the first newline after the cut.
            const qsizetype newline = buffer->pending.indexOf('\n', over - 1);
            const qint64 cut = newline >= 0 ? newline + 1 : over;
            buffer->dropped += cut;
            buffer->pending.remove(0, cut);
        }
    };
    // A shell that cannot stream (a test's local runner) hands the whole log on at the end.
    auto *streaming = dynamic_cast<StreamingShell *>(m_shell.get());
    QFuture<CommandResult> future;
    if (streaming) {
        future = streaming->stream(m_argv, std::move(onOutput), m_stop);
    } else {
        future = m_shell->run(m_argv).then([onOutput](CommandResult r) {
            if (!r.stdoutData.isEmpty())
                onOutput(r.stdoutData);
            r.stdoutData.clear();
            return r;
        });
    }
    whenFinished(future, this, [this](const CommandResult &r) {
        drain();
        m_timer.stop();
        m_ended = true;
        if (!r.ok() && !(m_stop && m_stop->load())) {
            QString why = QString::fromUtf8(r.stderrData).trimmed();
            if (why.isEmpty())
                why = r.errorText().trimmed();
            Q_EMIT failed(why.isEmpty() ? tr("kubectl logs ended with status %1").arg(r.exitStatus) : why);
            return;
        }
        Q_EMIT progressed();
    });
    m_timer.start();
}

void KubeLogFollower::stop()
{
    m_timer.stop();
    if (m_stop)
        m_stop->store(true);
}

void KubeLogFollower::drain()
{
    if (!m_buffer)
        return;
    QByteArray chunk;
    {
        std::lock_guard lock(m_buffer->mutex);
        chunk.swap(m_buffer->pending);
        m_received = m_buffer->received;
        m_dropped = m_buffer->dropped;
    }
    if (chunk.isEmpty())
        return;
    Q_EMIT appended(m_decoder.decode(chunk));
}

QString KubeLogFollower::progress() const
{
    const QLocale locale;
    QString text = m_received == 0 && !m_ended ? tr("waiting for the log…")
                                               : locale.formattedDataSize(m_received);
    if (m_dropped > 0)
        text += tr(" (%1 left out: more than %2 at once)").arg(locale.formattedDataSize(m_dropped), locale.formattedDataSize(m_cap));
    text += m_ended ? tr(" \u2014 ended") : tr(" \u2014 following");
    return text;
}

} // namespace strata
