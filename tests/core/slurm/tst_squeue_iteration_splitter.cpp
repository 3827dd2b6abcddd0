// SqueueIterationSplitter on streams made of REAL squeue output of both releases
// (tests/data/slurm/marker/: listings in SqueueFollower's -O format with a fixed marker, among them
// job names holding newlines, empty lines and a forged marker; tests/data/slurm/22.05/commands:
// what squeue says with the controller down), framed as `squeue --iterate` frames them (one empty
// line after each listing; tst_squeue_follower checks that framing against the real squeue of
// each release), fed in pieces of every size.
#include "slurm/squeue_iteration_splitter.h"
#include "slurm/squeue_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

QVector<SqueueIteration> feedInPieces(SqueueIterationSplitter &splitter, const QByteArray &stream, qsizetype piece)
{
    QVector<SqueueIteration> all;
    for (qsizetype at = 0; at < stream.size(); at += piece)
        all += splitter.feed(QByteArrayView(stream).sliced(at, qMin(piece, stream.size() - at)));
    return all;
}

QStringList ids(const QVector<Job> &jobs)
{
    QStringList out;
    for (const Job &j : jobs)
        out << j.id;
    return out;
}

} // namespace

class TestSqueueIterationSplitter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void splitsListings_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<qsizetype>("piece");
        for (const char *dir : {"", "24.11/"})
            for (qsizetype piece : {qsizetype(1), qsizetype(7), qsizetype(4096), qsizetype(1) << 30})
                QTest::addRow("%s piece %lld", *dir ? "24.11" : "22.05", qlonglong(piece)) << QString::fromLatin1(dir) << piece;
    }

    void splitsListings()
    {
        QFETCH(QString, dir);
        QFETCH(qsizetype, piece);
        const QByteArray marker = captured(QStringLiteral("marker/marker.txt")).trimmed();
        const QByteArray main = captured(QStringLiteral("marker/%1main_squeue_marker.txt").arg(dir));
        const QByteArray hostile = captured(QStringLiteral("marker/%1hostile_squeue_marker.txt").arg(dir));
        const QByteArray down = captured(QStringLiteral("22.05/commands/ctld_down_squeue.stderr"));
        QVERIFY(main.endsWith(marker + '\n'));
        QVERIFY(hostile.endsWith(marker + '\n'));
        QVERIFY(down.startsWith("slurm_load_jobs error: "));
        // The marker line; a listing; one with hostile names; an empty queue; the controller
        // down; a listing again; and the start of one still on its way.
        const QByteArray stream = marker + '\n' + main + '\n' + hostile + '\n' + '\n' + down + '\n' + main + '\n'
            + main.left(main.size() / 2);

        SqueueIterationSplitter splitter;
        const QVector<SqueueIteration> listings = feedInPieces(splitter, stream, piece);
        QVERIFY2(splitter.error().isEmpty(), qPrintable(splitter.error()));
        QCOMPARE(splitter.marker(), marker);
        QCOMPARE(listings.size(), 5);
        QCOMPARE(listings[0].records, main);
        QCOMPARE(listings[0].messages, QByteArray());
        QCOMPARE(listings[1].records, hostile);
        QCOMPARE(listings[1].messages, QByteArray());
        QCOMPARE(listings[2].records, QByteArray());
        QCOMPARE(listings[2].messages, QByteArray());
        QCOMPARE(listings[3].records, QByteArray());
        QCOMPARE(listings[3].messages, down);
        QCOMPARE(listings[4].records, main);
        QCOMPARE(splitter.unfinishedMessages(), QByteArray()); // records on their way, not a message

        // What the parser makes of a listing is what it makes of the same squeue output read once.
        const SqueueParseResult once = SqueueParser::parse(hostile, marker);
        const SqueueParseResult listed = SqueueParser::parse(listings[1].records, splitter.marker());
        QVERIFY2(listed.error.isEmpty(), qPrintable(listed.error));
        QVERIFY(listed.jobs.size() >= 5);
        QCOMPARE(ids(listed.jobs), ids(once.jobs));
        for (int i = 0; i < listed.jobs.size(); ++i)
            QCOMPARE(listed.jobs[i].name, once.jobs[i].name);
    }

    void messageBeforeRecordsIsKeptWithThem()
    {
        const QByteArray marker = captured(QStringLiteral("marker/marker.txt")).trimmed();
        const QByteArray main = captured(QStringLiteral("marker/main_squeue_marker.txt"));
        const QByteArray warning = "squeue: error: Invalid user: nosuch\n";
        SqueueIterationSplitter splitter;
        const QVector<SqueueIteration> listings = splitter.feed(marker + '\n' + warning + main + '\n');
        QCOMPARE(listings.size(), 1);
        QCOMPARE(listings[0].messages, warning);
        QCOMPARE(listings[0].records, main);
    }

    void commandThatFailsBeforeSqueueIsAnError()
    {
        // The marker could not be drawn: the shell's complaint is the first line.
        SqueueIterationSplitter splitter;
        QVERIFY(splitter.feed("sh: 1: od: not found\n<<strata:>>\n").isEmpty());
        QVERIFY(splitter.error().contains(QLatin1String("od: not found")));
        QVERIFY(splitter.marker().isEmpty());
        // Nothing more is read once it cannot go on.
        QVERIFY(splitter.feed("\n\n").isEmpty());
    }

    void whatAnEndedCommandSaidLastIsKept()
    {
        // stdbuf missing on the login node: env says so and the command ends, no empty line after.
        const QByteArray marker = captured(QStringLiteral("marker/marker.txt")).trimmed();
        SqueueIterationSplitter splitter;
        QVERIFY(splitter.feed(marker + "\nenv: 'stdbuf': No such file or directory\n").isEmpty());
        QVERIFY(splitter.error().isEmpty());
        QCOMPARE(splitter.unfinishedMessages(), QByteArray("env: 'stdbuf': No such file or directory\n"));
    }

    void markerOnlyFromTheFirstLine()
    {
        // A marker-like first line with the wrong length, or upper-case hex, is not one.
        for (const QByteArray &line : {QByteArray("<<strata:9f3c2a7b61d04e5>>"), QByteArray("<<strata:9F3C2A7B61D04E58>>"),
                                       QByteArray("9f3c2a7b61d04e58")}) {
            SqueueIterationSplitter splitter;
            QVERIFY(splitter.feed(line + "\n\n").isEmpty());
            QVERIFY2(!splitter.error().isEmpty(), line.constData());
        }
        // A first line that has not ended yet is waited for.
        SqueueIterationSplitter splitter;
        QVERIFY(splitter.feed("<<strata:9f3c").isEmpty());
        QVERIFY(splitter.error().isEmpty());
        QCOMPARE(splitter.feed("2a7b61d04e58>>\n\n").size(), 1);
        QCOMPARE(splitter.marker(), QByteArray("<<strata:9f3c2a7b61d04e58>>"));
    }
};

QTEST_GUILESS_MAIN(TestSqueueIterationSplitter)
#include "tst_squeue_iteration_splitter.moc"
