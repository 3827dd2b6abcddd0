// whenFinished(): the handler runs on the context's thread with the result, and never after the
// context is gone, however close the future's end and the context's destruction come.
// contextDestroyedAsTheFutureFinishes is the reproduction of the random SIGSEGV in
// QCoreApplicationPrivate::sendPostedEvents (tst_main_window, parallel ctest): with Qt 6.4's
// QFuture::then(context, ...) in place of whenFinished, 3 runs in 5 died here with SIGSEGV in
// sendPostedEvents -> notify_helper (an event posted to a freed context), as in CI.

#include "cpu_hog.h"
#include "model/when_finished.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <vector>

using namespace strata;

namespace {

struct Probe : QObject
{
    int touched = -1;
};

} // namespace

class TestWhenFinished : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handlerGetsTheResultOnTheContextThread()
    {
        QObject context;
        int value = 0;
        QThread *calledOn = nullptr;
        whenFinished(QtConcurrent::run([] {
                         QThread::msleep(20);
                         return 42;
                     }),
                     &context, [&](int v) {
                         value = v;
                         calledOn = QThread::currentThread();
                     });
        QTRY_COMPARE(value, 42);
        QCOMPARE(calledOn, context.thread());
    }

    void aFinishedFutureStillCallsBack()
    {
        QObject context;
        QString got;
        whenFinished(QtFuture::makeReadyFuture(QStringLiteral("ready")), &context,
                     [&](const QString &v) { got = v; });
        QCOMPARE(got, QString()); // never inside the call: always from the event loop
        QTRY_COMPARE(got, QStringLiteral("ready"));
    }

    void severalWaitersOnOneFuture()
    {
        // then() holds one continuation per future (a second replaces the first); watchers do not.
        QObject context;
        QPromise<int> promise;
        promise.start();
        const QFuture<int> future = promise.future();
        int first = 0, second = 0;
        whenFinished(future, &context, [&](int v) { first = v; });
        whenFinished(future, &context, [&](int v) { second = v; });
        promise.addResult(7);
        promise.finish();
        QTRY_COMPARE(first, 7);
        QTRY_COMPARE(second, 7);
    }

    void aCancelledFutureCallsNothing()
    {
        QObject context;
        int calls = 0;
        QFuture<int> future;
        {
            QPromise<int> promise;
            promise.start();
            future = promise.future();
            whenFinished(future, &context, [&](int) { ++calls; });
        } // dropped unfinished: cancelled, no result
        QVERIFY(future.isCanceled());
        QTest::qWait(50);
        QCOMPARE(calls, 0);
        QTRY_VERIFY(context.findChildren<QFutureWatcherBase *>().isEmpty()); // the watcher went too
    }

    void contextDestroyedAsTheFutureFinishes_data()
    {
        QTest::addColumn<int>("rounds");
        QTest::addColumn<bool>("loaded");
        QTest::newRow("idle") << 2000 << false;
        QTest::newRow("all cores busy") << 2000 << true;
    }

    void contextDestroyedAsTheFutureFinishes()
    {
        QFETCH(int, rounds);
        QFETCH(bool, loaded);
        const std::unique_ptr<CpuHog> hog(loaded ? new CpuHog : nullptr);
        std::vector<char> destroyed(size_t(rounds), 0);
        int calls = 0;
        int callsAfterDestruction = 0;
        QVector<QFuture<int>> futures;
        for (int round = 0; round < rounds; ++round) {
            auto *context = new Probe;
            QSemaphore almostDone;
            QFuture<int> future = QtConcurrent::run([&almostDone, round] {
                almostDone.release();
                // A few hundred ns to a few us: the future finishes right as the context dies.
                volatile int spin = 0;
                for (int i = 0; i < (round % 64) * 16; ++i)
                    spin = spin + i;
                return round;
            });
            whenFinished(future, context, [&, context, round](int) {
                ++calls;
                if (destroyed[size_t(round)])
                    ++callsAfterDestruction;
                else
                    context->touched = round; // freed memory here would be an ASan report
            });
            almostDone.acquire();
            delete context;
            destroyed[size_t(round)] = 1;
            futures << future;
            if (round % 50 == 0)
                QCoreApplication::processEvents(); // deliver what was posted to live objects
        }
        for (QFuture<int> &f : futures)
            f.waitForFinished();
        // Anything posted to a freed context would be delivered (and crash) here.
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents();
        QTest::qWait(20);
        QCOMPARE(callsAfterDestruction, 0);
        QCOMPARE(calls, 0); // every context died before its thread's event loop turned
    }
};

QTEST_GUILESS_MAIN(TestWhenFinished)
#include "tst_when_finished.moc"
