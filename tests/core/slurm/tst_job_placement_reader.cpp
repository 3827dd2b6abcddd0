// JobPlacementReader: the remote script SlurmSource sends for new running jobs' placements,
// run by a real sh (LocalRemoteShell) against a stand-in `scontrol show job -d -o ID` that
// prints the REAL per-job captures of Slurm 22.05 and 24.11 (tests/data/slurm/*/
// scontrol_per_job.txt) and fails as the real one does for a job that has ended
// (tests/data/slurm/errors/scontrol_show_job_unknown.*: exit 1, "slurm_load_jobs error: Invalid
// job id specified"); each start takes a while, so the test sees how many run at once. Then the
// parser on forged, repeated and cut answers.
#include "job_placement_reader.h"
#include "local_remote_shell.h"
#include "slurm/squeue_parser.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

const QByteArray kMarker = "<<strata:5eed5eed5eed5eed>>";

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

// Names by id from the same release's squeue of the same moment, as SlurmSource passes them
// (squeue_marker.txt: each record is the marker, then 16 fields split by \x1f, the name last).
QHash<QString, QString> namesFromSqueue(const QString &release)
{
    QHash<QString, QString> names;
    const QByteArray marker = captured(release + QStringLiteral("/marker.txt")).trimmed();
    for (const QByteArray &record : captured(release + QStringLiteral("/squeue_marker.txt")).split('\n')) {
        const QList<QByteArray> fields = record.mid(marker.size()).split('\x1f');
        if (record.startsWith(marker) && fields.size() == 16)
            names.insert(QString::fromUtf8(fields.first()), QString::fromUtf8(fields.last()));
    }
    return names;
}

QByteArray record(const QByteArray &id, const QByteArray &content, const QByteArray &status)
{
    return kMarker + ' ' + id + '\n' + content + '\n' + kMarker + " END " + status + '\n';
}

} // namespace

class TestJobPlacementReader : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QStringList starts() const
    {
        QFile f(m_dir.filePath(QStringLiteral("starts.log")));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts) : QStringList();
    }

    void usePerJobCapture(const QString &name)
    {
        QFile file(m_dir.filePath(QStringLiteral("per_job")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(STRATA_TEST_DATA "/slurm/%1").arg(name).toLocal8Bit());
    }

private Q_SLOTS:
    // Found by fuzz_job_placements: a record whose END line follows its id line at once (no
    // content line) sliced a negative length.
    void aRecordWithoutAContentLine()
    {
        const QByteArray m = "<<strata:0123456789abcdef>>";
        const JobPlacementReader::Result r =
            JobPlacementReader::parse(m + " 7\n" + m + " END 0 \n", m, {QStringLiteral("7")}, {});
        QVERIFY(r.placements.isEmpty());
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QByteArray dir = m_dir.path().toLocal8Bit();
        // The records of the capture named in the file per_job, each after "CAPTURE_MARKER ID";
        // a job it has not ended before the read: the real failure. Each start and end is logged.
        QFile fake(m_dir.filePath(QStringLiteral("scontrol")));
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("#!/bin/sh\n"
                   "d=" + dir + "\n"
                   "[ \"$1 $2 $3 $4\" = 'show job -d -o' ] || { echo \"unexpected scontrol $*\" >&2; exit 2; }\n"
                   "echo \"+ $5\" >>\"$d/starts.log\"\n"
                   "sleep 0.3\n"
                   "out=$(awk -v want=\"<<strata:9f3c2a7b61d04e58>> $5\" "
                   "'index($0, \"<<strata:9f3c2a7b61d04e58>> \") == 1 { on = ($0 == want); next } on' \"$(cat \"$d/per_job\")\")\n"
                   "if [ -n \"$out\" ]; then\n"
                   "  printf '%s\\n' \"$out\"; rc=0\n"
                   "else\n"
                   "  cat " STRATA_TEST_DATA "/slurm/errors/scontrol_show_job_unknown.stderr >&2\n"
                   "  rc=$(cat " STRATA_TEST_DATA "/slurm/errors/scontrol_show_job_unknown.rc)\n"
                   "fi\n"
                   "echo \"- $5\" >>\"$d/starts.log\"\n"
                   "exit \"$rc\"\n");
        fake.close();
        QVERIFY(fake.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        qputenv("PATH", dir + ':' + qgetenv("PATH"));
    }

    void readsSideBySide_data()
    {
        QTest::addColumn<QString>("release");
        QTest::newRow("22.05") << QStringLiteral("22.05");
        QTest::newRow("24.11") << QStringLiteral("24.11");
    }
    void readsSideBySide()
    {
        QFETCH(QString, release);
        usePerJobCapture(release + QStringLiteral("/scontrol_per_job.txt"));
        QFile::remove(m_dir.filePath(QStringLiteral("starts.log")));

        // Job 6 ended after squeue listed it; "7_[1-3]" is no job id scontrol knows (quoted: the
        // login node's sh never expands it).
        const QStringList ids{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("4"),
                              QStringLiteral("5"), QStringLiteral("6"), QStringLiteral("7_[1-3]")};
        const QHash<QString, QString> names = namesFromSqueue(release);
        QCOMPARE(names.value(QStringLiteral("4")), QStringLiteral("two nodes"));
        LocalRemoteShell shell;
        const CommandResult r = shell.runScript(JobPlacementReader::remoteScript(ids, kMarker)).result();
        QVERIFY2(r.ok(), r.stderrData.constData());
        const JobPlacementReader::Result parsed = JobPlacementReader::parse(r.stdoutData, kMarker, ids, names);
        QCOMPARE(parsed.error, QString());
        QCOMPARE(parsed.malformedRecords, 0);
        QCOMPARE(parsed.placements.size(), 5);
        QCOMPARE(parsed.placements.value(QStringLiteral("1")).gpus,
                 (QMap<QString, QVector<int>>{{QStringLiteral("gpu-node01"), {0, 1}}}));
        // Two nodes, one GPU each (index 2 on gpu-node01, and gpu-node02's).
        QCOMPARE(parsed.placements.value(QStringLiteral("4")).gpus.size(), 2);
        QCOMPARE(parsed.placements.value(QStringLiteral("4")).gpus.value(QStringLiteral("gpu-node01")), QVector<int>{2});
        for (const QString &id : ids.mid(0, 5))
            QCOMPARE(parsed.placements.value(id).jobId, id);
        const QString gone = QString::fromUtf8(captured(QStringLiteral("errors/scontrol_show_job_unknown.stderr"))).trimmed();
        QCOMPARE(parsed.unanswered,
                 (QHash<QString, QString>{{QStringLiteral("6"), gone}, {QStringLiteral("7_[1-3]"), gone}}));

        // Seven starts, never more than JobPlacementReader::kSideBySide at once, and more than
        // one at once (each takes 0.3 s; one after another they would never overlap).
        const QStringList log = starts();
        QCOMPARE(std::count_if(log.cbegin(), log.cend(), [](const QString &line) { return line.startsWith(u'+'); }),
                 ids.size());
        int running = 0;
        int most = 0;
        for (const QString &line : log) {
            running += line.startsWith(u'+') ? 1 : -1;
            most = std::max(most, running);
        }
        QVERIFY2(most <= JobPlacementReader::kSideBySide, qPrintable(log.join(u' ')));
        QVERIFY2(most >= 2, qPrintable(log.join(u' ')));
    }

    void hostileNamesReadAsTheOneByOneCaptureIs()
    {
        // marker/hostile_*: running jobs whose names attack each reader (newlines, a forged
        // record of another job, the marker of another refresh; marker/README.md). Read side by
        // side, they give exactly what ScontrolParser::parseJobDetailChunks reads from the same
        // capture taken one by one, and nothing forged.
        usePerJobCapture(QStringLiteral("marker/hostile_scontrol_per_job.txt"));
        const QByteArray marker = captured(QStringLiteral("marker/marker.txt")).trimmed();
        const QByteArray capture = captured(QStringLiteral("marker/hostile_scontrol_per_job.txt"));
        QHash<QString, QString> names;
        for (const Job &j : SqueueParser::parse(captured(QStringLiteral("marker/hostile_squeue_marker.txt")), marker).jobs)
            names.insert(j.id, j.name);
        QStringList ids;
        for (const QByteArray &line : capture.split('\n'))
            if (line.startsWith(marker + ' '))
                ids << QString::fromUtf8(line.mid(marker.size() + 1));
        QVERIFY2(ids.size() >= 6, qPrintable(ids.join(u' ')));
        const ScontrolJobsParseResult oneByOne = ScontrolParser::parseJobDetailChunks(capture, marker, names);
        QCOMPARE(oneByOne.error, QString());

        LocalRemoteShell shell;
        const CommandResult r = shell.runScript(JobPlacementReader::remoteScript(ids, kMarker)).result();
        QVERIFY2(r.ok(), r.stderrData.constData());
        const JobPlacementReader::Result parsed = JobPlacementReader::parse(r.stdoutData, kMarker, ids, names);
        QCOMPARE(parsed.error, QString());
        QVERIFY(parsed.unanswered.isEmpty());
        QCOMPARE(parsed.placements.size(), oneByOne.jobs.size());
        for (auto it = oneByOne.jobs.constBegin(); it != oneByOne.jobs.constEnd(); ++it) {
            QCOMPARE(parsed.placements.value(it.key()).gpus, it->gpus);
            QCOMPARE(parsed.placements.value(it.key()).command, it->command);
            QCOMPARE(parsed.placements.value(it.key()).workDir, it->workDir);
        }
    }

    void aRecordForAJobNotAskedForIsRefused()
    {
        const QByteArray one = captured(QStringLiteral("24.11/scontrol_per_job.txt")).split('\n').value(1) + '\n';
        QVERIFY(one.startsWith("JobId=1 "));
        // Only a name that knew this refresh's marker could write a second record; it is refused.
        const JobPlacementReader::Result parsed = JobPlacementReader::parse(
            record("1", one, "0 ") + record("2", one, "0 "), kMarker, {QStringLiteral("1")}, {});
        QCOMPARE(parsed.placements.keys(), QStringList{QStringLiteral("1")});
        QVERIFY2(parsed.error.contains(QLatin1String("job 2, which was not asked for")), qPrintable(parsed.error));
        // The same job twice: the first counts.
        const JobPlacementReader::Result twice = JobPlacementReader::parse(
            record("1", one, "0 ") + record("1", one, "0 "), kMarker, {QStringLiteral("1")}, {});
        QCOMPARE(twice.placements.size(), 1);
        QVERIFY(!twice.error.isEmpty());
        // A record asked for job 2 that holds job 1's details.
        const JobPlacementReader::Result swapped =
            JobPlacementReader::parse(record("2", one, "0 "), kMarker, {QStringLiteral("2")}, {});
        QVERIFY(swapped.placements.isEmpty());
        QVERIFY2(swapped.error.contains(QLatin1String("held a record for job 1")), qPrintable(swapped.error));
    }

    void aCutAnswerLeavesTheRestForNextTime()
    {
        const QByteArray one = captured(QStringLiteral("22.05/scontrol_per_job.txt")).split('\n').value(1) + '\n';
        const QStringList asked{QStringLiteral("1"), QStringLiteral("2")};
        const JobPlacementReader::Result cut =
            JobPlacementReader::parse(record("1", one, "0 ") + kMarker + " 2\nJobId=2 JobName=gpus thr", kMarker, asked, {});
        QCOMPARE(cut.placements.keys(), QStringList{QStringLiteral("1")});
        QVERIFY(cut.unanswered.isEmpty()); // job 2: in neither, asked again
        QCOMPARE(cut.error, QString());
        // Cut inside the status line: the same.
        const JobPlacementReader::Result cutStatus =
            JobPlacementReader::parse(record("1", one, "0 ").chopped(1), kMarker, asked, {});
        QVERIFY(cutStatus.placements.isEmpty());
        QVERIFY(cutStatus.unanswered.isEmpty());
    }

    void anAnswerWithoutTheMarkerIsAnError()
    {
        const JobPlacementReader::Result parsed =
            JobPlacementReader::parse("sh: 1: mktemp: not found\n", kMarker, {QStringLiteral("1")}, {});
        QVERIFY(parsed.placements.isEmpty());
        QVERIFY(parsed.error.contains(QLatin1String("record marker")));
        const JobPlacementReader::Result between =
            JobPlacementReader::parse(record("1", "", "0 ") + "stray\n", kMarker, {QStringLiteral("1")}, {});
        QVERIFY(between.error.contains(QLatin1String("between records")));
        QCOMPARE(between.unanswered.value(QStringLiteral("1")), QStringLiteral("scontrol show job printed no record of the job"));
    }
};

QTEST_GUILESS_MAIN(TestJobPlacementReader)
#include "tst_job_placement_reader.moc"
