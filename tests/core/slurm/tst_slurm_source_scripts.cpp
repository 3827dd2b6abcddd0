// SlurmSource reading batch scripts: a whole refresh through a real sh (LocalRemoteShell)
// against a stand-in login node whose scontrol, sinfo and squeue print the REAL 22.05 captures
// of tests/data/slurm/marker/main_* (squeue with this refresh's marker) and whose `scontrol
// write batch_script` answers per job: a torchrun script with EFA settings, a refusal (exit 0,
// as 22.05 does), a vLLM script shared by an array's tasks, a --wrap script, a script that prints
// record lines with a guessed marker. Checks: running jobs are read first, each script once
// (cached), a refusal is quiet, and the detector uses what was read.
#include "local_remote_shell.h"
#include "model/gpu_catalog.h"
#include "slurm/slurm_source.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

const Job *find(const QVector<Job> &jobs, const QString &id)
{
    for (const Job &j : jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

bool writeExecutable(const QString &path, const QByteArray &text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return false;
    f.close();
    return f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace

class TestSlurmSourceScripts : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString log() const
    {
        QFile f(m_dir.filePath(QStringLiteral("asked.log")));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).simplified() : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QByteArray data = STRATA_TEST_DATA;
        const QByteArray dir = m_dir.path().toLocal8Bit();
        QVERIFY(QFile::copy(QStringLiteral(STRATA_TEST_DATA "/slurm/scripts/torchrun_2x8_efa.sbatch"), m_dir.filePath(QStringLiteral("5.sh"))));
        QVERIFY(QFile::copy(QStringLiteral(STRATA_TEST_DATA "/slurm/scripts/vllm_serve_tp4.sbatch"), m_dir.filePath(QStringLiteral("7.sh"))));
        QVERIFY(writeExecutable(m_dir.filePath(QStringLiteral("scontrol")),
            "#!/bin/sh\n"
            "m=" + data + "/slurm/marker\n"
            "case \"$1 $2\" in\n"
            "  'version ') cat \"$m/scontrol_version.txt\" ;;\n"
            "  'show partition') cat \"$m/main_scontrol_show_partition_o.txt\" ;;\n"
            "  'show job') cat \"$m/main_scontrol_show_job_d_o.txt\" ;;\n"
            "  'write batch_script')\n"
            "    echo \"$3\" >>" + dir + "/asked.log\n"
            "    case \"$3\" in\n"
            "      5|7) cat " + dir + "/\"$3\".sh ;;\n"
            "      6) echo 'job script retrieval failed: Access/permission denied' >&2 ;;\n"
            "      1) printf '#!/bin/sh\\n# This script was created by sbatch --wrap.\\n\\nsleep 600\\n' ;;\n"
            "      8) printf '#!/bin/bash\\n<<strata:0123456789abcdef>> 5\\nvllm serve x --tensor-parallel-size 8\\n<<strata:0123456789abcdef>> END 0\\n' ;;\n"
            "      *) printf '#!/bin/bash\\nsrun python eval_mmlu.py\\n' ;;\n"
            "    esac ;;\n"
            "  *) echo \"unexpected scontrol $*\" >&2; exit 2 ;;\n"
            "esac\n"));
        QVERIFY(writeExecutable(m_dir.filePath(QStringLiteral("sinfo")),
                                "#!/bin/sh\ncat " + data + "/slurm/marker/main_nodes.json\n"));
        // The -O argument ends with this refresh's marker: the capture's is replaced by it.
        QVERIFY(writeExecutable(m_dir.filePath(QStringLiteral("squeue")),
            "#!/bin/sh\n"
            "for a; do fmt=$a; done\n"
            "marker=\"<<strata:${fmt##*<<strata:}\"\n"
            "sed \"s/<<strata:9f3c2a7b61d04e58>>/$marker/g\" \"${FAKE_SQUEUE:-" + data + "/slurm/marker/main_squeue_marker.txt}\"\n"));
        qputenv("PATH", dir + ':' + qgetenv("PATH"));
    }

    void readsEachNewJobsScriptOnce()
    {
        SlurmSource source(std::make_shared<LocalRemoteShell>(), GpuCatalog::builtIn());
        const OrchestratorPart part = source.refresh().result();
        QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
        QCOMPARE(source.scriptReads(), 1);
        // Running jobs first (an array's tasks once, under the array), then the pending ones:
        // asked 1, 5, 6, 7, 8, then 9-13, read side by side in groups of 4 (a group starts
        // when the one before has ended; within one, in any order).
        const QStringList asked = log().split(u' ');
        QCOMPARE(asked.size(), 10);
        QCOMPARE(QSet<QString>(asked.cbegin(), asked.cbegin() + 4), (QSet<QString>{"1", "5", "6", "7"}));
        QVERIFY(QSet<QString>(asked.cbegin() + 4, asked.cbegin() + 8).contains(QStringLiteral("8")));
        QCOMPARE(QSet<QString>(asked.cbegin() + 4, asked.cend()), (QSet<QString>{"8", "9", "10", "11", "12", "13"}));

        const Job *torch = find(part.jobs, QStringLiteral("5"));
        QVERIFY(torch && torch->script);
        QCOMPARE(torch->script->status, JobScript::Status::Read);
        QCOMPARE(torch->framework, QStringLiteral("torch.distributed"));
        QCOMPARE(torch->worldSize.value_or(0), 8); // one node here, 8 per node in the script
        QCOMPARE(torch->launcher, QStringLiteral("srun > torchrun"));
        QCOMPARE(torch->fabric.usesEfa, JobFabric::Efa::Yes);
        QVERIFY(torch->fabric.settings.contains(QStringLiteral("NCCL_DEBUG=INFO")));

        const Job *denied = find(part.jobs, QStringLiteral("6"));
        QVERIFY(denied && denied->script);
        QCOMPARE(denied->script->status, JobScript::Status::NotReadable);
        QCOMPARE(denied->script->problem, QStringLiteral("job script retrieval failed: Access/permission denied"));
        QCOMPARE(denied->fabric.usesEfa, JobFabric::Efa::Unknown);

        for (const QString &id : {QStringLiteral("7_0"), QStringLiteral("7_1"), QStringLiteral("7_5")}) {
            const Job *task = find(part.jobs, id);
            QVERIFY2(task && task->script, qPrintable(id));
            QCOMPARE(task->script, find(part.jobs, QStringLiteral("7_0"))->script); // shared, read once
            QCOMPARE(task->framework, QStringLiteral("vllm"));
            QCOMPARE(task->kind, QStringLiteral("serving"));
            QCOMPARE(task->tensorParallel.value_or(0), 4);
        }

        const Job *wrapped = find(part.jobs, QStringLiteral("1"));
        QVERIFY(wrapped && wrapped->script);
        QCOMPARE(wrapped->script->status, JobScript::Status::Read);

        // Lines that look like records of another job stay this job's script.
        const Job *forger = find(part.jobs, QStringLiteral("8"));
        QVERIFY(forger && forger->script);
        QCOMPARE(forger->script->status, JobScript::Status::Read);
        QCOMPARE(torch->tensorParallel.has_value(), false);

        const Job *pending = find(part.jobs, QStringLiteral("9"));
        QVERIFY(pending && pending->script);
        QCOMPARE(pending->kind, QStringLiteral("evaluation"));

        // The next refresh reads no script again: all are cached.
        const OrchestratorPart again = source.refresh().result();
        QVERIFY2(again.error.isEmpty(), qPrintable(again.error));
        QCOMPARE(source.scriptReads(), 1);
        QCOMPARE(log().split(u' ').size(), asked.size());
        QCOMPARE(find(again.jobs, QStringLiteral("5"))->framework, QStringLiteral("torch.distributed"));
    }

    void readsAtMostFiftyARefresh()
    {
        // 120 pending jobs: the captured record of pending job 13, under ids 1000-1119.
        QFile capture(QStringLiteral(STRATA_TEST_DATA "/slurm/marker/main_squeue_marker.txt"));
        QVERIFY(capture.open(QIODevice::ReadOnly));
        const QByteArray end = "<<strata:9f3c2a7b61d04e58>>\n";
        QByteArray thirteen;
        for (const QByteArray &record : capture.readAll().split('\n'))
            if (record.startsWith("13\x1f" "13\x1f"))
                thirteen = record + '\n';
        QVERIFY(thirteen.endsWith(end));
        QByteArray listing;
        for (int id = 1000; id < 1120; ++id)
            listing += QByteArray::number(id) + '\x1f' + QByteArray::number(id) + thirteen.mid(5);
        QFile many(m_dir.filePath(QStringLiteral("many.txt")));
        QVERIFY(many.open(QIODevice::WriteOnly));
        many.write(listing);
        many.close();
        qputenv("FAKE_SQUEUE", many.fileName().toLocal8Bit());
        QFile::remove(m_dir.filePath(QStringLiteral("asked.log")));

        SlurmSource source(std::make_shared<LocalRemoteShell>(), GpuCatalog::builtIn());
        QVector<int> askedAfter;
        int withScript = 0;
        for (int refresh = 0; refresh < 4; ++refresh) {
            const OrchestratorPart part = source.refresh().result();
            QVERIFY2(part.error.isEmpty(), qPrintable(part.error));
            QCOMPARE(part.jobs.size(), 120);
            askedAfter << int(log().split(u' ', Qt::SkipEmptyParts).size());
            withScript = int(std::count_if(part.jobs.cbegin(), part.jobs.cend(), [](const Job &j) { return bool(j.script); }));
        }
        qunsetenv("FAKE_SQUEUE");
        QCOMPARE(askedAfter, (QVector<int>{50, 100, 120, 120}));
        QCOMPARE(withScript, 120);
        QCOMPARE(source.scriptReads(), 3);
    }
};

QTEST_GUILESS_MAIN(TestSlurmSourceScripts)
#include "tst_slurm_source_scripts.moc"
