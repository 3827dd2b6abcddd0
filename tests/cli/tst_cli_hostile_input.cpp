// Values that reach a remote command, given hostile: the real strata binary refuses them before
// anything connects (exit status 2, the reason on stderr, errorKind invalid-request in JSON).
// --ssh points at a port where nothing listens, so a value that slipped through would show as
// a connect failure (exit status 1) instead.

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "strata_without_display.h"

class TestCliHostileInput : public QObject
{
    Q_OBJECT

    using Run = strata::test::StrataRun;

    Run strata(QStringList arguments)
    {
        arguments << QStringLiteral("--ssh") << QStringLiteral("nobody@127.0.0.1:9")
                  << QStringLiteral("--known-hosts") << m_home.filePath(QStringLiteral("known_hosts"))
                  << QStringLiteral("--connect-timeout") << QStringLiteral("2");
        return strata::test::runStrataWithoutDisplay(arguments, m_home.path(), 30000);
    }

    QTemporaryDir m_home;

    static void hostileJobIds()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("command substitution") << QStringLiteral("$(touch /tmp/strata-pwned)");
        QTest::newRow("backticks") << QStringLiteral("`id`");
        QTest::newRow("separator") << QStringLiteral("12; rm -rf ~");
        QTest::newRow("quote break") << QStringLiteral("12' || id '");
        QTest::newRow("newline") << QStringLiteral("12\nid");
        QTest::newRow("option") << QStringLiteral("--help");
        QTest::newRow("glob") << QStringLiteral("1*");
        QTest::newRow("empty") << QString();
    }

private Q_SLOTS:
    void burninAttachRefusesHostileJobIds_data() { hostileJobIds(); }
    void burninAttachRefusesHostileJobIds()
    {
        QFETCH(QString, id);
        const Run r = strata({QStringLiteral("burnin"), QStringLiteral("--nodes"), QStringLiteral("gpu-node01"),
                              QStringLiteral("--attach"), id});
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(QStringLiteral("is not a Slurm job id")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("cannot connect")), qPrintable(r.err)); // refused before connecting
    }

    void cancelRefusesHostileJobIds_data() { hostileJobIds(); }
    void cancelRefusesHostileJobIds()
    {
        QFETCH(QString, id);
        if (id.isEmpty() || id.startsWith(QLatin1Char('-')))
            QSKIP("the argument parser takes these, not cancel");
        const Run r = strata({QStringLiteral("cancel"), id, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("ok")).toBool(true), false);
        QCOMPARE(o.value(QLatin1String("errorKind")).toString(), QStringLiteral("invalid-request"));
    }

    void aValidIdGetsAsFarAsConnecting()
    {
        // The control: the same call with a good id is refused by the network, not the check.
        const Run r = strata({QStringLiteral("cancel"), QStringLiteral("12_3"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("errorKind")).toString(), QStringLiteral("connect-failed"));
    }
};

QTEST_GUILESS_MAIN(TestCliHostileInput)
#include "tst_cli_hostile_input.moc"
