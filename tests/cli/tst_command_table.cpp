// The command table drives dispatch, help and completions: edit distances and suggestions on
// rows of typos, every command listed once with its help, and the generated completion scripts
// accepted by the real shells (bash -n, zsh -n, fish -n) and naming every command and option.

#include "cli/command_table.h"
#include "cli/completion_script.h"

#include <QJsonArray>
#include <QProcess>
#include <QSet>
#include <QTemporaryFile>
#include <QTest>

using namespace strata;

class TestCommandTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void editDistance_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("distance");
        QTest::newRow("same") << "snapshot" << "snapshot" << 0;
        QTest::newRow("transposed") << "snapshto" << "snapshot" << 1;
        QTest::newRow("missing letter") << "snapsht" << "snapshot" << 1;
        QTest::newRow("extra letter") << "drainn" << "drain" << 1;
        QTest::newRow("substituted") << "cancal" << "cancel" << 1;
        QTest::newRow("empty") << "" << "drain" << 5;
        QTest::newRow("unrelated") << "xyzzy" << "drain" << 5;
        QTest::newRow("dropped letter") << "resme" << "resume" << 1;
        QTest::newRow("kitten") << "kitten" << "sitting" << 3;
    }
    void editDistance()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, distance);
        QCOMPARE(CommandTable::editDistance(a, b), distance);
        QCOMPARE(CommandTable::editDistance(b, a), distance);
    }

    void suggest_data()
    {
        QTest::addColumn<QString>("typo");
        QTest::addColumn<QString>("suggestion");
        QTest::newRow("snapshto") << "snapshto" << "snapshot";
        QTest::newRow("prefix") << "snap" << "snapshot";
        QTest::newRow("drian") << "drian" << "drain";
        QTest::newRow("upper case") << "CANCEL" << "cancel";
        QTest::newRow("burn-in") << "burn-in" << "burnin";
        QTest::newRow("profiles") << "profiles" << "profile";
        QTest::newRow("metric") << "metric" << "metrics";
        QTest::newRow("nothing close") << "xyzzy" << "";
        QTest::newRow("too short to guess") << "ls" << "";
        QTest::newRow("a different word") << "delete" << "";
    }
    void suggest()
    {
        QFETCH(QString, typo);
        QFETCH(QString, suggestion);
        QCOMPARE(CommandTable::suggest(typo), suggestion);
    }

    void everyCommandListedOnceWithHelp()
    {
        QSet<QString> names;
        const QString overview = CommandTable::overviewText();
        const QString man = CommandTable::manCommandsSection();
        for (const CliCommand &c : CommandTable::commands()) {
            QVERIFY2(!names.contains(c.nameString()), c.name);
            names.insert(c.nameString());
            QVERIFY(c.handler);
            QVERIFY2(qstrlen(c.help) > 10, c.name);
            QCOMPARE(CommandTable::find(c.nameString()), &c);
            QVERIFY2(overview.contains(QStringLiteral("\n  %1 ").arg(c.nameString())), c.name);
            // roff escapes a name's hyphen (port-forward as port\-forward)
            QVERIFY2(man.contains(QStringLiteral(".BR \"strata %1\"").arg(c.nameString().replace(u'-', QStringLiteral("\\-")))), c.name);
            QVERIFY(CommandTable::optionNames(c).contains(QStringLiteral("help")));
            QVERIFY(CommandTable::optionNames(c).contains(QStringLiteral("format")));
            QCOMPARE(CommandTable::optionNames(c).contains(QStringLiteral("cluster")), bool(c.flags & CliCommand::Connects));
        }
        // The commands the README documents, the window's --help and the completions name.
        for (const char *expected : {"snapshot", "alerts", "silence", "submit", "cancel", "drain", "resume", "metrics", "burnin", "burnin history",
                                     "profile", "help", "completion"})
            QVERIFY2(names.contains(QLatin1String(expected)), expected);
        QCOMPARE(CommandTable::find(u"snapshto"), nullptr);
        QVERIFY(CommandTable::optionNames(*CommandTable::find(u"submit")).contains(QStringLiteral("gpus-per-node")));
        QVERIFY(CommandTable::optionNames(*CommandTable::find(u"burnin")).contains(QStringLiteral("drain-on-fail")));
        QVERIFY(CommandTable::optionNames(*CommandTable::find(u"drain")).contains(QStringLiteral("reason")));
        for (const char *option : {"alert", "match", "duration", "comment", "author", "all", "alertmanager"})
            QVERIFY2(CommandTable::optionNames(*CommandTable::find(u"silence")).contains(QLatin1String(option)), option);
    }

    void subcommandMatchesTheLongestName_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("taken");
        QTest::newRow("burnin history") << QStringList{"burnin", "history", "--node", "n1"} << "burnin history" << 2;
        QTest::newRow("burnin with flags") << QStringList{"burnin", "--nodes", "history"} << "burnin" << 1;
        QTest::newRow("burnin alone") << QStringList{"burnin"} << "burnin" << 1;
        QTest::newRow("history is no command") << QStringList{"history"} << "" << 0;
        QTest::newRow("snapshot history") << QStringList{"snapshot", "history"} << "snapshot" << 1;
    }
    void subcommandMatchesTheLongestName()
    {
        QFETCH(QStringList, words);
        QFETCH(QString, command);
        QFETCH(int, taken);
        qsizetype took = -1;
        const CliCommand *c = CommandTable::match(words, &took);
        QCOMPARE(c ? c->nameString() : QString(), command);
        QCOMPARE(int(took), taken);
        if (c)
            QCOMPARE(CommandTable::find(command), c);
        QCOMPARE(CommandTable::subcommands(*CommandTable::find(u"burnin")).size(), 1);
        QVERIFY(CommandTable::find(u"burnin history")->usageLine().startsWith(QLatin1String("strata burnin history [--node NODE]")));
    }

    void overviewJsonHasSchema()
    {
        const QJsonObject o = CommandTable::overviewJson();
        QCOMPARE(o.value(QLatin1String("schema")).toString(), QStringLiteral("strata.commands/1"));
        QCOMPARE(o.value(QLatin1String("version")).toString(), QStringLiteral(STRATA_VERSION));
        QCOMPARE(o.value(QLatin1String("commands")).toArray().size(), qsizetype(CommandTable::commands().size()));
    }

    void completionScriptsParse_data()
    {
        QTest::addColumn<QString>("shell");
        QTest::newRow("bash") << "bash";
        QTest::newRow("zsh") << "zsh";
        QTest::newRow("fish") << "fish";
    }
    void completionScriptsParse()
    {
        QFETCH(QString, shell);
        const QString script = CompletionScript::generate(shell);
        QVERIFY(!script.isEmpty());
        for (const CliCommand &c : CommandTable::commands()) {
            QVERIFY2(script.contains(c.word()), c.name);
            if (c.parent)
                QVERIFY2(script.contains(QLatin1String(c.parent)), c.parent);
            for (const QString &option : CommandTable::optionNames(c))
                QVERIFY2(script.contains(QStringLiteral("--") + option) || script.contains(QStringLiteral("-l ") + option), qPrintable(c.nameString() + QStringLiteral(" --") + option));
        }
        QTemporaryFile file;
        QVERIFY(file.open());
        file.write(script.toUtf8());
        file.close();
        QProcess shellProcess;
        shellProcess.start(shell, {QStringLiteral("-n"), file.fileName()});
        QVERIFY2(shellProcess.waitForFinished(20000), qPrintable(shell + QStringLiteral(" did not start (scripts/install-deps installs it)")));
        QVERIFY2(shellProcess.exitStatus() == QProcess::NormalExit && shellProcess.exitCode() == 0,
                 shellProcess.readAllStandardError().constData());
        QVERIFY(CompletionScript::generate(QStringLiteral("tcsh")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCommandTable)
#include "tst_command_table.moc"
