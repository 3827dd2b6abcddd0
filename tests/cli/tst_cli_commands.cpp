// The real strata binary's first word, without a cluster: a mistyped command is an error with a
// suggestion (never the window), --help and help list the table, each command has --help, and
// listings answer --format json with a schema key.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTcpServer>
#include <QDir>
#include <QFile>
#include <QTest>

#include "strata_without_display.h"

class TestCliCommands : public QObject
{
    Q_OBJECT

    using Run = strata::test::StrataRun;

    Run strata(const QStringList &arguments)
    {
        return strata::test::runStrataWithoutDisplay(arguments, m_home.path(), 20000);
    }

    QTemporaryDir m_home;

private Q_SLOTS:
    void mistypedCommandSuggests_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("message");
        QTest::newRow("snapshto") << "snapshto" << "strata: \"snapshto\" is not a strata command; did you mean \"snapshot\"? (strata --help lists them)\n";
        QTest::newRow("drian") << "drian" << "strata: \"drian\" is not a strata command; did you mean \"drain\"? (strata --help lists them)\n";
        QTest::newRow("nothing close") << "xyzzy" << "strata: \"xyzzy\" is not a strata command (strata --help lists them)\n";
    }
    void mistypedCommandSuggests()
    {
        QFETCH(QString, word);
        QFETCH(QString, message);
        const Run r = strata({word, QStringLiteral("--ssh"), QStringLiteral("localhost")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, message);
        QCOMPARE(r.out, QString());
    }

    void helpListsEveryCommand_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")};
        QTest::newRow("-h") << QStringList{QStringLiteral("-h")};
        QTest::newRow("help") << QStringList{QStringLiteral("help")};
        // A window's flags with --help: still the overview, and no display needed.
        QTest::newRow("window flags --help") << QStringList{QStringLiteral("--ssh"), QStringLiteral("login"), QStringLiteral("--help")};
    }
    void helpListsEveryCommand()
    {
        QFETCH(QStringList, arguments);
        const Run r = strata(arguments);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        for (const char *c : {"snapshot", "submit", "cancel", "drain", "resume", "metrics", "burnin", "profile", "completion"})
            QVERIFY2(r.out.contains(QStringLiteral("\n  %1 ").arg(QLatin1String(c))), c);
    }

    void commandHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("snapshot") << "snapshot" << "--cluster <name>";
        QTest::newRow("submit") << "submit" << "--gpus-per-node <N>";
        QTest::newRow("drain") << "drain" << "--reason <text>";
        QTest::newRow("metrics") << "metrics" << "--metric";
        QTest::newRow("burnin") << "burnin" << "--drain-on-fail";
        QTest::newRow("fabric history") << "fabric" << "--history <file>";
        QTest::newRow("fabric no history") << "fabric" << "--no-history";
    }
    void commandHelp()
    {
        QFETCH(QString, command);
        QFETCH(QString, mentions);
        const Run r = strata({command, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Usage: strata ") + command), qPrintable(r.out));
        QVERIFY2(r.out.contains(mentions), qPrintable(r.out));
        const Run viaHelp = strata({QStringLiteral("help"), command});
        QCOMPARE(viaHelp.exitCode, 0);
        QCOMPARE(viaHelp.out, r.out);
    }

    void versionIsTheProjectVersion()
    {
        const Run r = strata({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QStringLiteral("strata " STRATA_VERSION "\n"));
    }

    void profileListJson()
    {
        const QString config = m_home.filePath(QStringLiteral("clusters.json"));
        Run r = strata({QStringLiteral("profile"), QStringLiteral("list"), QStringLiteral("--format"), QStringLiteral("json"),
                        QStringLiteral("--config"), config});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.profiles/1"));
        QCOMPARE(o.value(QLatin1String("profiles")).toArray().size(), 0);

        r = strata({QStringLiteral("profile"), QStringLiteral("save"), QStringLiteral("prod"), QStringLiteral("--ssh"),
                    QStringLiteral("alice@login.example.net:2222"), QStringLiteral("--prometheus"), QStringLiteral("http://prom:9090"),
                    QStringLiteral("--config"), config});
        QCOMPARE(r.exitCode, 0);
        r = strata({QStringLiteral("profile"), QStringLiteral("list"), QStringLiteral("--format"), QStringLiteral("json"),
                    QStringLiteral("--config"), config});
        QCOMPARE(r.exitCode, 0);
        o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.profiles/1"));
        const QJsonArray profiles = o.value(QLatin1String("profiles")).toArray();
        QCOMPARE(profiles.size(), 1);
        QCOMPARE(profiles[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("prod"));
        QCOMPARE(profiles[0].toObject().value(QLatin1String("sshHost")).toString(), QStringLiteral("login.example.net"));
        QCOMPARE(profiles[0].toObject().value(QLatin1String("sshPort")).toInt(), 2222);

        r = strata({QStringLiteral("profile"), QStringLiteral("list"), QStringLiteral("--config"), config});
        QCOMPARE(r.out, QStringLiteral("prod\tslurm\talice@login.example.net:2222\thttp://prom:9090\n"));
    }

    // The first run on the command line: the hosts of ~/.ssh/config (the basic fixture of
    // tests/data/ssh as this HOME's config), each with the command that adds it.
    void profileHostsFromSshConfig()
    {
        QDir().mkpath(m_home.filePath(QStringLiteral(".ssh")));
        QFile::remove(m_home.filePath(QStringLiteral(".ssh/config")));
        QVERIFY(QFile::copy(QStringLiteral(STRATA_TEST_DATA "/ssh/basic/config"), m_home.filePath(QStringLiteral(".ssh/config"))));
        Run r = strata({QStringLiteral("profile"), QStringLiteral("hosts"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.profile-candidates/1"));
        QVERIFY(o.value(QLatin1String("sshConfigFound")).toBool());
        const QJsonArray hosts = o.value(QLatin1String("sshHosts")).toArray();
        QCOMPARE(hosts.size(), 3);
        const QJsonObject internal = hosts[2].toObject();
        QCOMPARE(internal.value(QLatin1String("alias")).toString(), QStringLiteral("gpu-internal"));
        QCOMPARE(internal.value(QLatin1String("hostName")).toString(), QStringLiteral("10.20.0.5"));
        QCOMPARE(internal.value(QLatin1String("user")).toString(), QStringLiteral("ops"));
        QCOMPARE(internal.value(QLatin1String("proxyJump")).toString(), QStringLiteral("bastion"));
        QCOMPARE(internal.value(QLatin1String("identityFile")).toString(), m_home.filePath(QStringLiteral(".ssh/keys/ops key")));
        QCOMPARE(internal.value(QLatin1String("add")).toString(), QStringLiteral("strata profile add gpu-internal --ssh gpu-internal"));
        QCOMPARE(o.value(QLatin1String("sshNotes")).toArray().size(), 1);

        r = strata({QStringLiteral("profile"), QStringLiteral("hosts")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("ssh\tlogin-a100\talice@a100-login.hpc.example.edu:2222\t"
                                                 "strata profile add login-a100 --ssh login-a100\n")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("note: config:18: Host Mixed-Case: never matches")), qPrintable(r.err));
    }

    // `profile add` connects before it saves: a port nobody listens on is a ConnectFailed, and
    // nothing is written.
    void profileAddSavesOnlyWhatAnswers()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        const QString config = m_home.filePath(QStringLiteral("add.json"));
        Run r = strata({QStringLiteral("profile"), QStringLiteral("add"), QStringLiteral("dead"), QStringLiteral("--ssh"),
                        QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("--config"), config,
                        QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.profile-add/1"));
        QCOMPARE(o.value(QLatin1String("saved")).toBool(), false);
        QCOMPARE(o.value(QLatin1String("errorKind")).toString(), QStringLiteral("connect-failed"));
        QCOMPARE(o.value(QLatin1String("step")).toString(), QStringLiteral("ssh"));
        QVERIFY2(r.err.startsWith(QStringLiteral("strata: dead: not saved: ")), qPrintable(r.err));
        QVERIFY(!QFile::exists(config));

        r = strata({QStringLiteral("profile"), QStringLiteral("add"), QStringLiteral("--ssh"), QStringLiteral("login")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("profile add needs a NAME")), qPrintable(r.err));
    }

    void helpJsonHasSchema()
    {
        const Run r = strata({QStringLiteral("help"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.commands/1"));
        QVERIFY(o.value(QLatin1String("commands")).toArray().size() >= 9);
    }

    void badFormatIsAUsageError()
    {
        const Run r = strata({QStringLiteral("profile"), QStringLiteral("list"), QStringLiteral("--format"), QStringLiteral("yaml")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QStringLiteral("strata: --format must be text or json\n"));
    }

    // describe's own usage says yaml|json: the runner's check lets yaml through to it (it once
    // refused every word but text and json), and its --help names the words.
    void describeTakesYaml()
    {
        const Run yaml = strata({QStringLiteral("describe"), QStringLiteral("pod/x"), QStringLiteral("--format"),
                                 QStringLiteral("yaml"), QStringLiteral("--ssh"), QStringLiteral("root@127.0.0.1:1"),
                                 QStringLiteral("--kubernetes"), QStringLiteral("--connect-timeout"), QStringLiteral("1")});
        QVERIFY2(!yaml.err.contains(QStringLiteral("--format must")), qPrintable(yaml.err));
        QCOMPARE(yaml.exitCode, 1); // refused by the (absent) login node, not by the runner
        const Run csv = strata({QStringLiteral("describe"), QStringLiteral("pod/x"), QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.exitCode, 2);
        QCOMPARE(csv.err, QStringLiteral("strata: --format must be text, yaml or json\n"));
        const Run help = strata({QStringLiteral("describe"), QStringLiteral("--help")});
        QVERIFY2(help.out.contains(QStringLiteral("Output: text, yaml or json.")), qPrintable(help.out));
    }
};

QTEST_GUILESS_MAIN(TestCliCommands)
#include "tst_cli_commands.moc"
