#include "queued_login_prompter.h"

#include <chrono>

namespace strata {

void QueuedLoginPrompter::setNotify(Notify notify)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_notify = std::move(notify);
}

LoginAnswers QueuedLoginPrompter::answer(const LoginChallenge &challenge)
{
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_closed)
        return LoginAnswers::refused(QStringLiteral("the session was closed"));
    if (!m_answering || !m_notify)
        return LoginAnswers::unavailable(QStringLiteral("no window is open to ask in"));
    const int id = m_nextId++;
    m_open[id];
    m_notify(id, challenge);
    const bool done = m_answered.wait_for(lock, std::chrono::seconds(kMaxWaitSeconds),
                                          [&] { return m_closed || m_open[id].has_value(); });
    std::optional<LoginAnswers> given = m_open[id];
    m_open.erase(id);
    if (given)
        return *given;
    return LoginAnswers::refused(done ? QStringLiteral("the session was closed")
                                      : QStringLiteral("no answer within %1 s").arg(kMaxWaitSeconds));
}

void QueuedLoginPrompter::setAnswering(bool answering)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_answering = answering;
}

void QueuedLoginPrompter::respond(int id, const LoginAnswers &answers)
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        const auto it = m_open.find(id);
        if (it == m_open.end())
            return;
        it->second = answers;
    }
    m_answered.notify_all();
}

void QueuedLoginPrompter::close()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_closed = true;
    }
    m_answered.notify_all();
}

} // namespace strata
