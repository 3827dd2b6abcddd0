// The scripts the burn-in sends to a remote `sh -s`, run here by a real sh with hostile values:
// node names, job ids and agent arguments reach the shell as data, never as code. A value that
// escaped its quoting would create the canary file.

#include "burnin/burnin_job_script.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

struct ShellRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

ShellRun runSh(const QByteArray &script, const QString &workDir, const QStringList &env = {})
{
    QProcess p;
    p.setWorkingDirectory(workDir);
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString &kv : env)
        e.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    p.setProcessEnvironment(e);
    p.start(QStringLiteral("sh"), {QStringLiteral("-s")});
    p.write(script);
    p.closeWriteChannel();
    ShellRun r;
    if (!p.waitForFinished(20000))
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace

class TestBurninJobScript : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString canary() const { return m_dir.filePath(QStringLiteral("canary")); }

private Q_SLOTS:
    void pollScriptKeepsHostileValuesData_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("jobId");
        const QString touch = QStringLiteral("touch ") + canary();
        QTest::newRow("substitution in the node") << QStringLiteral("n$(%1)").arg(touch) << QStringLiteral("12");
        QTest::newRow("backticks in the node") << QStringLiteral("n`%1`").arg(touch) << QStringLiteral("12");
        QTest::newRow("quote break in the node") << QStringLiteral("n'; %1; '").arg(touch) << QStringLiteral("12");
        QTest::newRow("double quote break in the node") << QStringLiteral("n\"; %1; \"").arg(touch) << QStringLiteral("12");
        QTest::newRow("separator in the job id") << QStringLiteral("gpu-node01") << QStringLiteral("12; %1").arg(touch);
        QTest::newRow("substitution in the job id") << QStringLiteral("gpu-node01") << QStringLiteral("$(%1)").arg(touch);
        // No slash: the file can exist, and the reply must name the node verbatim.
        QTest::newRow("substitution read back literally") << QStringLiteral("n$(echo hacked)`id`") << QStringLiteral("12_3");
    }

    void pollScriptKeepsHostileValuesData()
    {
        QFETCH(QString, node);
        QFETCH(QString, jobId);
        QFile::remove(canary());
        const QString outputDir = m_dir.filePath(QStringLiteral("out"));
        QVERIFY(QDir().mkpath(outputDir));
        // A file where the script will look, named with the hostile values verbatim.
        QFile file(BurninJobScript::outputFile(outputDir, jobId, node));
        if (!node.contains(u'/') && !jobId.contains(u'/')) {
            QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(file.fileName()));
            file.write("{\"type\":\"hello\"}\n");
            file.close();
        }
        const QString script = BurninJobScript::pollScript(outputDir, jobId, {{node, 0}});
        const ShellRun r = runSh(script.toUtf8(), m_dir.path());
        QVERIFY2(!QFile::exists(canary()), "a value ran as a command");
        if (file.exists())
            QCOMPARE(r.out, QByteArray("@@strata-file ") + node.toUtf8() + " 17\n{\"type\":\"hello\"}\n");
    }

    void batchScriptHereDocumentCannotBeEnded()
    {
        // An agent argument holding a line equal to a fixed here-document delimiter would end it
        // early and run the rest as commands of the batch script.
        QFile::remove(canary());
        BurninRequest request;
        request.nodes = {QStringLiteral("gpu-node01")};
        request.outputDirectory = m_dir.path();
        request.agentRemotePath = QStringLiteral("/bin/true");
        request.tests = {QStringLiteral("gemm\nSTRATA_WRAPPER_END\ntouch ") + canary() + QStringLiteral("\n")};
        request.injectByNode.insert(QStringLiteral("gpu-node01"), QStringLiteral("bitflip$(touch ") + canary() + QStringLiteral(")"));
        // srun stands in: a function that records it ran, the wrapper then exists until rm.
        const QByteArray script = "srun() { cat \"$wrapper\" > wrapper.copy; }\n"
                                  + BurninJobScript::batchScript(request, 8).toUtf8().replace("#!/bin/sh\n", "");
        const ShellRun r = runSh(script, m_dir.path(), {QStringLiteral("SLURM_JOB_ID=77")});
        QVERIFY2(!QFile::exists(canary()), r.err.constData());
        QCOMPARE(r.exitCode, 0);
        QFile copy(m_dir.filePath(QStringLiteral("wrapper.copy")));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        const QByteArray wrapper = copy.readAll();
        QVERIFY2(wrapper.contains("STRATA_WRAPPER_END\ntouch"), wrapper.constData()); // kept as data, inside quotes
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("strata-burnin-77.sh")))); // removed after
    }
};

QTEST_GUILESS_MAIN(TestBurninJobScript)
#include "tst_burnin_job_script.moc"
