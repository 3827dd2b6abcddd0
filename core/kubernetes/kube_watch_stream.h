#pragma once

#include "ssh/command_result.h"

#include <QByteArrayList>
#include <QElapsedTimer>
#include <QFuture>
#include <QString>

#include <atomic>
#include <memory>

namespace strata {

class KubeApiClient;

// One watch of the API (KubeApiClient::watch: an HTTPS answer through a tunnel, or `kubectl get
// --raw '...?watch=1...'`) kept running on its own channel: its output arrives on the shell's
// thread and is cut into lines that wait here, with how it ended, until the owner takes them
// (KubeInformer, at its next sync). Destroying it ends the watch (its channel closes).
class KubeWatchStream
{
public:
    // One watch event (one line: an object of at most ~1.5 MiB, etcd's request limit, in its
    // envelope) at most this; a line that grows past it without its newline ends the watch as a
    // failure (the owner lists again), so a server that never ends a line cannot fill memory.
    static constexpr qsizetype kMaxLineBytes = qsizetype(16) * 1024 * 1024;

    // changed (may be null) is set when an event other than a bookmark arrives.
    KubeWatchStream(KubeApiClient &api, const QString &uri, std::shared_ptr<std::atomic_bool> changed = nullptr);
    ~KubeWatchStream();
    KubeWatchStream(const KubeWatchStream &) = delete;
    KubeWatchStream &operator=(const KubeWatchStream &) = delete;

    struct Arrived
    {
        QByteArrayList lines; // complete lines, oldest first (a last one without newline once ended)
        bool ended = false;   // the command ended (or the shell went away: endResult says so)
        CommandResult endResult;
    };
    // What arrived since the last call. Any one thread at a time.
    Arrived take();
    qint64 ageMs() const { return m_clock.elapsed(); }

private:
    struct State;
    std::shared_ptr<State> m_state;
    std::shared_ptr<std::atomic_bool> m_stop;
    QFuture<CommandResult> m_future;
    QFuture<void> m_ended; // the continuation that records how it ended
    QElapsedTimer m_clock;
};

} // namespace strata
