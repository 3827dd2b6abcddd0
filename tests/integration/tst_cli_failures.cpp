// The real `strata` binary when the path to the cluster breaks: sshd stopped, a changed or
// unknown host key, slurmctld stopped. Each must end with a clear message on stderr and a
// non-zero exit, in bounded time, and leave known_hosts as a person would expect.
#include "cli_lab.h"

#include <QFileInfo>
#include <QTcpServer>
#include <QTemporaryDir>

using namespace strata;
using namespace strata::lab;

class TestCliFailures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void sshdStoppedFailsFast();
    void silentHostHitsConnectTimeout();
    void changedHostKeyIsRefused();
    void unknownHostKeyNeedsConsent();
    void slurmctldStoppedShowsSlurmsError();

private:
    QString hostKeyFingerprint() const;
    // "[127.0.0.1]:22022" (22.05 lab) or "[127.0.0.1]:23022" (24.11): known_hosts' name for the login node.
    QString sshHostPattern() const
    {
        return QStringLiteral("[127.0.0.1]:%1").arg(m_lab.env(QStringLiteral("STRATA_LAB_SSH_PORT")));
    }
    QString hostKeyBase64() const;
    CliLab m_lab;
    QTemporaryDir m_dir;
};

void TestCliFailures::initTestCase()
{
    QString error;
    QVERIFY2(m_lab.load(&error), qPrintable(error));
    QVERIFY(m_dir.isValid());
    QVERIFY2(!m_lab.env(QStringLiteral("STRATA_LAB_SSH_PORT")).isEmpty(), "the lab's lab.env has no STRATA_LAB_SSH_PORT");
    QVERIFY(m_lab.waitForNodesResponding(30000));
    const Run ok = m_lab.strata(QStringLiteral("snapshot"), {});
    QVERIFY2(ok.exitCode == 0, ok.err.constData());
}

void TestCliFailures::cleanup()
{
    m_lab.restore();
}

QString TestCliFailures::hostKeyFingerprint() const
{
    // "256 SHA256:abc... strata-lab-host (ED25519)"
    const Run r = runProcess(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), labDir() + QStringLiteral("/ssh/ssh_host_ed25519_key.pub")},
                             QProcessEnvironment::systemEnvironment(), 10000);
    return QString::fromUtf8(r.out).section(QLatin1Char(' '), 1, 1);
}

QString TestCliFailures::hostKeyBase64() const
{
    return readLines(labDir() + QStringLiteral("/ssh/ssh_host_ed25519_key.pub")).value(0).section(QLatin1Char(' '), 1, 1);
}

void TestCliFailures::sshdStoppedFailsFast()
{
    m_lab.rememberStopped(QStringLiteral("sshd"));
    const Run stop = m_lab.labCommand({QStringLiteral("stop"), QStringLiteral("sshd")});
    QVERIFY2(stop.exitCode == 0, stop.err.constData());
    for (const QString &command : {QStringLiteral("snapshot"), QStringLiteral("drain")}) {
        QStringList args{QStringLiteral("--connect-timeout"), QStringLiteral("5")};
        if (command == QLatin1String("drain"))
            args << QStringLiteral("gpu-node01") << QStringLiteral("--reason") << QStringLiteral("never applied");
        const Run r = m_lab.strata(command, args, 30000);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode != 0 && r.exitCode != -1, qPrintable(command));
        QVERIFY2(r.elapsedMs < 15000, qPrintable(QStringLiteral("%1 took %2 ms").arg(command).arg(r.elapsedMs)));
        QVERIFY2(r.err.contains("127.0.0.1") && r.err.contains("cannot connect"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
}

void TestCliFailures::silentHostHitsConnectTimeout()
{
    // A port that accepts TCP but never says a word (a hung sshd, a firewall that swallows):
    // the connect timeout must end the wait. The kernel completes the handshake from the
    // listen backlog; nothing here ever answers.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    const QString target = QStringLiteral("root@127.0.0.1:%1").arg(silent.serverPort());
    const Run r = m_lab.strata(QStringLiteral("snapshot"), {"--ssh", target, "--connect-timeout", "3"}, 30000);
    QVERIFY(r.finished);
    QVERIFY2(r.exitCode != 0 && r.exitCode != -1, r.err.constData());
    QVERIFY2(r.elapsedMs >= 2500 && r.elapsedMs < 10000, qPrintable(QStringLiteral("took %1 ms").arg(r.elapsedMs)));
    QVERIFY2(r.err.contains(target.section('@', 1).toUtf8()), r.err.constData());
}

void TestCliFailures::changedHostKeyIsRefused()
{
    // A known_hosts that holds a DIFFERENT key for the lab's [127.0.0.1]:PORT: an interception.
    const QString keyFile = m_dir.filePath(QStringLiteral("other_key"));
    QFile::remove(keyFile);
    QFile::remove(keyFile + QStringLiteral(".pub"));
    const Run gen = runProcess(QStringLiteral("ssh-keygen"), {"-q", "-t", "ed25519", "-N", "", "-f", keyFile},
                               QProcessEnvironment::systemEnvironment(), 20000);
    QVERIFY2(gen.exitCode == 0, gen.err.constData());
    const QString otherKey = readLines(keyFile + QStringLiteral(".pub")).value(0).section(' ', 0, 1);
    const QString knownHosts = m_dir.filePath(QStringLiteral("changed_known_hosts"));
    const QByteArray content = (sshHostPattern() + QLatin1Char(' ') + otherKey + QLatin1Char('\n')).toUtf8();
    {
        QFile f(knownHosts);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
    }
    // Refused with and without --accept-new-host-key: that flag is for unknown keys only.
    for (const QStringList &extra : {QStringList{}, QStringList{QStringLiteral("--accept-new-host-key")}}) {
        const Run r = m_lab.strata(QStringLiteral("snapshot"), QStringList{"--known-hosts", knownHosts} + extra, 30000);
        QVERIFY2(r.exitCode != 0 && r.exitCode != -1, r.err.constData());
        QVERIFY2(r.err.contains("CHANGED"), r.err.constData());
        QVERIFY2(r.err.contains(hostKeyFingerprint().toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QFile f(knownHosts);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), content);
    }
}

void TestCliFailures::unknownHostKeyNeedsConsent()
{
    const QString knownHosts = m_dir.filePath(QStringLiteral("empty_known_hosts"));
    {
        QFile f(knownHosts);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    }
    const QString fingerprint = hostKeyFingerprint();
    QVERIFY2(fingerprint.startsWith(QLatin1String("SHA256:")), qPrintable(fingerprint));
    const Run refused = m_lab.strata(QStringLiteral("snapshot"), {"--known-hosts", knownHosts}, 30000);
    QVERIFY2(refused.exitCode != 0 && refused.exitCode != -1, refused.err.constData());
    QVERIFY2(refused.err.contains(fingerprint.toUtf8()), refused.err.constData());
    QVERIFY2(refused.err.contains("--accept-new-host-key"), refused.err.constData());
    QCOMPARE(QFileInfo(knownHosts).size(), qint64(0));

    const Run accepted = m_lab.strata(QStringLiteral("snapshot"), {"--known-hosts", knownHosts, "--accept-new-host-key"}, 30000);
    QVERIFY2(accepted.exitCode == 0, accepted.err.constData());
    QVERIFY(accepted.out.contains("gpu-node01"));
    QFile f(knownHosts);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString recorded = QString::fromUtf8(f.readAll());
    QVERIFY2(recorded.contains(hostKeyBase64()), qPrintable(recorded));
    QVERIFY2(recorded.contains(sshHostPattern()), qPrintable(recorded));

    // Recorded once, trusted from then on without the flag.
    const Run again = m_lab.strata(QStringLiteral("snapshot"), {"--known-hosts", knownHosts}, 30000);
    QVERIFY2(again.exitCode == 0, again.err.constData());
}

void TestCliFailures::slurmctldStoppedShowsSlurmsError()
{
    m_lab.rememberStopped(QStringLiteral("slurmctld"));
    const Run stop = m_lab.labCommand({QStringLiteral("stop"), QStringLiteral("slurmctld")});
    QVERIFY2(stop.exitCode == 0, stop.err.constData());
    const Run snapshot = m_lab.strata(QStringLiteral("snapshot"), {"--format", "json"}, 90000);
    QVERIFY(snapshot.finished);
    QVERIFY2(snapshot.exitCode != 0 && snapshot.exitCode != -1, snapshot.err.constData());
    QVERIFY2(snapshot.err.contains("Unable to contact slurm controller"), snapshot.err.constData());
    const Run submit = m_lab.strata(QStringLiteral("submit"), {"--wrap", "true"}, 90000);
    QVERIFY2(submit.exitCode != 0 && submit.exitCode != -1, submit.err.constData());
    QVERIFY2(submit.err.contains("Unable to contact slurm controller") || submit.err.contains("Batch job submission failed"),
             submit.err.constData());
}

QTEST_GUILESS_MAIN(TestCliFailures)
#include "tst_cli_failures.moc"
