#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

#include <type_traits>
#include <utility>

namespace strata {

// Calls handler(result) on context's thread once future finishes, and never once context is
// gone. Use it instead of QFuture::then(context, handler) for any future that finishes on
// another thread (a pool task, an SSH worker): in Qt 6.4 that continuation runs on the
// finishing thread, reads a QPointer to context there and posts an event to it; when context
// is destroyed between the read and the post, the event reaches freed memory and
// QCoreApplication::sendPostedEvents crashes (seen as a random SIGSEGV in tst_main_window under
// load). A QFutureWatcher child of context is disconnected from the future under the future's
// own mutex when it dies, and its pending events die with it, so this cannot happen here.
// A cancelled future, or one that finished without a result, calls nothing (like then()).
// Must be called on context's thread. Futures keep their one continuation slot free, so
// several callers can wait on the same future.
template <typename T, typename Handler>
void whenFinished(const QFuture<T> &future, QObject *context, Handler &&handler)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, handler = std::forward<Handler>(handler)]() mutable {
                         watcher->deleteLater();
                         const QFuture<T> done = watcher->future();
                         if constexpr (std::is_void_v<T>) {
                             if (!done.isCanceled())
                                 handler();
                         } else {
                             if (done.resultCount() > 0)
                                 handler(done.result());
                         }
                     });
    watcher->setFuture(future);
}

} // namespace strata
