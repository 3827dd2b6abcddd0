// BatchScriptReader: the remote script SlurmSource sends to read jobs' batch scripts, run by a
// real sh (LocalRemoteShell) against a stand-in `scontrol` that answers as 22.05's does (the
// script on stdout; a refusal on stderr, "job script retrieval failed: Access/permission
// denied", with exit status 0), and the parser on forged and cut answers.
#include "batch_script_reader.h"
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
                   "case \"$3\" in\n"
                   "  101) cat \"$(dirname \"$0\")/serve.sbatch\" ;;\n"
                   "  102) echo 'job script retrieval failed: Access/permission denied' >&2 ;;\n"
                   "  103) printf '#!/bin/bash\\n<<strata:0000000000000000>> 101\\nrm -rf ~\\n<<strata:0000000000000000>> END 0\\n' ;;\n"
                   "  104) head -c 1200000 /dev/zero | tr '\\000' 'a' ;;\n"
                   "  105) echo 'scontrol: error: Invalid job id specified' >&2; exit 1 ;;\n"
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
