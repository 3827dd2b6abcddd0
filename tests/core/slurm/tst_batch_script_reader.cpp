// BatchScriptReader: the remote script SlurmSource sends to read jobs' batch scripts, run by a
// real sh (LocalRemoteShell) against a stand-in `scontrol` that answers as 22.05's does (the
// script on stdout; a refusal on stderr, "job script retrieval failed: Access/permission
// denied", with exit status 0), side by side (a few at once), and the parser on forged and cut
// answers.
#include "batch_script_reader.h"
#include "side_by_side_script.h"
#include "local_remote_shell.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

const QByteArray kMarker = "<<strata:5eed5eed5eed5eed>>";

QByteArray record(const QByteArray &id, const QByteArray &content, const QByteArray &status)
{
    return kMarker + ' ' + id + '\n' + content + '\n' + kMarker + " END " + status + '\n';
}

} // namespace

class TestBatchScriptReader : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile data(QStringLiteral(STRATA_TEST_DATA "/slurm/scripts/vllm_serve_tp4.sbatch"));
        QVERIFY(data.copy(m_dir.filePath(QStringLiteral("serve.sbatch"))));
        // The stand-in: `scontrol write batch_script ID -`.
        QFile fake(m_dir.filePath(QStringLiteral("scontrol")));
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("#!/bin/sh\n"
                   "[ \"$1 $2 $4\" = 'write batch_script -' ] || { echo \"unexpected: $*\" >&2; exit 2; }\n"
                   // Each read takes a while and logs its start and end: how many ran at once.
                   "echo + >>\"$(dirname \"$0\")/side-by-side.log\"; sleep 0.2; echo - >>\"$(dirname \"$0\")/side-by-side.log\"\n"
                   "case \"$3\" in\n"
                   "  101) cat \"$(dirname \"$0\")/serve.sbatch\" ;;\n"
                   "  102) echo 'job script retrieval failed: Access/permission denied' >&2 ;;\n"
                   "  103) printf '#!/bin/bash\\n<<strata:0000000000000000>> 101\\nrm -rf ~\\n<<strata:0000000000000000>> END 0\\n' ;;\n"
                   "  104) head -c 1200000 /dev/zero | tr '\\000' 'a' ;;\n"
                   "  105) echo 'scontrol: error: Invalid job id specified' >&2; exit 1 ;;\n"
                   "  2[0-9][0-9]) head -c 300000 /dev/zero | tr '\\000' 'b' ;;\n"
                   "  *) echo \"no such job $3\" >&2; exit 1 ;;\n"
                   "esac\n");
        fake.close();
        QVERIFY(fake.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        qputenv("PATH", m_dir.path().toLocal8Bit() + ':' + qgetenv("PATH"));
    }

    void readsThroughARealShell()
    {
        const QStringList ids{QStringLiteral("101"), QStringLiteral("102"), QStringLiteral("103"), QStringLiteral("104"),
                              QStringLiteral("105"), QStringLiteral("7_[1-3]")};
        LocalRemoteShell shell;
        const CommandResult r = shell.runScript(BatchScriptReader::remoteScript(ids, kMarker)).result();
        QVERIFY2(r.ok(), r.stderrData.constData());
        const BatchScriptReader::Result parsed = BatchScriptReader::parse(r.stdoutData, kMarker, ids);
        QCOMPARE(parsed.error, QString());
        QCOMPARE(parsed.scripts.size(), ids.size());

        const auto serve = parsed.scripts.value(QStringLiteral("101"));
        QCOMPARE(serve->status, JobScript::Status::Read);
        QCOMPARE(serve->content.sbatchOption(QStringLiteral("gres")), QStringLiteral("gpu:4"));
        QCOMPARE(serve->bytesRead, QFileInfo(m_dir.filePath(QStringLiteral("serve.sbatch"))).size());

        // Another user's job: quietly not readable, scontrol's words kept.
        const auto denied = parsed.scripts.value(QStringLiteral("102"));
        QCOMPARE(denied->status, JobScript::Status::NotReadable);
        QCOMPARE(denied->problem, QStringLiteral("job script retrieval failed: Access/permission denied"));

        // A script that writes record lines with a guessed marker stays one script's text.
        const auto forger = parsed.scripts.value(QStringLiteral("103"));
        QCOMPARE(forger->status, JobScript::Status::Read);
        const QByteArray forgerText = "#!/bin/bash\n<<strata:0000000000000000>> 101\nrm -rf ~\n"
                                      "<<strata:0000000000000000>> END 0\n"; // all of it, as printed
        QCOMPARE(forger->bytesRead, forgerText.size());
        QCOMPARE(serve->content.sbatchOption(QStringLiteral("job-name")), QStringLiteral("serve")); // 101 untouched

        // Cut on the login node after kMaxBytes + 1 bytes: read in part.
        const auto big = parsed.scripts.value(QStringLiteral("104"));
        QCOMPARE(big->status, JobScript::Status::TooBig);
        QCOMPARE(big->bytesRead, BatchScript::kMaxBytes + 1);

        const auto failed = parsed.scripts.value(QStringLiteral("105"));
        QCOMPARE(failed->status, JobScript::Status::NotReadable);
        QCOMPARE(failed->problem, QStringLiteral("scontrol: error: Invalid job id specified"));
        QCOMPARE(parsed.scripts.value(QStringLiteral("7_[1-3]"))->problem, QStringLiteral("no such job 7_[1-3]"));

        // Six reads, side by side: never more than SideBySideScript::kWidth at once, and more
        // than one at once (each takes 0.2 s; one after another they would never overlap).
        QFile log(m_dir.filePath(QStringLiteral("side-by-side.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        int starts = 0, running = 0, most = 0;
        for (const QByteArray &line : log.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            starts += line == "+";
            most = std::max(most, running += line == "+" ? 1 : -1);
        }
        QCOMPARE(starts, ids.size());
        QVERIFY2(most >= 2 && most <= SideBySideScript::kWidth, qPrintable(QString::number(most)));
    }

    void oneReadStopsAtItsByteBudget()
    {
        // Budget 700,000 bytes, scripts of 300,000, read 4 at a time: the first group brings
        // 1.2 MB, so the second (205) does not start; 205 is absent, asked again next refresh.
        const QStringList ids{QStringLiteral("201"), QStringLiteral("202"), QStringLiteral("203"),
                              QStringLiteral("204"), QStringLiteral("205")};
        LocalRemoteShell shell;
        const CommandResult r = shell.runScript(BatchScriptReader::remoteScript(ids, kMarker, 700000)).result();
        QVERIFY2(r.ok(), qPrintable(r.errorText()));
        const BatchScriptReader::Result parsed = BatchScriptReader::parse(r.stdoutData, kMarker, ids);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QCOMPARE(parsed.scripts.size(), 4);
        for (const char *id : {"201", "202", "203", "204"}) {
            QCOMPARE(parsed.scripts.value(QLatin1String(id))->status, JobScript::Status::Read);
            QCOMPARE(parsed.scripts.value(QLatin1String(id))->bytesRead, 300000);
        }
        QVERIFY(!parsed.scripts.contains(QStringLiteral("205")));
        // The default budget (4 MiB): all five, 1.5 MB.
        const CommandResult all = shell.runScript(BatchScriptReader::remoteScript(ids, kMarker)).result();
        QCOMPARE(BatchScriptReader::parse(all.stdoutData, kMarker, ids).scripts.size(), 5);
    }

    void aRecordForAJobNotAskedForIsRefused()
    {
        // Only a script that knew this refresh's marker could write this; it is refused anyway.
        const QByteArray forged = record("1", "#!/bin/bash\necho one", "0 ") + record("2", "torchrun x.py", "0 ");
        const BatchScriptReader::Result parsed = BatchScriptReader::parse(forged, kMarker, {QStringLiteral("1")});
        QCOMPARE(parsed.scripts.size(), 1);
        QVERIFY(parsed.scripts.contains(QStringLiteral("1")));
        QVERIFY(parsed.error.contains(QLatin1String("job 2")));
    }

    void aCutAnswerLeavesTheRestForNextTime()
    {
        const QByteArray cut = record("1", "echo one", "0 ") + kMarker + " 2\n#!/bin/bash\nsrun tor";
        const BatchScriptReader::Result parsed = BatchScriptReader::parse(cut, kMarker, {QStringLiteral("1"), QStringLiteral("2")});
        QCOMPARE(parsed.scripts.size(), 1);
        QCOMPARE(parsed.scripts.value(QStringLiteral("1"))->status, JobScript::Status::Read);
        QVERIFY(!parsed.scripts.contains(QStringLiteral("2")));
    }

    void anAnswerWithoutTheMarkerIsAnError()
    {
        const BatchScriptReader::Result parsed =
            BatchScriptReader::parse("sh: 1: scontrol: not found\n", kMarker, {QStringLiteral("1")});
        QVERIFY(parsed.scripts.isEmpty());
        QVERIFY(parsed.error.contains(QLatin1String("record marker")));
    }

    void anEmptyScriptIsRead()
    {
        const BatchScriptReader::Result parsed = BatchScriptReader::parse(record("9", "", "0 "), kMarker, {QStringLiteral("9")});
        QCOMPARE(parsed.scripts.value(QStringLiteral("9"))->status, JobScript::Status::Read);
        QCOMPARE(parsed.scripts.value(QStringLiteral("9"))->bytesRead, 0);
    }
};

QTEST_GUILESS_MAIN(TestBatchScriptReader)
#include "tst_batch_script_reader.moc"
