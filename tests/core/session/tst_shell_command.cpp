// ShellCommand: the argv of "Open shell" for a node, a Slurm job and a Kubernetes pod, the
// terminal template's placeholders, and hostile names: refused when they are names, and when
// they are values (paths, the remote environment) passed through the real sh with stand-in
// ssh/srun/kubectl programs that record what they received, so nothing else can run.

#include "session/shell_command.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

ClusterProfile lab()
{
    ClusterProfile p;
    p.name = QStringLiteral("lab");
    p.sshHost = QStringLiteral("login.example.org");
    p.sshPort = 2222;
    p.sshUser = QStringLiteral("alice");
    return p;
}

// Writes stand-ins for ssh, srun and kubectl that print each argument on its own line
// (NUL-separated) into DIR/NAME.args, and nothing else.
void writeRecorders(const QString &dir)
{
    for (const QString &name : {QStringLiteral("ssh"), QStringLiteral("srun"), QStringLiteral("kubectl")}) {
        QFile f(dir + QLatin1Char('/') + name);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > \"$(dirname \"$0\")/" + name.toUtf8()
                + ".args\"\n");
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
}

QStringList recorded(const QString &dir, const QString &name)
{
    QFile f(dir + QLatin1Char('/') + name + QStringLiteral(".args"));
    if (!f.open(QIODevice::ReadOnly))
        return {QStringLiteral("<not run>")};
    QStringList args = QString::fromUtf8(f.readAll()).split(QChar(0));
    args.removeLast(); // after the last NUL
    return args;
}

// Runs `sh -c SCRIPT` with the recorders first on PATH, in dir (so a stray `touch` lands there).
void runSh(const QString &dir, const QString &script)
{
    QProcess sh;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), dir + QStringLiteral(":/usr/bin:/bin"));
    sh.setProcessEnvironment(env);
    sh.setWorkingDirectory(dir);
    sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script});
    QVERIFY(sh.waitForFinished(10000));
}

// What ssh does with a ProxyCommand: %-tokens expanded, then `sh -c "exec CMD"`.
QString expandProxy(QString proxy, const QString &host, int port)
{
    QString out;
    for (qsizetype i = 0; i < proxy.size(); ++i) {
        if (proxy[i] == QLatin1Char('%') && i + 1 < proxy.size()) {
            const QChar t = proxy[++i];
            out += t == QLatin1Char('h') ? host : t == QLatin1Char('p') ? QString::number(port) : QString(t);
        } else {
            out += proxy[i];
        }
    }
    return QStringLiteral("exec ") + out;
}

} // namespace

class TestShellCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodeGoesThroughTheLoginNode()
    {
        ClusterProfile p = lab();
        p.identityFile = QStringLiteral("/home/alice/.ssh/id_ed25519");
        p.knownHostsFile = QStringLiteral("/home/alice/cluster known_hosts");
        const auto r = ShellCommand::sshArguments(p, ShellTarget::onNode(QStringLiteral("gpu-node01")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QStringList common = {QStringLiteral("-l"), QStringLiteral("alice"), QStringLiteral("-i"),
                                    QStringLiteral("/home/alice/.ssh/id_ed25519"), QStringLiteral("-o"),
                                    QStringLiteral("UserKnownHostsFile=\"/home/alice/cluster known_hosts\"")};
        QCOMPARE(r.argv,
                 (QStringList{QStringLiteral("ssh")} + common
                     + QStringList{QStringLiteral("-o"),
                                   QStringLiteral("ProxyCommand=ssh -l alice -i /home/alice/.ssh/id_ed25519 -o "
                                                  "'UserKnownHostsFile=\"/home/alice/cluster known_hosts\"' -p 2222 "
                                                  "-W %h:%p -- login.example.org"),
                                   QStringLiteral("-p"), QStringLiteral("22"), QStringLiteral("-t"),
                                   QStringLiteral("--"), QStringLiteral("gpu-node01")}));
    }

    void slurmJobRunsSrunOverlap()
    {
        ClusterProfile p = lab();
        p.remoteEnvironment = {{QStringLiteral("SLURM_CONF"), QStringLiteral("/etc/slurm lab/slurm.conf")}};
        const auto r = ShellCommand::sshArguments(p, ShellTarget::inSlurmJob(QStringLiteral("1234_7"),
                                                                             QStringLiteral("gpu-node02")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.argv, (QStringList{QStringLiteral("ssh"), QStringLiteral("-l"), QStringLiteral("alice"),
                                      QStringLiteral("-p"), QStringLiteral("2222"), QStringLiteral("-t"),
                                      QStringLiteral("--"), QStringLiteral("login.example.org"),
                                      QStringLiteral("env -- SLURM_CONF='/etc/slurm lab/slurm.conf' srun "
                                                     "--jobid=1234_7 --overlap --nodes=1 --ntasks=1 "
                                                     "--nodelist=gpu-node02 --pty bash")}));
    }

    void podRunsKubectlExec()
    {
        ClusterProfile p = lab();
        p.kubeContext = QStringLiteral("prod ctx");
        ShellTarget t = ShellTarget::inKubernetes(QStringLiteral("ml"), QStringLiteral("pod"), QStringLiteral("train-0"));
        t.container = QStringLiteral("worker");
        const auto r = ShellCommand::sshArguments(p, t);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.argv.last(), QStringLiteral("kubectl --context 'prod ctx' exec -it -n ml pod/train-0 -c worker -- "
                                               "sh -c 'command -v bash >/dev/null 2>&1 && exec bash; exec sh'"));
        QVERIFY(r.argv.contains(QStringLiteral("-t")));
        const auto job = ShellCommand::sshArguments(
            p, ShellTarget::inKubernetes(QStringLiteral("ml"), QStringLiteral("job"), QStringLiteral("eval")));
        QVERIFY(job.argv.last().contains(QStringLiteral(" job/eval ")));
    }

    void aCommandInsteadOfAShellHasNoTerminal()
    {
        ShellCommand::Options o;
        o.command = {QStringLiteral("printenv"), QStringLiteral("SLURMD_NODENAME")};
        o.batchMode = true;
        const auto r = ShellCommand::sshArguments(lab(), ShellTarget::inSlurmJob(QStringLiteral("42")), o);
        QVERIFY(!r.argv.contains(QStringLiteral("-t")));
        QVERIFY(r.argv.contains(QStringLiteral("BatchMode=yes")));
        QCOMPARE(r.argv.last(), QStringLiteral("srun --jobid=42 --overlap --nodes=1 --ntasks=1 printenv SLURMD_NODENAME"));
        const auto node = ShellCommand::sshArguments(lab(), ShellTarget::onNode(QStringLiteral("gpu-node01")), o);
        QCOMPARE(node.argv.mid(node.argv.size() - 3),
                 (QStringList{QStringLiteral("--"), QStringLiteral("gpu-node01"), QStringLiteral("printenv SLURMD_NODENAME")}));
    }

    void hostileNamesAreRefused_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        const int node = int(ShellTarget::Kind::Node), job = int(ShellTarget::Kind::SlurmJob),
                  pod = int(ShellTarget::Kind::KubernetesWorkload);
        QTest::newRow("node option") << node << QStringLiteral("-oProxyCommand=touch pwned");
        QTest::newRow("node substitution") << node << QStringLiteral("gpu$(touch pwned)");
        QTest::newRow("node backticks") << node << QStringLiteral("gpu`touch pwned`");
        QTest::newRow("node semicolon") << node << QStringLiteral("gpu;touch pwned");
        QTest::newRow("node newline") << node << QStringLiteral("gpu\ntouch pwned");
        QTest::newRow("node percent") << node << QStringLiteral("gpu%h");
        QTest::newRow("node space") << node << QStringLiteral("gpu node");
        QTest::newRow("node quote") << node << QStringLiteral("gpu'node");
        QTest::newRow("node empty") << node << QString();
        QTest::newRow("job substitution") << job << QStringLiteral("1$(touch pwned)");
        QTest::newRow("job option") << job << QStringLiteral("--uid=0");
        QTest::newRow("job words") << job << QStringLiteral("1 --pty sh");
        QTest::newRow("job empty") << job << QString();
        QTest::newRow("pod path") << pod << QStringLiteral("../../etc");
        QTest::newRow("pod upper") << pod << QStringLiteral("Train");
        QTest::newRow("pod option") << pod << QStringLiteral("-it");
        QTest::newRow("pod substitution") << pod << QStringLiteral("a$(touch pwned)");
    }

    void hostileNamesAreRefused()
    {
        QFETCH(int, kind);
        QFETCH(QString, name);
        ShellTarget t;
        switch (ShellTarget::Kind(kind)) {
        case ShellTarget::Kind::Node: t = ShellTarget::onNode(name); break;
        case ShellTarget::Kind::SlurmJob: t = ShellTarget::inSlurmJob(name); break;
        case ShellTarget::Kind::KubernetesWorkload: t = ShellTarget::inKubernetes(QStringLiteral("ml"), QStringLiteral("pod"), name); break;
        }
        const auto r = ShellCommand::sshArguments(lab(), t);
        QVERIFY(!r.ok());
        QCOMPARE(r.errorKind, ErrorKind::InvalidRequest);
        QVERIFY(r.argv.isEmpty());
        QVERIFY2(r.error.contains(name) || name.isEmpty() || name.contains(QLatin1Char('\n')), qPrintable(r.error));
    }

    void hostileProfilesAreRefused_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("login option") << "host" << "-oProxyCommand=touch pwned";
        QTest::newRow("login substitution") << "host" << "login$(touch pwned)";
        QTest::newRow("user option") << "user" << "-oProxyCommand=x";
        QTest::newRow("user semicolon") << "user" << "alice;touch pwned";
        QTest::newRow("identity newline") << "identity" << "/tmp/id\nProxyCommand touch pwned";
        QTest::newRow("known_hosts quote") << "knownHosts" << "/tmp/k\" -oProxyCommand=\"touch pwned";
        QTest::newRow("env key") << "envKey" << "A;touch pwned";
        QTest::newRow("context newline") << "context" << "c\ntouch pwned";
    }

    void hostileProfilesAreRefused()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        ClusterProfile p = lab();
        if (field == QLatin1String("host")) p.sshHost = value;
        if (field == QLatin1String("user")) p.sshUser = value;
        if (field == QLatin1String("identity")) p.identityFile = value;
        if (field == QLatin1String("knownHosts")) p.knownHostsFile = value;
        if (field == QLatin1String("envKey")) p.remoteEnvironment = {{value, QStringLiteral("1")}};
        if (field == QLatin1String("context")) p.kubeContext = value;
        const ShellTarget t = field == QLatin1String("context")
            ? ShellTarget::inKubernetes(QStringLiteral("ml"), QStringLiteral("pod"), QStringLiteral("a"))
            : ShellTarget::onNode(QStringLiteral("gpu-node01"));
        const auto r = ShellCommand::sshArguments(p, t);
        QVERIFY(!r.ok());
        QCOMPARE(r.errorKind, ErrorKind::InvalidRequest);
    }

    // Values that are allowed (paths, the remote environment, the context) go through the real
    // sh exactly as ssh would hand them to it, and arrive as the same bytes; nothing runs.
    void hostileValuesArriveIntactThroughSh()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeRecorders(dir.path());
        ClusterProfile p = lab();
        p.identityFile = QStringLiteral("/tmp/it's $(touch pwned) `touch pwned` 100%h;touch pwned");
        p.remoteEnvironment = {{QStringLiteral("SLURM_CONF"), QStringLiteral("/x';touch pwned;'$(touch pwned)")},
                               {QStringLiteral("PATH"), QStringLiteral("/opt/slurm/bin:$PATH")}};
        p.kubeContext = QStringLiteral("ctx'; touch pwned; `touch pwned`");

        const auto node = ShellCommand::sshArguments(p, ShellTarget::onNode(QStringLiteral("gpu-node01"), 22));
        QVERIFY2(node.ok(), qPrintable(node.error));
        QString proxy;
        for (const QString &a : node.argv)
            if (a.startsWith(QLatin1String("ProxyCommand=")))
                proxy = a.mid(13);
        runSh(dir.path(), expandProxy(proxy, QStringLiteral("gpu-node01"), 22));
        QCOMPARE(recorded(dir.path(), QStringLiteral("ssh")),
                 (QStringList{QStringLiteral("-l"), QStringLiteral("alice"), QStringLiteral("-i"), p.identityFile,
                              QStringLiteral("-p"), QStringLiteral("2222"), QStringLiteral("-W"),
                              QStringLiteral("gpu-node01:22"), QStringLiteral("--"), QStringLiteral("login.example.org")}));

        // The login node's shell runs the remote command line: env, then srun / kubectl.
        const auto job = ShellCommand::sshArguments(p, ShellTarget::inSlurmJob(QStringLiteral("7")));
        runSh(dir.path(), job.argv.last());
        QCOMPARE(recorded(dir.path(), QStringLiteral("srun")),
                 (QStringList{QStringLiteral("--jobid=7"), QStringLiteral("--overlap"), QStringLiteral("--nodes=1"),
                              QStringLiteral("--ntasks=1"), QStringLiteral("--pty"), QStringLiteral("bash")}));
        const auto pod = ShellCommand::sshArguments(
            p, ShellTarget::inKubernetes(QStringLiteral("ml"), QStringLiteral("pod"), QStringLiteral("train-0")));
        runSh(dir.path(), pod.argv.last());
        const QStringList kubectl = recorded(dir.path(), QStringLiteral("kubectl"));
        QCOMPARE(kubectl.value(0), QStringLiteral("--context"));
        QCOMPARE(kubectl.value(1), p.kubeContext);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("pwned"))));
    }

    void terminalPlaceholders_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QStringList>("expected");
        const QStringList cmd = {QStringLiteral("ssh"), QStringLiteral("-t"), QStringLiteral("--"), QStringLiteral("gpu-node01")};
        QTest::newRow("words") << "xterm -T {title} -e {command}"
                               << (QStringList{QStringLiteral("xterm"), QStringLiteral("-T"), QStringLiteral("lab: gpu-node01"), QStringLiteral("-e")} + cmd);
        QTest::newRow("gnome") << "gnome-terminal --title {title} -- {command}"
                               << (QStringList{QStringLiteral("gnome-terminal"), QStringLiteral("--title"), QStringLiteral("lab: gpu-node01"), QStringLiteral("--")} + cmd);
        QTest::newRow("inside a script") << "konsole -e sh -c \"{command}; read x\""
                                         << QStringList{QStringLiteral("konsole"), QStringLiteral("-e"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                        QStringLiteral("ssh -t -- gpu-node01; read x")};
        QTest::newRow("single quotes") << "st -t '{title}' -e sh -c 'exec {command}'"
                                       << QStringList{QStringLiteral("st"), QStringLiteral("-t"), QStringLiteral("'lab: gpu-node01'"),
                                                      QStringLiteral("-e"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                      QStringLiteral("exec ssh -t -- gpu-node01")};
        QTest::newRow("empty is the default") << "" << (QStringList{QStringLiteral("xterm"), QStringLiteral("-T"), QStringLiteral("lab: gpu-node01"), QStringLiteral("-e")} + cmd);
    }

    void terminalPlaceholders()
    {
        QFETCH(QString, pattern);
        QFETCH(QStringList, expected);
        const QStringList cmd = {QStringLiteral("ssh"), QStringLiteral("-t"), QStringLiteral("--"), QStringLiteral("gpu-node01")};
        const auto r = ShellCommand::terminalArguments(pattern, cmd, QStringLiteral("lab: gpu-node01"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.argv, expected);
    }

    void terminalTemplateWithoutCommandIsRefused()
    {
        const auto unterminated = ShellCommand::terminalArguments(QStringLiteral("xterm -e \"{command}"), {QStringLiteral("ssh")}, {});
        QVERIFY(!unterminated.ok());
        QCOMPARE(unterminated.errorKind, ErrorKind::InvalidRequest);
        const auto r = ShellCommand::terminalArguments(QStringLiteral("xterm -hold"), {QStringLiteral("ssh")}, {});
        QVERIFY(!r.ok());
        QCOMPARE(r.errorKind, ErrorKind::InvalidRequest);
        QVERIFY(r.error.contains(QStringLiteral("{command}")));
    }

    // A substituted value that looks like a placeholder is never substituted again, and inside a
    // `sh -c` script it is one quoted word.
    void substitutedTextIsNotReadAgain()
    {
        QTemporaryDir dir;
        const QStringList cmd = {QStringLiteral("printf"), QStringLiteral("%s\\n"), QStringLiteral("{title} $(touch pwned)")};
        const auto r = ShellCommand::terminalArguments(QStringLiteral("sh -c \"{command}\""), cmd, QStringLiteral("x'; touch pwned; '"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QProcess sh;
        sh.setWorkingDirectory(dir.path());
        sh.start(r.argv.first(), r.argv.mid(1));
        QVERIFY(sh.waitForFinished(10000));
        QCOMPARE(sh.readAllStandardOutput(), QByteArray("{title} $(touch pwned)\n"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("pwned"))));
    }

    void defaultTerminal()
    {
        const auto none = [](const QString &) { return false; };
        const auto debian = [](const QString &p) { return p == QLatin1String("x-terminal-emulator"); };
        QCOMPARE(ShellCommand::defaultTemplate(QStringLiteral("foot"), debian), QStringLiteral("foot -e {command}"));
        QCOMPARE(ShellCommand::defaultTemplate({}, debian), QStringLiteral("x-terminal-emulator -T {title} -e {command}"));
        QCOMPARE(ShellCommand::defaultTemplate({}, none), QStringLiteral("xterm -T {title} -e {command}"));
    }
};

QTEST_GUILESS_MAIN(TestShellCommand)
#include "tst_shell_command.moc"
