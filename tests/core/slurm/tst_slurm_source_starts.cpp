// What a SlurmSource refresh starts on the login node: remote commands (channels, counted by
// the shell: LocalProcessShell, real processes and a real sh) and Slurm client starts (each
// costs a parse of slurm.conf, ~1 s on a cloud cluster's login node with 2,048 node lines:
// docs/PERF.md, "Fewer client starts per refresh"), counted by a stand-in login node whose
// scontrol, sinfo and squeue log each start and print the REAL 22.05 captures of
// tests/data/slurm/marker/main_* (squeue with the refresh's marker, and as `squeue --iterate`
// for the follower). The first refresh, steady ones with the follower and without, and one with
// five new running jobs, each with its exact numbers, and those five read side by side (at most
// 4 at once, more than one); the release and node list in one command also refuse a release too
// old and a node list the release does not need.
#include "../kubernetes/local_process_shell.h"
#include "model/gpu_catalog.h"
#include "slurm/slurm_source.h"

#include <QFile>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

using Starts = QMap<QString, int>;

bool writeFile(const QString &path, const QByteArray &text, bool executable = false)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return false;
    f.close();
    return !executable || f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/marker/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

const Job *findJob(const QVector<Job> &jobs, const QString &id)
{
    for (const Job &j : jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

} // namespace

class TestSlurmSourceStarts : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    qsizetype m_logRead = 0;

    // The Slurm client starts logged since the last call, by command.
    Starts startsSinceLastLook()
    {
        QFile f(m_dir.filePath(QStringLiteral("starts.log")));
        Starts starts;
        if (!f.open(QIODevice::ReadOnly))
            return starts;
        const QByteArray all = f.readAll();
        for (const QByteArray &line : all.mid(m_logRead).split('\n'))
            if (!line.trimmed().isEmpty())
                ++starts[QString::fromUtf8(line).simplified()];
        m_logRead = all.size();
        return starts;
    }
    void setListing(const QByteArray &listing)
    {
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("listing.txt")), listing));
    }
    void setVersion(const QByteArray &version)
    {
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("version.txt")), version));
    }
    // The most one-job `scontrol show job` that ran at once since the last call.
    int mostSideBySide()
    {
        QFile f(m_dir.filePath(QStringLiteral("side-by-side.log")));
        int running = 0;
        int most = 0;
        if (f.open(QIODevice::ReadOnly))
            for (const QByteArray &line : f.readAll().split('\n'))
                if (!line.isEmpty())
                    most = std::max(most, running += line == "+" ? 1 : -1);
        f.remove();
        return most;
    }
    std::shared_ptr<LocalProcessShell> newShell() const
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PATH"), m_dir.path() + u':' + environment.value(QStringLiteral("PATH")));
        return std::make_shared<LocalProcessShell>(environment);
    }
    // The main listing without the records of these jobs.
    static QByteArray listingWithout(const QStringList &ids)
    {
        QByteArray listing;
        for (const QByteArray &record : captured(QStringLiteral("main_squeue_marker.txt")).split('\n')) {
            const QString id = QString::fromUtf8(record.left(record.indexOf('\x1f')));
            if (!record.isEmpty() && !ids.contains(id))
                listing += record + '\n';
        }
        return listing;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QByteArray data = STRATA_TEST_DATA "/slurm/marker";
        const QByteArray dir = m_dir.path().toLocal8Bit();
        // Each start logs its command and first two arguments.
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("scontrol")),
            "#!/bin/sh\n"
            "d=" + dir + "\n"
            "m=" + data + "\n"
            "echo \"scontrol $1 $2\" >>\"$d/starts.log\"\n"
            "case \"$1 $2\" in\n"
            "  'version ') cat \"$d/version.txt\" ;;\n"
            "  'show partition') cat \"$m/main_scontrol_show_partition_o.txt\" ;;\n"
            "  'show job')\n"
            "    case \"$5\" in\n"
            "      '') cat \"$m/main_scontrol_show_job_d_o.txt\" ;;\n"
            "      *_*) grep \"ArrayJobId=${5%_*} ArrayTaskId=${5#*_} \" \"$m/main_scontrol_show_job_d_o.txt\" ;;\n"
            "      *) grep \"^JobId=$5 \" \"$m/main_scontrol_show_job_d_o.txt\" ;;\n"
            "    esac\n"
            // Each one-job read takes a while and logs its start and end apart: how many ran at once.
            "    [ -n \"$5\" ] && { echo + >>\"$d/side-by-side.log\"; sleep 0.2; echo - >>\"$d/side-by-side.log\"; }\n"
            "    exit 0 ;;\n"
            "  'write batch_script') printf '#!/bin/bash\\nsrun python train.py\\n' ;;\n"
            "  *) echo \"unexpected scontrol $*\" >&2; exit 2 ;;\n"
            "esac\n", true));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("sinfo")),
            "#!/bin/sh\n"
            "echo \"sinfo $1\" >>" + dir + "/starts.log\n"
            "cat " + data + "/main_nodes.json\n", true));
        // squeue: the listing with this command's marker (the -O argument's end, or, for
        // --iterate, SQUEUE_FORMAT2's), every interval followed by an empty line as
        // squeue --iterate prints it.
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("squeue")),
            "#!/bin/sh\n"
            "d=" + dir + "\n"
            "iterate=\n"
            "for a; do fmt=$a; case \"$a\" in --iterate=*) iterate=${a#--iterate=} ;; esac; done\n"
            "echo \"squeue${iterate:+ --iterate}\" >>\"$d/starts.log\"\n"
            "if [ -z \"$iterate\" ]; then\n"
            "  sed \"s/<<strata:9f3c2a7b61d04e58>>/<<strata:${fmt##*<<strata:}/g\" \"$d/listing.txt\"\n"
            "  exit 0\n"
            "fi\n"
            "marker=\"<<strata:${SQUEUE_FORMAT2##*<<strata:}\"\n"
            "while :; do\n"
            "  sed \"s/<<strata:9f3c2a7b61d04e58>>/$marker/g\" \"$d/listing.txt\"; echo\n"
            "  sleep \"$iterate\"\n"
            "done\n", true));
        // QProcess finds a program by this process's PATH, a sh script's commands by the shell's.
        qputenv("PATH", dir + ':' + qgetenv("PATH"));
    }

    void init()
    {
        setVersion(captured(QStringLiteral("scontrol_version.txt")));
        setListing(captured(QStringLiteral("main_squeue_marker.txt")));
        startsSinceLastLook();
    }

    void firstAndSteadyRefreshesWithTheFollower()
    {
        const auto shell = newShell();
        SlurmSource source(shell, GpuCatalog::builtIn());
        source.setPolling(1);

        // First: release and node list in one command; partitions; squeue once; the 6 running
        // jobs' placements in one command; the 10 new batch scripts (an array's once) in one.
        int before = shell->commandsRun();
        OrchestratorPart part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QVERIFY2(part.warnings.isEmpty(), qPrintable(part.warnings.join(u'\n')));
        QCOMPARE(shell->commandsRun() - before, 5);
        QCOMPARE(startsSinceLastLook(), (Starts{{"scontrol version", 1},
                                                {"sinfo --json", 1},
                                                {"scontrol show partition", 1},
                                                {"squeue", 1},
                                                {"scontrol show job", 6},
                                                {"scontrol write batch_script", 10}}));
        QCOMPARE(findJob(part.jobs, QStringLiteral("7_1"))->gpus.size(), 1); // placed
        QVERIFY(!findJob(part.jobs, QStringLiteral("8"))->workDir.isEmpty());
        QCOMPARE(source.followedRefreshes(), 0);

        // Second: the follower's squeue --iterate starts, once.
        before = shell->commandsRun();
        part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QCOMPARE(shell->commandsRun() - before, 3);
        QCOMPARE(startsSinceLastLook(),
                 (Starts{{"sinfo --json", 1}, {"scontrol show partition", 1}, {"squeue --iterate", 1}}));
        QCOMPARE(source.followedRefreshes(), 1);

        // Steady, with the follower: the node list and the partitions, nothing else.
        before = shell->commandsRun();
        part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QCOMPARE(shell->commandsRun() - before, 2);
        QCOMPARE(startsSinceLastLook(), (Starts{{"sinfo --json", 1}, {"scontrol show partition", 1}}));
        QCOMPARE(source.followedRefreshes(), 2);
        QCOMPARE(part.jobs.size(), 18);
        source.setPolling(0);
    }

    void steadyAndNewRunningJobsWithoutTheFollower()
    {
        const QStringList later{QStringLiteral("5"), QStringLiteral("6"), QStringLiteral("7_0"), QStringLiteral("7_1"),
                                QStringLiteral("8")};
        setListing(listingWithout(later));
        const auto shell = newShell();
        SlurmSource source(shell, GpuCatalog::builtIn());

        // First: job 1 is the one running; 7 batch scripts (1, and the pending 7, 9-13).
        int before = shell->commandsRun();
        OrchestratorPart part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QCOMPARE(shell->commandsRun() - before, 5);
        QCOMPARE(startsSinceLastLook(), (Starts{{"scontrol version", 1},
                                                {"sinfo --json", 1},
                                                {"scontrol show partition", 1},
                                                {"squeue", 1},
                                                {"scontrol show job", 1},
                                                {"scontrol write batch_script", 7}}));

        // Steady: the release is known, nothing new runs.
        before = shell->commandsRun();
        part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QCOMPARE(shell->commandsRun() - before, 3);
        QCOMPARE(startsSinceLastLook(), (Starts{{"sinfo --json", 1}, {"scontrol show partition", 1}, {"squeue", 1}}));

        // Five jobs start: their placements in one command, their 3 new scripts (5, 6, 8; the
        // array's 7 was read) in one.
        setListing(captured(QStringLiteral("main_squeue_marker.txt")));
        mostSideBySide();
        before = shell->commandsRun();
        part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QVERIFY2(part.warnings.isEmpty(), qPrintable(part.warnings.join(u'\n')));
        QCOMPARE(shell->commandsRun() - before, 5);
        QCOMPARE(startsSinceLastLook(), (Starts{{"sinfo --json", 1},
                                                {"scontrol show partition", 1},
                                                {"squeue", 1},
                                                {"scontrol show job", 5},
                                                {"scontrol write batch_script", 3}}));
        for (const QString &id : later) {
            const Job *job = findJob(part.jobs, id);
            QVERIFY2(job && !job->workDir.isEmpty(), qPrintable(id)); // its details were read
        }
        QCOMPARE(source.detailFetches(), 2);
        // Side by side, at most JobPlacementReader::kSideBySide (4) at once: 2 rounds, not 5
        // starts one after another.
        const int most = mostSideBySide();
        QVERIFY2(most >= 2 && most <= 4, qPrintable(QString::number(most)));
    }

    void aReleaseTooOldStartsNoNodeCommand()
    {
        setVersion("slurm 21.08.8-2\n");
        const auto shell = newShell();
        SlurmSource source(shell, GpuCatalog::builtIn());
        const OrchestratorPart part = source.refresh().result();
        QCOMPARE(part.errorKind, ErrorKind::SourceUnsupported);
        QVERIFY2(part.error.contains(QLatin1String("Slurm 21.08.8 is too old")), qPrintable(part.error));
        QVERIFY(part.nodes.isEmpty());
        const Starts starts = startsSinceLastLook();
        QCOMPARE(starts.value(QStringLiteral("scontrol version")), 1);
        QVERIFY(!starts.contains(QStringLiteral("sinfo --json")));
        QVERIFY(!starts.contains(QStringLiteral("scontrol --json")));
    }

    void aNodeListTheReleaseDoesNotNeedIsAnError()
    {
        // SlurmVersion::parse reads this release (24.11: `scontrol --json show nodes`); the login
        // node's sh does not, and lists none. Never read as if it had.
        setVersion("slurm  24.11.5\n");
        const auto shell = newShell();
        SlurmSource source(shell, GpuCatalog::builtIn());
        OrchestratorPart part = source.refresh().result();
        QCOMPARE(part.errorKind, ErrorKind::ParseFailed);
        QCOMPARE(part.error, QStringLiteral("the login node listed the nodes with `nothing`, but Slurm 24.11.5 needs "
                                            "`scontrol --json show nodes`"));
        QVERIFY(part.nodes.isEmpty());
        // Learnt again on the next refresh.
        setVersion(captured(QStringLiteral("scontrol_version.txt")));
        startsSinceLastLook();
        part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QCOMPARE(startsSinceLastLook().value(QStringLiteral("scontrol version")), 1);
    }
};

QTEST_GUILESS_MAIN(TestSlurmSourceStarts)
#include "tst_slurm_source_starts.moc"
