// The ways AWS and HPC sites let people log in (issue 25), each against real OpenSSH sshds that
// the test starts on free loopback ports (tests/attack/private_sshd.h; root and /usr/sbin/sshd,
// else QSKIP): a ProxyCommand (SageMaker HyperPod's route is `aws ssm start-session` there; here
// the OpenSSH client's -W through a second sshd), a ProxyJump chain of two jump hosts, a failing
// and a silent ProxyCommand, a user certificate signed by a CA the host trusts (no
// authorized_keys), keyboard-interactive through PAM with the answers from a prompter (alone and
// after a key, as MFA sites ask), and the CLI without a terminal. GSSAPI: tst_ssh_gssapi.

#include "private_sshd.h"

#include "ssh/login_prompter.h"
#include "ssh/ssh_session.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

using namespace strata;

namespace {

const QString kKbdUser = QStringLiteral("strata_kbd_test");
const QString kKbdPassword = QStringLiteral("Kbd-test-4711");

// Answers each question with what the test set, and keeps what was asked.
class ScriptedPrompter : public LoginPrompter
{
public:
    explicit ScriptedPrompter(QStringList answers) : m_answers(std::move(answers)) {}
    LoginAnswers answer(const LoginChallenge &challenge) override
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_asked << challenge;
        QStringList given;
        for (int i = 0; i < challenge.prompts.size(); ++i)
            given << m_answers.value(i);
        return LoginAnswers::given(given);
    }
    QVector<LoginChallenge> asked()
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_asked;
    }

private:
    std::mutex m_mutex;
    QStringList m_answers;
    QVector<LoginChallenge> m_asked;
};

bool run(const QString &program, const QStringList &arguments, const QByteArray &input = {})
{
    QProcess p;
    p.start(program, arguments);
    if (!p.waitForStarted(5000))
        return false;
    p.write(input);
    p.closeWriteChannel();
    return p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

bool keygen(const QString &path)
{
    return run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                              QStringLiteral("-N"), QString(), QStringLiteral("-f"), path});
}

bool appendFile(const QString &from, const QString &to)
{
    QFile in(from), out(to);
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::Append))
        return false;
    return out.write(in.readAll()) > 0;
}

bool writeFile(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) == text.toUtf8().size();
}

// Options for the ssh client that carries a hop: the test's key, no known_hosts, no prompts.
QString hopOptions(const QString &key)
{
    return QStringLiteral("  IdentityFile %1\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n"
                          "  UserKnownHostsFile /dev/null\n  BatchMode yes\n  LogLevel ERROR\n")
        .arg(key);
}

} // namespace

class TestSshLogins : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    SshOptions options(const QString &host, const QString &configFile, const QString &identity)
    {
        SshOptions o;
        o.host = host;
        o.sshConfigFile = configFile;
        o.identityFile = identity;
        o.knownHostsFile = m_dir.filePath(QStringLiteral("known_hosts"));
        o.acceptNewHostKey = true;
        o.connectTimeoutSeconds = 10;
        return o;
    }

    static QString whoAmI(SshSession &session)
    {
        const CommandResult r = session.exec(QStringLiteral("id -un"), {});
        return r.ok() ? QString::fromUtf8(r.stdoutData).trimmed() : QStringLiteral("failed: ") + r.errorText();
    }

    // A throw-away local user with a known password, for PAM's password question; gone after.
    static QString addKbdUser()
    {
        run(QStringLiteral("userdel"), {kKbdUser}); // left over from a run that was killed
        if (!run(QStringLiteral("useradd"), {QStringLiteral("-M"), QStringLiteral("-d"), QStringLiteral("/tmp"),
                                             QStringLiteral("-s"), QStringLiteral("/bin/sh"), kKbdUser}))
            return QStringLiteral("useradd failed");
        if (!run(QStringLiteral("chpasswd"), {}, (kKbdUser + QLatin1Char(':') + kKbdPassword + QLatin1Char('\n')).toUtf8()))
            return QStringLiteral("chpasswd failed");
        return {};
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void cleanupTestCase() { run(QStringLiteral("userdel"), {kKbdUser}); }

    void proxyCommandThroughAJumpSshd()
    {
        test::PrivateSshd jump, target;
        const QString why = target.start();
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        QVERIFY2(jump.start().isEmpty(), "jump sshd");
        const QString key = target.path(QStringLiteral("id_ed25519"));
        QVERIFY(appendFile(key + QStringLiteral(".pub"), jump.path(QStringLiteral("authorized_keys"))));
        const QString mark = m_dir.filePath(QStringLiteral("tokens"));
        const QString config = m_dir.filePath(QStringLiteral("proxy_command_config"));
        // %n %r %h %p %% as ssh expands them, written down by the command before it execs ssh -W.
        QVERIFY(writeFile(config, QStringLiteral("Host login-via-ssm\n  HostName 127.0.0.1\n  Port %1\n  User root\n"
                                                 "  ProxyCommand sh -c 'echo %n %r %h %p %% > %2; exec ssh -F /dev/null -i %3 "
                                                 "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes "
                                                 "-o LogLevel=ERROR -p %4 -W %h:%p root@127.0.0.1'\n")
                                      .arg(target.port()).arg(mark, key).arg(jump.port())));
        SshSession session(options(QStringLiteral("login-via-ssm"), config, key));
        const CommandResult connected = session.connect();
        QVERIFY2(connected.ran(), qPrintable(connected.transportError));
        QCOMPARE(whoAmI(session), QStringLiteral("root"));
        QFile tokens(mark);
        QVERIFY(tokens.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(tokens.readAll()).trimmed(),
                 QStringLiteral("login-via-ssm root 127.0.0.1 %1 %").arg(target.port()));
        QVERIFY2(jump.log().contains(QStringLiteral("Accepted publickey for root")), qPrintable(jump.log()));
        session.disconnect();
    }

    void proxyJumpChain()
    {
        test::PrivateSshd first, second, target;
        const QString why = target.start();
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        QVERIFY(first.start().isEmpty());
        QVERIFY(second.start().isEmpty());
        const QString key = target.path(QStringLiteral("id_ed25519"));
        for (test::PrivateSshd *hop : {&first, &second})
            QVERIFY(appendFile(key + QStringLiteral(".pub"), hop->path(QStringLiteral("authorized_keys"))));
        const QString config = m_dir.filePath(QStringLiteral("proxy_jump_config"));
        // The first hop by alias, the second in the user@host:port form; every hop reads this
        // file (-F), as ssh passes its -F on.
        QVERIFY(writeFile(config, QStringLiteral("Host behind-two\n  HostName 127.0.0.1\n  Port %1\n  User root\n"
                                                 "  ProxyJump bastion,root@127.0.0.1:%2\n"
                                                 "Host bastion\n  HostName 127.0.0.1\n  Port %3\n  User root\n"
                                                 "Host bastion 127.0.0.1\n%4")
                                      .arg(target.port()).arg(second.port()).arg(first.port()).arg(hopOptions(key))));
        SshSession session(options(QStringLiteral("behind-two"), config, key));
        const CommandResult connected = session.connect();
        QVERIFY2(connected.ran(), qPrintable(connected.transportError));
        QCOMPARE(whoAmI(session), QStringLiteral("root"));
        QVERIFY2(first.log().contains(QStringLiteral("Accepted publickey for root")), qPrintable(first.log()));
        QVERIFY2(second.log().contains(QStringLiteral("Accepted publickey for root")), qPrintable(second.log()));
    }

    void failingProxyCommandSaysWhy_data()
    {
        QTest::addColumn<QString>("proxyCommand");
        QTest::addColumn<ErrorKind>("kind");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("exits with its reason on stderr")
            << "sh -c 'echo \"An error occurred (TargetNotConnected) when calling the StartSession operation\" >&2; exit 254'"
            << ErrorKind::ConnectFailed << QStringList{"TargetNotConnected", "exited with status 254", "ProxyCommand"};
        QTest::newRow("not found") << "/nonexistent/aws ssm start-session --target %h"
                                   << ErrorKind::ConnectFailed << QStringList{"/nonexistent/aws", "exited with status 127"};
        QTest::newRow("never speaks: the connect timeout, not a hang")
            << "sleep 60" << ErrorKind::Timeout << QStringList{"sleep 60"};
        QTest::newRow("unknown token") << "nc %h %x" << ErrorKind::ConnectFailed << QStringList{"unknown token %x"};
    }
    void failingProxyCommandSaysWhy()
    {
        QFETCH(QString, proxyCommand);
        QFETCH(ErrorKind, kind);
        QFETCH(QStringList, words);
        const QString config = m_dir.filePath(QStringLiteral("failing_proxy_config"));
        QVERIFY(writeFile(config, QStringLiteral("Host hyperpod\n  HostName sagemaker-cluster:abc_ip-10-1-2-3\n"
                                                 "  User ubuntu\n  ProxyCommand %1\n").arg(proxyCommand)));
        SshOptions o = options(QStringLiteral("hyperpod"), config, QString());
        o.connectTimeoutSeconds = 3;
        SshSession session(o);
        QElapsedTimer clock;
        clock.start();
        const CommandResult r = session.connect();
        qInfo() << r.transportError;
        QCOMPARE(r.failure, kind);
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        for (const QString &word : words)
            QVERIFY2(r.transportError.contains(word), qPrintable(r.transportError));
    }

    void certificateLogin_data()
    {
        QTest::addColumn<QString>("certificatePlace"); // "beside", "config", "none"
        QTest::addColumn<bool>("loggedIn");
        QTest::newRow("id-cert.pub beside the key") << "beside" << true;
        QTest::newRow("CertificateFile in the config") << "config" << true;
        QTest::newRow("no certificate: refused (no authorized_keys)") << "none" << false;
    }
    void certificateLogin()
    {
        QFETCH(QString, certificatePlace);
        QFETCH(bool, loggedIn);
        QTemporaryDir keys;
        const QString ca = keys.filePath(QStringLiteral("ca"));
        const QString user = keys.filePath(QStringLiteral("id_ed25519"));
        if (!keygen(ca) || !keygen(user))
            QSKIP("ssh-keygen failed");
        test::PrivateSshd target;
        const QString why = target.start({QStringLiteral("TrustedUserCAKeys %1.pub").arg(ca), QStringLiteral("AuthorizedKeysFile none")});
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        QVERIFY(run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-s"), ca, QStringLiteral("-I"),
                                                   QStringLiteral("strata-test"), QStringLiteral("-n"), QStringLiteral("root"),
                                                   QStringLiteral("-V"), QStringLiteral("+1h"), user + QStringLiteral(".pub")}));
        QString configLines;
        if (certificatePlace == QLatin1String("config")) {
            QVERIFY(QFile::rename(user + QStringLiteral("-cert.pub"), keys.filePath(QStringLiteral("issued.cert"))));
            configLines = QStringLiteral("  CertificateFile %1\n").arg(keys.filePath(QStringLiteral("issued.cert")));
        } else if (certificatePlace == QLatin1String("none")) {
            QVERIFY(QFile::remove(user + QStringLiteral("-cert.pub")));
        }
        const QString config = keys.filePath(QStringLiteral("config"));
        QVERIFY(writeFile(config, QStringLiteral("Host certified\n  HostName 127.0.0.1\n  Port %1\n  User root\n%2")
                                      .arg(target.port()).arg(configLines)));
        SshSession session(options(QStringLiteral("certified"), config, user));
        const CommandResult r = session.connect();
        if (loggedIn) {
            QVERIFY2(r.ran(), qPrintable(r.transportError));
            QCOMPARE(whoAmI(session), QStringLiteral("root"));
            QVERIFY2(target.log().contains(QStringLiteral("Accepted publickey for root")) && target.log().contains(QStringLiteral("ID strata-test")),
                     qPrintable(target.log()));
        } else {
            QCOMPARE(r.failure, ErrorKind::AuthenticationFailed);
            QVERIFY2(r.transportError.contains(user), qPrintable(r.transportError));
        }
    }

    void keyboardInteractive_data()
    {
        QTest::addColumn<QString>("methods"); // sshd's AuthenticationMethods
        QTest::addColumn<QString>("answer");  // "" : no prompter at all
        QTest::addColumn<ErrorKind>("kind");
        QTest::newRow("password through PAM") << "keyboard-interactive" << kKbdPassword << ErrorKind::None;
        QTest::newRow("key, then PAM (MFA)") << "publickey,keyboard-interactive" << kKbdPassword << ErrorKind::None;
        QTest::newRow("wrong answer") << "keyboard-interactive" << "guess" << ErrorKind::AuthenticationFailed;
        QTest::newRow("nobody to ask") << "keyboard-interactive" << "" << ErrorKind::LoginPromptUnavailable;
    }
    void keyboardInteractive()
    {
        QFETCH(QString, methods);
        QFETCH(QString, answer);
        QFETCH(ErrorKind, kind);
        test::PrivateSshd target;
        const QString why = target.start({QStringLiteral("UsePAM yes"), QStringLiteral("KbdInteractiveAuthentication yes"),
                                          QStringLiteral("AuthenticationMethods %1").arg(methods)});
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        const QString added = addKbdUser();
        if (!added.isEmpty())
            QSKIP(qPrintable(added));
        // sshd reads AuthorizedKeysFile as the user who logs in.
        QVERIFY(QFile::setPermissions(target.path(QString()), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                                              | QFile::ReadOther | QFile::ExeOther));
        QVERIFY(QFile::setPermissions(target.path(QStringLiteral("authorized_keys")), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
        SshOptions o = options(QStringLiteral("127.0.0.1"), QString(), target.path(QStringLiteral("id_ed25519")));
        o.readSshConfig = false;
        o.port = target.port();
        o.user = kKbdUser;
        std::shared_ptr<ScriptedPrompter> prompter;
        if (!answer.isEmpty()) {
            prompter = std::make_shared<ScriptedPrompter>(QStringList{answer});
            o.loginPrompter = prompter;
        }
        SshSession session(o);
        const CommandResult r = session.connect();
        QCOMPARE(r.failure, kind);
        if (kind == ErrorKind::None)
            QCOMPARE(whoAmI(session), kKbdUser);
        else
            QVERIFY2(r.transportError.contains(QStringLiteral("keyboard-interactive")), qPrintable(r.transportError));
        if (kind == ErrorKind::LoginPromptUnavailable)
            QVERIFY2(r.transportError.contains(QStringLiteral("Password")), qPrintable(r.transportError));
        if (prompter) {
            const QVector<LoginChallenge> asked = prompter->asked();
            QVERIFY(!asked.isEmpty());
            QCOMPARE(asked.first().method, QStringLiteral("keyboard-interactive"));
            QCOMPARE(asked.first().prompts.size(), 1);
            QVERIFY2(asked.first().prompts.first().text.contains(QStringLiteral("Password")), qPrintable(asked.first().prompts.first().text));
            QVERIFY(!asked.first().prompts.first().echo);
        }
    }

    void cliWithoutTerminalSaysSoAtOnce()
    {
        test::PrivateSshd target;
        const QString why = target.start({QStringLiteral("UsePAM yes"), QStringLiteral("KbdInteractiveAuthentication yes"),
                                          QStringLiteral("AuthenticationMethods keyboard-interactive")});
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        const QString added = addKbdUser();
        if (!added.isEmpty())
            QSKIP(qPrintable(added));
        QStringList arguments{QStringLiteral("snapshot")};
        arguments << target.cliArguments();
        arguments.replaceInStrings(QStringLiteral("root@127.0.0.1"), kKbdUser + QStringLiteral("@127.0.0.1"));
        QProcess cli;
        cli.setStandardInputFile(QProcess::nullDevice()); // not a terminal
        QElapsedTimer clock;
        clock.start();
        cli.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata"), arguments);
        QVERIFY(cli.waitForFinished(30000));
        QVERIFY2(clock.elapsed() < 20000, "the CLI waited for an answer");
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        qInfo().noquote() << err;
        QVERIFY2(cli.exitCode() != 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("keyboard-interactive")) && err.contains(QStringLiteral("not a terminal")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestSshLogins)
#include "tst_ssh_logins.moc"
