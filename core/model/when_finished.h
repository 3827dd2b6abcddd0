#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QUnhandledException>

#include <exception>

#include <type_traits>
#include <utility>

namespace strata {

// The text of what ended a future without a result: the exception its task threw (QtConcurrent
// keeps it; std::bad_alloc from a hostile count is one), else "cancelled". Call on a finished
// future only.
template <typename T>
QString futureFailure(QFuture<T> future) // by value: waitForFinished() is not const
{
    try {
        future.waitForFinished(); // throws what the task threw
    } catch (const QUnhandledException &e) {
        try {
            if (e.exception())
                std::rethrow_exception(e.exception());
        } catch (const std::exception &inner) {
            return QString::fromLocal8Bit(inner.what());
        } catch (...) {
        }
        return QStringLiteral("an exception Strata could not name");
    } catch (const std::exception &e) {
        return QString::fromLocal8Bit(e.what());
    } catch (...) {
        return QStringLiteral("an exception Strata could not name");
    }
    return QStringLiteral("cancelled");
}

// Calls handler(result) on context's thread once future finishes, and never once context is
// gone. Use it instead of QFuture::then(context, handler) for any future that finishes on
// another thread (a pool task, an SSH worker): in Qt 6.4 that continuation runs on the
// finishing thread, reads a QPointer to context there and posts an event to it; when context
// is destroyed between the read and the post, the event reaches freed memory and
// QCoreApplication::sendPostedEvents crashes (seen as a random SIGSEGV in tst_main_window under
// load). A QFutureWatcher child of context is disconnected from the future under the future's
// own mutex when it dies, and its pending events die with it, so this cannot happen here.
// A cancelled future, or one that finished without a result, calls nothing (like then());
// the overload with `failed` is told.
// Must be called on context's thread. Futures keep their one continuation slot free, so
// several callers can wait on the same future.
// With `failed`: failed(why) on context's thread when the future finished without a result:
// its task threw (why: futureFailure) or it was cancelled. A caller that waits for the result
// to go on (a refresh, a merge) passes it, or an exception inside a task leaves it waiting
// for ever.
template <typename T, typename Handler, typename Failed>
void whenFinished(const QFuture<T> &future, QObject *context, Handler &&handler, Failed &&failed)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, handler = std::forward<Handler>(handler), failed = std::forward<Failed>(failed)]() mutable {
                         watcher->deleteLater();
                         const QFuture<T> done = watcher->future();
                         if constexpr (std::is_void_v<T>) {
                             if (!done.isCanceled())
                                 handler();
                             else
                                 failed(futureFailure(done));
                         } else {
                             if (done.resultCount() > 0)
                                 handler(done.result());
                             else if (done.isCanceled())
                                 failed(futureFailure(done));
                         }
                     });
    watcher->setFuture(future);
}

template <typename T, typename Handler>
void whenFinished(const QFuture<T> &future, QObject *context, Handler &&handler)
{
    whenFinished(future, context, std::forward<Handler>(handler), [](const QString &) {});
}

} // namespace strata
