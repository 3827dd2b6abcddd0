// ~/.ssh/config reading (SshConfigParser, SshConfigLoader) on config files kept under
// tests/data/ssh/, with OpenSSH's own `ssh -G` as the reference for what each host resolves to.

#include "ssh/ssh_config_loader.h"
#include "ssh/ssh_config_parser.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

const QString kHome = QStringLiteral("/home/alice");

QString fixturePath(const QString &name)
{
    return QStringLiteral(STRATA_TEST_DATA "/ssh/") + name;
}

SshConfigLoader::Result load(const QString &name, const QString &home = kHome, const QString &user = QStringLiteral("alice"))
{
    return SshConfigLoader::load(fixturePath(name) + QStringLiteral("/config"), fixturePath(name), home, user);
}

QStringList aliases(const QVector<SshConfigHost> &hosts)
{
    QStringList names;
    for (const SshConfigHost &h : hosts)
        names << h.alias;
    return names;
}

QStringList noteTexts(const QVector<SshConfigNote> &notes)
{
    QStringList texts;
    for (const SshConfigNote &n : notes)
        texts << QStringLiteral("%1:%2").arg(QFileInfo(n.file).fileName()).arg(n.line) + QLatin1Char(' ') + n.text;
    return texts;
}

} // namespace

class TestSshConfigParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hostsInFileOrder_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("basic") << "basic" << QStringList{"login-a100", "bastion", "gpu-internal"};
        QTest::newRow("wildcards are not hosts") << "wildcards"
                                                 << QStringList{"train", "train.corp.example.com", "legacy.corp.example.com", "dgx-01", "dgx-02"};
        QTest::newRow("match") << "match" << QStringList{"jumpbox"};
        QTest::newRow("include in glob order, README not *.conf") << "include" << QStringList{"lab", "other", "main", "inner"};
    }
    void hostsInFileOrder()
    {
        QFETCH(QString, fixture);
        QFETCH(QStringList, expected);
        const SshConfigLoader::Result r = load(fixture);
        QVERIFY(r.found);
        QCOMPARE(aliases(r.hosts), expected);
    }

    void resolve_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("alias");
        QTest::addColumn<QString>("hostName");
        QTest::addColumn<QString>("user");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("identity");
        QTest::addColumn<QString>("proxyJump");
        QTest::newRow("all four") << "basic" << "login-a100" << "a100-login.hpc.example.edu" << "alice" << 2222
                                  << "/home/alice/.ssh/id_ed25519_hpc" << "";
        QTest::newRow("no port, no key") << "basic" << "bastion" << "bastion.example.edu" << "alice" << 0 << "" << "";
        QTest::newRow("Key=Value, quoted blank, ProxyJump") << "basic" << "gpu-internal" << "10.20.0.5" << "ops" << 0
                                                           << "/home/alice/.ssh/keys/ops key" << "bastion";
        QTest::newRow("Host * gives the user") << "wildcards" << "train" << "" << "fallback" << 2200 << "" << "";
        QTest::newRow("*.corp first, %h in IdentityFile") << "wildcards" << "train.corp.example.com" << "" << "corpuser" << 2200
                                                          << "/home/alice/.ssh/id_corp_train.corp.example.com" << "";
        QTest::newRow("!negated pattern") << "wildcards" << "legacy.corp.example.com" << "" << "fallback" << 2200 << "" << "";
        QTest::newRow("? wildcard, %h in HostName, ProxyJump none first")
            << "wildcards" << "dgx-01" << "dgx-01.cluster.local" << "dgx" << 22 << "" << "";
        QTest::newRow("Match blocks skipped") << "match" << "jumpbox" << "jump.example.org" << "plain" << 0 << "" << "";
        QTest::newRow("included file, later include adds user") << "include" << "lab" << "127.0.0.1" << "bob" << 22022 << "" << "";
        QTest::newRow("second included file") << "include" << "other" << "" << "bob" << 0 << "" << "";
        QTest::newRow("top file after includes") << "include" << "main" << "main.example.net" << "" << 0 << "" << "";
        QTest::newRow("Include inside Host applies to it") << "include" << "inner" << "inner.example.net" << "innerUser" << 2022 << "" << "";
    }
    void resolve()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, alias);
        const SshConfigLoader::Result r = load(fixture);
        const auto it = std::find_if(r.hosts.begin(), r.hosts.end(), [&](const SshConfigHost &h) { return h.alias == alias; });
        QVERIFY2(it != r.hosts.end(), qPrintable(aliases(r.hosts).join(u' ')));
        QTEST(it->hostName, "hostName");
        QTEST(it->user, "user");
        QTEST(it->port, "port");
        QTEST(it->identityFile, "identity");
        QTEST(it->proxyJump, "proxyJump");
    }

    // The login options of names typed in a profile, through wildcard blocks too.
    void resolveLogins_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("proxyCommand");
        QTest::addColumn<QString>("proxyJump");
        QTest::addColumn<QString>("certificate");
        QTest::addColumn<bool>("gssapi");
        QTest::newRow("HyperPod over SSM, the command as written")
            << "hyperpod-ctl"
            << "aws ssm start-session --target %h --document-name AWS-StartSSHSession --parameters portNumber=%p" << "" << "" << false;
        QTest::newRow("jump with user and port") << "pcluster-head" << "" << "ec2-user@bastion.example.com:2222" << "" << false;
        QTest::newRow("certificate and Kerberos") << "hpc-login" << "" << "" << "/home/alice/.ssh/id_ed25519-hpc-cert.pub" << true;
        QTest::newRow("ProxyCommand read first wins") << "both" << "nc %h %p" << "" << "" << false;
        QTest::newRow("wildcard ProxyJump read first wins") << "node1.internal" << "" << "gateway" << "" << false;
        QTest::newRow("a name with no Host block of its own") << "gpu7.internal" << "" << "gateway" << "" << false;
        QTest::newRow("nothing applies") << "elsewhere" << "" << "" << "" << false;
    }
    void resolveLogins()
    {
        QFETCH(QString, name);
        QFile file(fixturePath(QStringLiteral("logins/config")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVector<SshConfigNote> notes;
        const QVector<SshConfigBlock> blocks = SshConfigParser::parse(file.readAll(), file.fileName(), &notes);
        const SshConfigHost h = SshConfigParser::resolve(blocks, name, kHome, QStringLiteral("alice"), &notes);
        QTEST(h.proxyCommand, "proxyCommand");
        QTEST(h.proxyJump, "proxyJump");
        QTEST(h.certificateFile, "certificate");
        QTEST(h.gssapiAuthentication, "gssapi");
        QVERIFY(notes.isEmpty());
    }

    void notes_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("upper-case Host never matches") << "basic" << QStringList{
            "config:18 Host Mixed-Case: never matches (ssh compares host names in lower case)"};
        QTest::newRow("wildcards: none") << "wildcards" << QStringList{};
        QTest::newRow("two Match blocks") << "match" << QStringList{
            "config:4 Match host jumpbox exec test -e /nonexistent/strata-never: skipped (Strata does not evaluate Match blocks; libssh applies them when it connects)",
            "config:11 Match all: skipped (Strata does not evaluate Match blocks; libssh applies them when it connects)"};
        QTest::newRow("a missing Include is silent, as in ssh") << "include" << QStringList{};
    }
    void notes()
    {
        QFETCH(QString, fixture);
        QTEST(noteTexts(load(fixture).notes), "expected");
    }

    // What OpenSSH itself resolves (`ssh -G -F FILE HOST`) for every host of the fixtures
    // without Match blocks (those Strata skips and ssh evaluates).
    void agreesWithOpenSsh_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("basic") << "basic";
        QTest::newRow("wildcards") << "wildcards";
        QTest::newRow("logins") << "logins";
    }
    void agreesWithOpenSsh()
    {
        QFETCH(QString, fixture);
        QProcess id;
        id.start(QStringLiteral("id"), {QStringLiteral("-un")});
        QVERIFY(id.waitForFinished(5000));
        const QString localUser = QString::fromUtf8(id.readAllStandardOutput()).trimmed();
        const QString home = QDir::homePath();
        const SshConfigLoader::Result r = load(fixture, home, localUser);
        QVERIFY(!r.hosts.isEmpty());
        for (const SshConfigHost &h : r.hosts) {
            QProcess ssh;
            ssh.start(QStringLiteral("ssh"), {QStringLiteral("-G"), QStringLiteral("-F"), fixturePath(fixture) + QStringLiteral("/config"), h.alias});
            QVERIFY2(ssh.waitForFinished(10000) && ssh.exitCode() == 0, qPrintable(ssh.readAllStandardError()));
            QMap<QString, QString> openssh; // first value of each keyword
            for (const QByteArray &line : ssh.readAllStandardOutput().split('\n')) {
                const QString text = QString::fromUtf8(line);
                const QString key = text.section(u' ', 0, 0), value = text.section(u' ', 1);
                if (!key.isEmpty() && !openssh.contains(key))
                    openssh.insert(key, value);
            }
            const QString what = fixture + u'/' + h.alias;
            QCOMPARE(h.effectiveHostName(), openssh.value(QStringLiteral("hostname")));
            QCOMPARE(h.user.isEmpty() ? localUser : h.user, openssh.value(QStringLiteral("user")));
            QCOMPARE(QString::number(h.port > 0 ? h.port : 22), openssh.value(QStringLiteral("port")));
            QCOMPARE(h.proxyJump, openssh.value(QStringLiteral("proxyjump")));
            QCOMPARE(h.proxyCommand, openssh.value(QStringLiteral("proxycommand")));
            QCOMPARE(h.gssapiAuthentication ? QStringLiteral("yes") : QStringLiteral("no"), openssh.value(QStringLiteral("gssapiauthentication")));
            QString certificate = openssh.value(QStringLiteral("certificatefile"));
            if (certificate.startsWith(QLatin1String("~/")))
                certificate = home + certificate.mid(1);
            QCOMPARE(h.certificateFile, certificate);
            // -G prints IdentityFile before ~ and %h are expanded, and ssh's defaults when unset.
            QString theirs = openssh.value(QStringLiteral("identityfile"));
            theirs.replace(QStringLiteral("%h"), h.effectiveHostName());
            if (theirs.startsWith(QLatin1String("~/")))
                theirs = home + theirs.mid(1);
            QVERIFY2(h.identityFile.isEmpty() ? theirs == home + QStringLiteral("/.ssh/id_rsa") : h.identityFile == theirs,
                     qPrintable(what + QStringLiteral(": ") + h.identityFile + QStringLiteral(" vs ") + theirs));
        }
    }

    void malformedLines_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("aliases");
        QTest::addColumn<int>("noteCount");
        QTest::newRow("unbalanced quote") << QByteArray("Host a\n  IdentityFile \"~/x\nHost b\n") << QStringList{"a", "b"} << 1;
        QTest::newRow("keyword without value") << QByteArray("Host\nHost c\n  User\n") << QStringList{"c"} << 2;
        QTest::newRow("bad port") << QByteArray("Host d\n  Port ssh\n") << QStringList{"d"} << 1;
        QTest::newRow("CRLF and tabs") << QByteArray("Host\te\r\n\tHostName\t10.0.0.1\r\n") << QStringList{"e"} << 0;
        QTest::newRow("empty") << QByteArray() << QStringList{} << 0;
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe Host \x01", 10) << QStringList{} << 0;
    }
    void malformedLines()
    {
        QFETCH(QByteArray, text);
        QVector<SshConfigNote> notes;
        const QVector<SshConfigBlock> blocks = SshConfigParser::parse(text, QStringLiteral("config"), &notes);
        const QVector<SshConfigHost> hosts = SshConfigParser::hosts(blocks, kHome, QStringLiteral("alice"), &notes);
        QTEST(aliases(hosts), "aliases");
        QTEST(int(notes.size()), "noteCount");
    }

    void crlfValuesAreClean()
    {
        QVector<SshConfigNote> notes;
        const auto hosts = SshConfigParser::hosts(SshConfigParser::parse("Host e\r\n  HostName 10.0.0.1\r\n  Port 2200\r\n", {}, &notes),
                                                  kHome, QStringLiteral("alice"), &notes);
        QCOMPARE(hosts.size(), 1);
        QCOMPARE(hosts[0].hostName, QStringLiteral("10.0.0.1"));
        QCOMPARE(hosts[0].port, 2200);
    }

    void includeLoopStops()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile config(dir.filePath(QStringLiteral("config")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("Host loop\n  User me\nInclude config\n");
        config.close();
        const SshConfigLoader::Result r = SshConfigLoader::load(config.fileName(), dir.path(), kHome, QStringLiteral("alice"));
        QCOMPARE(aliases(r.hosts), QStringList{QStringLiteral("loop")});
        QCOMPARE(r.hosts[0].user, QStringLiteral("me"));
        QVERIFY2(noteTexts(r.notes).join(u'\n').contains(QStringLiteral("Include nested deeper than 16 files")),
                 qPrintable(noteTexts(r.notes).join(u'\n')));
    }

    void missingConfigIsNoError()
    {
        const SshConfigLoader::Result r = SshConfigLoader::load(QStringLiteral("/nonexistent/strata/config"), QStringLiteral("/nonexistent"),
                                                                kHome, QStringLiteral("alice"));
        QVERIFY(!r.found);
        QVERIFY(r.hosts.isEmpty());
        QVERIFY(r.notes.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSshConfigParser)
#include "tst_ssh_config_parser.moc"
