// The remote environment as an attacker writes it (issue 23, finding 1): a variable name that
// starts with '-' became an option of env(1) on the login node (`-S sh -c "..." #` runs
// anything). The command line Strata would send is run by a real local sh, as the login node
// runs it; with a hostile name or command nothing may run and the refusal must say why. The
// same for every builder of such a line: SshRemoteShell, Open shell, the exec plugin's argv.

#include "kubernetes/kube_api_credentials.h"
#include "profile/cluster_profile.h"
#include "session/shell_command.h"
#include "session/shell_target.h"
#include "ssh/shell_quote.h"
#include "ssh/ssh_options.h"
#include "ssh/ssh_remote_shell.h"

#include <QElapsedTimer>
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

ShellRun runSh(const QString &line, const QString &directory)
{
    QProcess p;
    p.setWorkingDirectory(directory);
    p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), line});
    ShellRun r;
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace

class TestAttackRemoteEnvironment : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString marker() const { return m_dir.filePath(QStringLiteral("pwned")); }

private Q_SLOTS:
    void init() { QFile::remove(marker()); }

    void hostileNamesNeverRun_data()
    {
        QTest::addColumn<QString>("name");
        // @M@ is the marker file's path.
        QTest::newRow("env -S") << QStringLiteral("-S sh -c \"touch @M@\" #");
        QTest::newRow("env --split-string") << QStringLiteral("--split-string=sh -c \"touch @M@\" #");
        QTest::newRow("env -u then -S") << QStringLiteral("-uX -S sh -c \"touch @M@\" #");
        QTest::newRow("env -i") << QStringLiteral("-i");
        QTest::newRow("option chdir") << QStringLiteral("-C/");
        QTest::newRow("separator") << QStringLiteral("A;touch @M@;B");
        QTest::newRow("space") << QStringLiteral("A B");
        QTest::newRow("trailing newline") << QStringLiteral("SLURM_CONF\n");
        QTest::newRow("digit first") << QStringLiteral("1X");
        QTest::newRow("empty") << QString();
    }
    void hostileNamesNeverRun()
    {
        QFETCH(QString, name);
        name.replace(QLatin1String("@M@"), marker());
        const ShellQuote::CommandLine line = ShellQuote::withEnvironment(
            {{name, QStringLiteral("v")}, {QStringLiteral("SLURM_CONF"), QStringLiteral("/etc/slurm/slurm.conf")}},
            {QStringLiteral("true")});
        // Whatever came back goes to the real sh, as the login node would run it. First, as env
        // reads options only before its first operand.
        const ShellRun r = runSh(line.text, m_dir.path());
        QVERIFY2(!QFile::exists(marker()), qPrintable(QStringLiteral("ran: %1").arg(line.text)));
        QVERIFY2(!line.ok(), qPrintable(line.text));
        QCOMPARE(line.text, QString());
        QVERIFY2(line.error.contains(QStringLiteral("\"%1\" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)").arg(name)),
                 qPrintable(line.error));
        Q_UNUSED(r);
    }

    void hostileCommandsAreRefused_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("option") << QStringList{QStringLiteral("-S sh -c \"touch @M@\" #")} << QStringLiteral("starts with '-'");
        QTest::newRow("setting") << QStringList{QStringLiteral("X=1"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                QStringLiteral("touch @M@")}
                                 << QStringLiteral("holds '='");
        QTest::newRow("no command") << QStringList{} << QStringLiteral("no command");
        QTest::newRow("empty command") << QStringList{QString()} << QStringLiteral("no command");
    }
    void hostileCommandsAreRefused()
    {
        QFETCH(QStringList, argv);
        QFETCH(QString, mentions);
        for (QString &word : argv)
            word.replace(QLatin1String("@M@"), marker());
        for (const auto &environment : {QList<QPair<QString, QString>>{},
                                        QList<QPair<QString, QString>>{{QStringLiteral("A"), QStringLiteral("1")}}}) {
            const ShellQuote::CommandLine line = ShellQuote::withEnvironment(environment, argv);
            runSh(line.text, m_dir.path());
            QVERIFY2(!QFile::exists(marker()), qPrintable(line.text));
            QVERIFY2(!line.ok(), qPrintable(line.text));
            QVERIFY2(line.error.contains(mentions), qPrintable(line.error));
        }
    }

    // The control: good names reach the command through the real env, after "--".
    void validEnvironmentArrives()
    {
        const ShellQuote::CommandLine line = ShellQuote::withEnvironment(
            {{QStringLiteral("SLURM_CONF"), QStringLiteral("/etc/slurm lab/slurm.conf")}, {QStringLiteral("_X1"), QStringLiteral("-S x")}},
            {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("printf '%s|%s' \"$SLURM_CONF\" \"$_X1\"")});
        QVERIFY2(line.ok(), qPrintable(line.error));
        QVERIFY2(line.text.startsWith(QLatin1String("env -- ")), qPrintable(line.text));
        const ShellRun r = runSh(line.text, m_dir.path());
        QCOMPARE(r.err, QByteArray());
        QCOMPARE(r.out, QByteArray("/etc/slurm lab/slurm.conf|-S x"));
        // What the debug log shows: the names, never the values (they can hold secrets).
        QCOMPARE(line.forLog, QStringLiteral("env -- SLURM_CONF=\u2026 _X1=\u2026 sh -c 'printf '\\''%s|%s'\\'' \"$SLURM_CONF\" \"$_X1\"'"));
    }

    // SshRemoteShell refuses before it connects: a failed command (InvalidRequest) at once,
    // not a connect error nor a line sent. Port 9 on loopback: a connect would fail otherwise.
    void sshRemoteShellRefusesBeforeConnecting()
    {
        ClusterProfile profile;
        profile.name = QStringLiteral("evil");
        profile.sshHost = QStringLiteral("127.0.0.1");
        profile.sshPort = 9;
        profile.connectTimeoutSeconds = 2;
        profile.remoteEnvironment = {{QStringLiteral("-S sh -c \"touch %1\" #").arg(marker()), QStringLiteral("v")}};
        SshRemoteShell shell(SshOptions::fromProfile(profile));
        QElapsedTimer timer;
        timer.start();
        QFuture<CommandResult> future = shell.run({QStringLiteral("sinfo"), QStringLiteral("--version")});
        future.waitForFinished();
        const CommandResult r = future.result();
        QCOMPARE(r.failure, ErrorKind::InvalidRequest);
        QVERIFY2(r.transportError.contains(QStringLiteral("is not an environment variable name")), qPrintable(r.transportError));
        QVERIFY(!r.mayHaveRun);
        QVERIFY2(timer.elapsed() < 1000, "refused without trying to connect");
        QFuture<CommandResult> streamed = shell.stream({QStringLiteral("sleep"), QStringLiteral("1")}, [](const QByteArray &) {}, {});
        streamed.waitForFinished();
        QCOMPARE(streamed.result().failure, ErrorKind::InvalidRequest);
    }

    // Open shell in a Slurm job goes through `ssh LOGIN 'env -- ... srun ...'`.
    void openShellRefusesHostileNames()
    {
        ClusterProfile profile;
        profile.name = QStringLiteral("evil");
        profile.sshHost = QStringLiteral("login.example.org");
        profile.remoteEnvironment = {{QStringLiteral("PATH"), QStringLiteral("/opt/bin:$PATH")},
                                     {QStringLiteral("-S sh -c id #"), QStringLiteral("v")}};
        for (const ShellTarget &target : {ShellTarget::inSlurmJob(QStringLiteral("12")), ShellTarget::onNode(QStringLiteral("gpu-node01")),
                                          ShellTarget::inKubernetes(QStringLiteral("ml"), QStringLiteral("pod"), QStringLiteral("a"))}) {
            const ShellCommand::Result r = ShellCommand::sshArguments(profile, target);
            QVERIFY(!r.ok());
            QCOMPARE(r.errorKind, ErrorKind::InvalidRequest);
            QCOMPARE(r.error, QStringLiteral("profile \"evil\": remoteEnvironment[1].name \"-S sh -c id #\" is not an environment "
                                             "variable name ([A-Za-z_][A-Za-z0-9_]*)"));
            QVERIFY(r.argv.isEmpty());
        }
        profile.remoteEnvironment.removeLast();
        const ShellCommand::Result good = ShellCommand::sshArguments(profile, ShellTarget::inSlurmJob(QStringLiteral("12")));
        QVERIFY2(good.ok(), qPrintable(good.error));
        QVERIFY2(good.argv.last().startsWith(QLatin1String("env -- PATH=/opt/bin:\"${PATH}\" srun ")), qPrintable(good.argv.last()));
    }

    // A kubeconfig's exec plugin runs as `env -- KUBERNETES_EXEC_INFO=... [NAME=V...] COMMAND`.
    void execPluginCommandIsNeverAnOption()
    {
        KubeApiEndpoint endpoint;
        endpoint.userName = QStringLiteral("eve");
        endpoint.server = QStringLiteral("https://10.0.0.1:6443");
        KubeExecPlugin plugin;
        plugin.apiVersion = QStringLiteral("client.authentication.k8s.io/v1");
        plugin.command = QStringLiteral("-S sh -c \"touch %1\" #").arg(marker());
        endpoint.exec = plugin;
        QString error;
        QStringList argv = KubeApiCredentials::execArgv(endpoint, &error);
        runSh(ShellQuote::join(argv), m_dir.path());
        QVERIFY(!QFile::exists(marker()));
        QCOMPARE(argv, QStringList());
        QVERIFY2(error.contains(QStringLiteral("the exec plugin of user \"eve\": the command \"-S sh -c")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("starts with '-', which env would take for an option")), qPrintable(error));

        endpoint.exec->command = QStringLiteral("printenv");
        endpoint.exec->args = {QStringLiteral("PLUGIN_MODE")};
        endpoint.exec->env = {{QStringLiteral("PLUGIN_MODE"), QStringLiteral("-S batch")}};
        error.clear();
        argv = KubeApiCredentials::execArgv(endpoint, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(argv.mid(0, 2), (QStringList{QStringLiteral("env"), QStringLiteral("--")}));
        const ShellRun r = runSh(ShellQuote::join(argv), m_dir.path());
        QCOMPARE(r.out, QByteArray("-S batch\n"));
    }
};

QTEST_GUILESS_MAIN(TestAttackRemoteEnvironment)
#include "tst_attack_remote_environment.moc"
