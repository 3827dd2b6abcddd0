// parseScontrolPing: `scontrol ping` as the lab's controller answered it (up, and stalled under
// SIGSTOP), controllers with backups in Slurm's own format, and what is no answer at all.
#include "slurm/scontrol_ping_parser.h"

#include <QFile>
#include <QTest>

using namespace strata;

Q_DECLARE_METATYPE(strata::OrchestratorProbe::Answer)
Q_DECLARE_METATYPE(strata::CommandResult)

namespace {

QByteArray captured(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TEST_DATA "/slurm/scontrol_ping/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

CommandResult ran(const QByteArray &out, int exitStatus, const QByteArray &err = {})
{
    CommandResult r;
    r.exitStatus = exitStatus;
    r.stdoutData = out;
    r.stderrData = err;
    return r;
}

} // namespace

class TestScontrolPing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
};

void TestScontrolPing::parse_data()
{
    using Answer = OrchestratorProbe::Answer;
    QTest::addColumn<CommandResult>("result");
    QTest::addColumn<Answer>("answer");
    QTest::addColumn<QString>("detail");

    QTest::newRow("22.05 up (captured)") << ran(captured(QStringLiteral("up_22.05.stdout")), captured(QStringLiteral("up_22.05.exit")).trimmed().toInt())
                                         << Answer::Answers << QStringLiteral("Slurmctld(primary) at vm is UP");
    QTest::newRow("22.05 stalled, root's banner (captured)")
        << ran(captured(QStringLiteral("stalled_22.05.stdout")), captured(QStringLiteral("stalled_22.05.exit")).trimmed().toInt())
        << Answer::Silent << QStringLiteral("Slurmctld(primary) at vm is DOWN");
    QTest::newRow("primary down, backup up") << ran(captured(QStringLiteral("backup_up_composed.stdout")), 0) << Answer::Answers
                                             << QStringLiteral("Slurmctld(primary) at ctl-a is DOWN; Slurmctld(backup) at ctl-b is UP");
    QTest::newRow("three controllers down")
        << ran(captured(QStringLiteral("three_down_composed.stdout")), 1) << Answer::Silent
        << QStringLiteral("Slurmctld(primary) at ctl-a is DOWN; Slurmctld(backup1) at ctl-b is DOWN; Slurmctld(backup2) at ctl-c is DOWN");

    CommandResult timedOut = CommandResult::transportFailure(ErrorKind::Timeout, QStringLiteral("did not finish within 15 s"));
    timedOut.mayHaveRun = true;
    QTest::newRow("ran past the command timeout") << timedOut << Answer::Silent << QStringLiteral("did not finish within 15 s");
    QTest::newRow("login node gone") << CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("connection lost"))
                                     << Answer::CannotTell << QStringLiteral("connection lost");
    QTest::newRow("no scontrol") << ran({}, 127, "sh: 1: scontrol: not found\n") << Answer::CannotTell
                                 << QStringLiteral("scontrol ping printed no controller line (exit status 127): sh: 1: scontrol: not found");
    QTest::newRow("a line of another shape is not an answer")
        << ran("Slurmctld(primary) at vm is MAYBE\nUP\n", 0) << Answer::CannotTell
        << QStringLiteral("scontrol ping printed no controller line (exit status 0): Slurmctld(primary) at vm is MAYBE UP");
    QTest::newRow("a host named UP is not an answer") << ran("Slurmctld(primary) at UP is DOWN\n", 1) << Answer::Silent
                                                      << QStringLiteral("Slurmctld(primary) at UP is DOWN");
}

void TestScontrolPing::parse()
{
    QFETCH(CommandResult, result);
    QFETCH(OrchestratorProbe::Answer, answer);
    QFETCH(QString, detail);
    const OrchestratorProbe probe = parseScontrolPing(result);
    QCOMPARE(probe.answer, answer);
    QCOMPARE(probe.detail, detail);
}

QTEST_GUILESS_MAIN(TestScontrolPing)
#include "tst_scontrol_ping.moc"
