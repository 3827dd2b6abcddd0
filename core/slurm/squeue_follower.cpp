#include "squeue_follower.h"

#include "squeue_parser.h"
#include "ssh/streaming_shell.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace strata {

namespace {

// $1: squeue's -O format up to the name's suffix; $2: seconds between listings. stderr joins
// stdout first, so whatever fails says so on the stream (od missing: its complaint comes before
// the empty marker, and SqueueIterationSplitter reports both). The marker is drawn here and
// printed first; squeue reads the format from its environment, which only its own user and root
// can read.
const QString kScript = QStringLiteral(
    "exec 2>&1\n"
    "m=\"<<strata:$(od -An -N8 -tx1 /dev/urandom | tr -d ' \\n')>>\"\n"
    "printf '%s\\n' \"$m\"\n"
    "unset SQUEUE_FORMAT\n"
    "SQUEUE_FORMAT2=\"$1$m\"; export SQUEUE_FORMAT2\n"
    "exec env TZ=UTC0 stdbuf -oL squeue -h -a -r --states=all --iterate=\"$2\"\n");

} // namespace

struct SqueueFollower::State
{
    std::mutex mutex;
    std::condition_variable changed;
    SqueueIterationSplitter splitter;
    std::optional<SqueueIteration> newest;
    int skipped = 0;
    int listings = 0;
    bool ended = false;
    bool discardArriving = false; // the listing arriving when discardOlderListings was called
    CommandResult endResult;
};

QStringList SqueueFollower::arguments(int intervalSeconds)
{
    return {QStringLiteral("sh"), QStringLiteral("-c"), kScript, QStringLiteral("strata-squeue"),
            SqueueParser::formatArgument({}), QString::number(intervalSeconds)};
}

SqueueFollower::SqueueFollower(StreamingShell &shell, int intervalSeconds)
    : m_state(std::make_shared<State>()), m_stop(std::make_shared<std::atomic_bool>(false)),
      m_intervalSeconds(qMax(1, intervalSeconds))
{
    const std::shared_ptr<State> state = m_state;
    const std::shared_ptr<std::atomic_bool> stop = m_stop;
    m_future = shell.stream(arguments(m_intervalSeconds), [state, stop](const QByteArray &chunk) {
        std::lock_guard lock(state->mutex);
        if (state->ended)
            return;
        QVector<SqueueIteration> listings = state->splitter.feed(chunk);
        for (SqueueIteration &listing : listings) {
            ++state->listings;
            if (std::exchange(state->discardArriving, false))
                continue;
            if (state->newest)
                ++state->skipped;
            state->newest = std::move(listing);
        }
        if (!listings.isEmpty())
            state->changed.notify_all();
        if (!state->splitter.error().isEmpty()) {
            state->ended = true;
            state->endResult.exitStatus = 1;
            state->endResult.stderrData = state->splitter.error().toUtf8();
            stop->store(true); // nothing more can be read from it: end it
            state->changed.notify_all();
        }
    }, stop);
    // Finishes on the shell's thread; a future cancelled (the shell went first) is seen by
    // takeNewest's polling instead.
    m_ended = m_future.then([state](const CommandResult &result) {
        std::lock_guard lock(state->mutex);
        if (!state->ended) {
            state->ended = true;
            state->endResult = result;
            if (result.ran() && result.stderrData.isEmpty())
                state->endResult.stderrData = state->splitter.unfinishedMessages();
            if (result.ok()) { // squeue --iterate never ends by itself
                state->endResult.exitStatus = 1;
                if (state->endResult.stderrData.trimmed().isEmpty())
                    state->endResult.stderrData = "squeue --iterate ended";
            }
        }
        state->changed.notify_all();
    });
}

SqueueFollower::~SqueueFollower()
{
    m_stop->store(true);
}

bool SqueueFollower::hasEnded() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->ended || m_future.isCanceled();
}

int SqueueFollower::listingsRead() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->listings;
}

void SqueueFollower::discardOlderListings()
{
    std::lock_guard lock(m_state->mutex);
    m_state->newest.reset();
    m_state->skipped = 0;
    m_state->discardArriving = !m_state->splitter.atListingStart();
}

SqueueFollower::Taken SqueueFollower::takeNewest(int timeoutMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    std::unique_lock lock(m_state->mutex);
    Taken taken;
    for (;;) {
        if (m_state->ended || m_future.isCanceled()) {
            taken.status = Taken::Status::Ended;
            taken.ended = m_state->ended ? m_state->endResult
                                         : CommandResult::transportFailure(ErrorKind::ConnectionLost,
                                                                           QStringLiteral("the SSH connection closed"));
            return taken;
        }
        if (m_state->newest) {
            taken.status = Taken::Status::Listing;
            taken.listing = std::move(*m_state->newest);
            m_state->newest.reset();
            taken.marker = m_state->splitter.marker();
            taken.skipped = std::exchange(m_state->skipped, 0);
            return taken;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline)
            return taken; // TimedOut
        // A slice at a time: a future cancelled without finishing notifies no one.
        m_state->changed.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(250)));
    }
}

} // namespace strata
