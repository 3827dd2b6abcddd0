#pragma once

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace strata {

// QtConcurrent::run(pool, function, args...) (the global pool when pool is null), for every
// task Strata starts. Under ThreadSanitizer it also makes the hand-off visible: Qt passes the
// task to its pool thread under a mutex inside libQt6Core, which TSan cannot see, so whatever
// the caller wrote before submitting (a snapshot it had just made, the arguments) read as a
// race in the task. Here the caller releases a token of the task's own just before submitting
// and the task acquires it before it runs: one edge per task, the one Qt's queue really makes.
// Without TSan it is QtConcurrent::run on a lambda that holds the function and its arguments.
template <typename Function, typename... Args>
[[nodiscard]] auto runOnPool(QThreadPool *pool, Function &&function, Args &&...args)
{
    auto call = [function = std::forward<Function>(function), ... args = std::forward<Args>(args)]() mutable {
        return std::invoke(std::move(function), std::move(args)...);
    };
    QThreadPool *target = pool ? pool : QThreadPool::globalInstance();
#if defined(__SANITIZE_THREAD__)
    auto *token = new char(0);
    __tsan_release(token);
    return QtConcurrent::run(target, [token, call = std::move(call)]() mutable {
        __tsan_acquire(token);
        delete token;
        return call();
    });
#else
    return QtConcurrent::run(target, std::move(call));
#endif
}

} // namespace strata
