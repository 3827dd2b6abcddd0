#pragma once

#include "ssh/login_prompter.h"

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

namespace strata {

// Hands a login question from the SSH worker thread to whoever shows it (ClusterSession's
// loginQuestion signal, answered in the window by a dialog) and blocks that worker, never the
// GUI thread, until respond() or close(). Until setAnswering(true) nobody is listening and every
// question is answered "nobody to ask" at once (ErrorKind::LoginPromptUnavailable), so a session
// nobody watches never waits. A question left open for kMaxWaitSeconds is declined (sshd's
// LoginGraceTime has ended the login by then anyway). Any thread.
class QueuedLoginPrompter : public LoginPrompter
{
public:
    static constexpr int kMaxWaitSeconds = 300;
    // Called with the lock held, on the worker thread: it must only post (a queued invoke).
    // Owned by whoever shows the questions (ClusterSession); shared with its SSH shell.
    using Notify = std::function<void(int id, const LoginChallenge &challenge)>;

    // Where questions go; until set (or while answering is off) nobody is asked.
    void setNotify(Notify notify);

    LoginAnswers answer(const LoginChallenge &challenge) override;
    void setAnswering(bool answering);
    // The answer to question id (ignored when that question is no longer open).
    void respond(int id, const LoginAnswers &answers);
    // Declines every open question and all later ones.
    void close();

private:
    Notify m_notify;
    std::mutex m_mutex;
    std::condition_variable m_answered;
    bool m_answering = false;
    bool m_closed = false;
    int m_nextId = 1;
    std::map<int, std::optional<LoginAnswers>> m_open;
};

} // namespace strata
