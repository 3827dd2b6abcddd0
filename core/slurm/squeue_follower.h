#pragma once

#include "squeue_iteration_splitter.h"
#include "ssh/command_result.h"

#include <QByteArray>
#include <QFuture>
#include <QStringList>

#include <atomic>
#include <memory>

namespace strata {

class StreamingShell;

// One `squeue --iterate=N` kept running on the login node, as an open window polls: squeue
// then asks slurmctld for the job list with the time of its last answer, and the controller
// answers "no change" without packing 50,000 jobs again until a job changes (what sview does
// for its pages; a fresh squeue each refresh costs the controller the whole list each time).
// The record marker is drawn on the login node and handed to squeue in its environment
// (SQUEUE_FORMAT2), never on a command line where another user could read it (ps) and put it in
// a job name; stdbuf -oL lets each listing through as squeue prints it, not when a pipe buffer
// fills; stderr joins stdout so an error arrives where its listing would have.
// The stream runs on the shell's thread; takeNewest() may be called from any one thread.
class SqueueFollower
{
public:
    SqueueFollower(StreamingShell &shell, int intervalSeconds);
    ~SqueueFollower(); // stops the stream: its channel closes and the login node ends squeue

    int intervalSeconds() const { return m_intervalSeconds; }
    // The stream has ended (connection lost, squeue gone) or cannot be read on.
    bool hasEnded() const;
    // Listings read so far (taken or not).
    int listingsRead() const;

    struct Taken
    {
        enum class Status { Listing, Ended, TimedOut };
        Status status = Status::TimedOut;
        SqueueIteration listing; // Listing: the newest complete one not taken before
        QByteArray marker;       // Listing: its record marker
        CommandResult ended;     // Ended: how the stream ended (a failure, or squeue's exit)
        int skipped = 0;         // Listing: newer listings arrived since the last take but this one
    };
    // The newest listing not taken yet, waiting up to timeoutMs for one; Ended once the stream
    // has ended or could not be read on (then `ended` says why), even with a listing pending.
    Taken takeNewest(int timeoutMs);
    // Drops the listing not taken yet and the one arriving now: the next taken starts arriving
    // after this call. After an action, so no listing read before it shows the old state.
    void discardOlderListings();

    // The command the login node runs: sh -c SCRIPT with the -O format up to the name's
    // suffix and the interval as its arguments.
    static QStringList arguments(int intervalSeconds);

private:
    struct State;
    std::shared_ptr<State> m_state;
    std::shared_ptr<std::atomic_bool> m_stop;
    QFuture<CommandResult> m_future;
    QFuture<void> m_ended; // the continuation that records the end
    int m_intervalSeconds = 0;
};

} // namespace strata
