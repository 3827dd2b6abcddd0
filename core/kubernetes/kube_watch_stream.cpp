#include "kube_watch_stream.h"

#include "kube_api_client.h"

#include <mutex>

namespace strata {

using namespace Qt::StringLiterals;

// What the stream hands over, from the shell's thread to the owner.
struct KubeWatchStream::State
{
    std::mutex mutex;
    QByteArray partial;   // the start of a line not complete yet
    QByteArrayList lines; // complete lines not taken yet
    bool ended = false;
    CommandResult endResult;
    QString overflow; // set when a line passed kMaxLineBytes: how the watch ended, whatever it said
};

KubeWatchStream::KubeWatchStream(KubeApiClient &api, const QString &uri, std::shared_ptr<std::atomic_bool> changed)
    : m_state(std::make_shared<State>()), m_stop(std::make_shared<std::atomic_bool>(false))
{
    const std::shared_ptr<State> state = m_state;
    m_future = api.watch(
        uri,
        [state, changed = std::move(changed), stop = m_stop](const QByteArray &chunk) {
            std::lock_guard lock(state->mutex);
            if (!state->overflow.isEmpty())
                return; // stopping: the rest is not read
            state->partial.append(chunk);
            qsizetype start = 0;
            for (qsizetype newline = state->partial.indexOf('\n'); newline >= 0;
                 newline = state->partial.indexOf('\n', start)) {
                if (newline > start) {
                    state->lines.append(state->partial.mid(start, newline - start));
                    // {"type":"BOOKMARK",...} (any spacing) only moves the version on.
                    if (changed && !state->lines.last().left(32).contains("BOOKMARK"))
                        changed->store(true);
                }
                start = newline + 1;
            }
            state->partial.remove(0, start);
            if (state->partial.size() > kMaxLineBytes) {
                state->overflow = u"the watch sent a line longer than %1 MiB without its end; Strata stopped it"_s.arg(
                    kMaxLineBytes / (1024 * 1024));
                state->partial = {};
                stop->store(true);
            }
        },
        m_stop);
    // Finishes on the shell's thread; a future cancelled (the shell went first) is seen by take().
    m_ended = m_future.then([state](const CommandResult &result) {
        std::lock_guard lock(state->mutex);
        state->ended = true;
        state->endResult = result;
        if (!state->overflow.isEmpty()) { // stopped here: a failure, whatever the stop made of it
            state->endResult = CommandResult{};
            state->endResult.exitStatus = 1;
            state->endResult.stderrData = state->overflow.toUtf8();
        }
        if (!state->partial.trimmed().isEmpty()) // a last event without its newline
            state->lines.append(std::exchange(state->partial, {}));
    });
    m_clock.start();
}

KubeWatchStream::~KubeWatchStream()
{
    m_stop->store(true);
}

KubeWatchStream::Arrived KubeWatchStream::take()
{
    Arrived out;
    std::lock_guard lock(m_state->mutex);
    out.lines.swap(m_state->lines);
    out.ended = m_state->ended || m_future.isCanceled();
    out.endResult = m_state->ended
        ? m_state->endResult
        : CommandResult::transportFailure(ErrorKind::ConnectionLost, u"the SSH connection closed"_s);
    return out;
}

} // namespace strata
