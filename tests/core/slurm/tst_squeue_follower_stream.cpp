// SqueueFollower's own logic over a stream the test writes (ScriptedStream: a StreamingShell
// whose output comes from the test, in pieces, as the SSH thread would hand it on): the newest
// listing is taken and those it replaced counted; a listing read before an action never comes
// back after it (discardOlderListings, at a listing's boundary and halfway through one); the end
// of the stream and a stream that cannot be read are reported as ended, with why; no listing
// within the wait is a timeout; the follower ends its stream when it goes. The records are real
// squeue output (tests/data/slurm/marker/); tst_squeue_follower runs the real command.
#include "slurm/squeue_follower.h"
#include "ssh/streaming_shell.h"

#include <QElapsedTimer>
#include <QFile>
#include <QPromise>
#include <QTest>

using namespace strata;

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/marker/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

class ScriptedStream : public StreamingShell
{
public:
    QFuture<CommandResult> stream(const QStringList &argv, std::function<void(const QByteArray &)> onOutput,
                                  std::shared_ptr<std::atomic_bool> stop) override
    {
        m_argv = argv;
        m_onOutput = std::move(onOutput);
        m_stop = std::move(stop);
        m_promise.start();
        return m_promise.future();
    }
    void write(const QByteArray &chunk) { m_onOutput(chunk); }
    void end(const CommandResult &result)
    {
        m_promise.addResult(result);
        m_promise.finish();
    }
    bool stopAsked() const { return m_stop && m_stop->load(); }
    QStringList m_argv;

private:
    std::function<void(const QByteArray &)> m_onOutput;
    std::shared_ptr<std::atomic_bool> m_stop;
    QPromise<CommandResult> m_promise;
};

using Status = SqueueFollower::Taken::Status;

} // namespace

class TestSqueueFollowerStream : public QObject
{
    Q_OBJECT

private:
    const QByteArray m_marker = captured(QStringLiteral("marker.txt")).trimmed();
    const QByteArray m_main = captured(QStringLiteral("main_squeue_marker.txt"));
    const QByteArray m_hostile = captured(QStringLiteral("hostile_squeue_marker.txt"));
    const QByteArray m_gpus = captured(QStringLiteral("gpu_requests_squeue_marker.txt"));

private Q_SLOTS:
    void runsSqueueIterateWithTheFormatInItsEnvironment()
    {
        ScriptedStream shell;
        SqueueFollower follower(shell, 10);
        QCOMPARE(follower.intervalSeconds(), 10);
        QCOMPARE(shell.m_argv.size(), 6);
        QCOMPARE(shell.m_argv.mid(0, 2), QStringList({QStringLiteral("sh"), QStringLiteral("-c")}));
        const QString script = shell.m_argv[2];
        QVERIFY(script.contains(QLatin1String("SQUEUE_FORMAT2=\"$1$m\"; export SQUEUE_FORMAT2")));
        QVERIFY(script.contains(QLatin1String("stdbuf -oL squeue -h -a -r --states=all --iterate=\"$2\"")));
        QVERIFY(script.contains(QLatin1String("exec 2>&1")));
        // The format's fields end with the name's suffix, which the login node's marker completes.
        QVERIFY(shell.m_argv[4].endsWith(QLatin1String("Name:")));
        QCOMPARE(shell.m_argv[5], QStringLiteral("10"));
        QVERIFY(!shell.stopAsked());
    }

    void takesTheNewestListing()
    {
        ScriptedStream shell;
        SqueueFollower follower(shell, 1);
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(int(follower.takeNewest(300).status), int(Status::TimedOut));
        QVERIFY(clock.elapsed() >= 300);
        shell.write(m_marker + '\n' + m_main + '\n' + m_hostile.left(100));
        shell.write(m_hostile.mid(100) + '\n');
        QCOMPARE(follower.listingsRead(), 2);
        SqueueFollower::Taken taken = follower.takeNewest(0);
        QCOMPARE(int(taken.status), int(Status::Listing));
        QCOMPARE(taken.listing.records, m_hostile);
        QCOMPARE(taken.marker, m_marker);
        QCOMPARE(taken.skipped, 1);
        // Taken once: the next take waits for a new one.
        QCOMPARE(int(follower.takeNewest(50).status), int(Status::TimedOut));
        shell.write(m_gpus + '\n');
        taken = follower.takeNewest(0);
        QCOMPARE(taken.listing.records, m_gpus);
        QCOMPARE(taken.skipped, 0);
        QVERIFY(!follower.hasEnded());
    }

    void aListingFromBeforeAnActionIsNeverTakenAfterIt()
    {
        ScriptedStream shell;
        SqueueFollower follower(shell, 1);
        // At a boundary: the listing not taken is dropped, the next one is taken.
        shell.write(m_marker + '\n' + m_main + '\n');
        follower.discardOlderListings();
        QCOMPARE(int(follower.takeNewest(50).status), int(Status::TimedOut));
        shell.write(m_hostile + '\n');
        QCOMPARE(follower.takeNewest(0).listing.records, m_hostile);
        // Halfway through one: that one was read (by squeue) before the action, so it goes too.
        shell.write(m_main.left(m_main.size() / 2));
        follower.discardOlderListings();
        shell.write(m_main.mid(m_main.size() / 2) + '\n');
        QCOMPARE(int(follower.takeNewest(50).status), int(Status::TimedOut));
        shell.write(m_gpus + '\n');
        QCOMPARE(follower.takeNewest(0).listing.records, m_gpus);
        QCOMPARE(follower.listingsRead(), 4);
    }

    void anErrorInPlaceOfAListingIsAListingOfMessages()
    {
        ScriptedStream shell;
        SqueueFollower follower(shell, 1);
        shell.write(m_marker + "\nslurm_load_jobs error: Unable to contact slurm controller (connect failure)\n\n");
        const SqueueFollower::Taken taken = follower.takeNewest(0);
        QCOMPARE(int(taken.status), int(Status::Listing));
        QVERIFY(taken.listing.records.isEmpty());
        QCOMPARE(taken.listing.messages, QByteArray("slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n"));
        QVERIFY(!follower.hasEnded()); // squeue tries again at its next interval
    }

    void endedStreamsSayWhy()
    {
        {
            // The connection went: the transport's failure, even with a listing not taken.
            ScriptedStream shell;
            SqueueFollower follower(shell, 1);
            shell.write(m_marker + '\n' + m_main + '\n');
            shell.end(CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("connection lost")));
            QVERIFY(follower.hasEnded());
            const SqueueFollower::Taken taken = follower.takeNewest(1000);
            QCOMPARE(int(taken.status), int(Status::Ended));
            QCOMPARE(taken.ended.failure, ErrorKind::ConnectionLost);
        }
        {
            // stdbuf missing: what it said last, with its exit status.
            ScriptedStream shell;
            SqueueFollower follower(shell, 1);
            shell.write(m_marker + "\nenv: 'stdbuf': No such file or directory\n");
            CommandResult exited;
            exited.exitStatus = 127;
            shell.end(exited);
            const SqueueFollower::Taken taken = follower.takeNewest(1000);
            QCOMPARE(int(taken.status), int(Status::Ended));
            QCOMPARE(taken.ended.exitStatus, 127);
            QCOMPARE(taken.ended.stderrData, QByteArray("env: 'stdbuf': No such file or directory\n"));
            QCOMPARE(taken.ended.errorKind(), ErrorKind::CommandFailed);
        }
        {
            // squeue --iterate never ends by itself: an exit status 0 is still an end to report.
            ScriptedStream shell;
            SqueueFollower follower(shell, 1);
            shell.write(m_marker + '\n');
            CommandResult exited;
            exited.exitStatus = 0;
            shell.end(exited);
            const SqueueFollower::Taken taken = follower.takeNewest(1000);
            QCOMPARE(int(taken.status), int(Status::Ended));
            QVERIFY(!taken.ended.ok());
            QCOMPARE(taken.ended.stderrData, QByteArray("squeue --iterate ended"));
        }
        {
            // Its first line is not a marker: ended at once, and the stream is asked to stop.
            ScriptedStream shell;
            SqueueFollower follower(shell, 1);
            shell.write("sh: 1: od: not found\n<<strata:>>\n");
            QVERIFY(shell.stopAsked());
            const SqueueFollower::Taken taken = follower.takeNewest(1000);
            QCOMPARE(int(taken.status), int(Status::Ended));
            QVERIFY(taken.ended.stderrData.contains("od: not found"));
            QVERIFY(!taken.ended.ok());
            shell.end(CommandResult{}); // the shell's own end afterwards changes nothing
            QVERIFY(follower.takeNewest(0).ended.stderrData.contains("od: not found"));
        }
    }

    void endsItsStreamWhenItGoes()
    {
        ScriptedStream shell;
        {
            SqueueFollower follower(shell, 1);
            shell.write(m_marker + '\n');
            QVERIFY(!shell.stopAsked());
        }
        QVERIFY(shell.stopAsked());
        shell.write(m_main + '\n'); // output still on its way is taken by no one, harmlessly
    }
};

QTEST_GUILESS_MAIN(TestSqueueFollowerStream)
#include "tst_squeue_follower_stream.moc"
