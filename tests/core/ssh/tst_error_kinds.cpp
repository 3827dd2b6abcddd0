// Typed errors: where each kind is decided (core/ssh on real key files made by ssh-keygen, the
// sources on refused input, CommandResult on exit statuses) and that it reaches the session's
// SourceStatus unchanged. The window and CLI tests check what is done with it.

#include "kubernetes/kubernetes_source.h"
#include "model/error_kind.h"
#include "model/gpu_catalog.h"
#include "session/cluster_session.h"
#include "slurm/slurm_source.h"
#include "ssh/command_result.h"
#include "ssh/remote_shell.h"
#include "ssh/ssh_session.h"
#include "synthetic_cluster.h"
#include "synthetic_orchestrator.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace strata;

Q_DECLARE_METATYPE(strata::ErrorKind)

namespace {

// Counts what it was asked to run and runs nothing: refused input must never get this far.
class CountingShell : public RemoteShell
{
public:
    QFuture<CommandResult> run(const QStringList &, const QByteArray & = {}) override
    {
        ++runs;
        return QtFuture::makeReadyFuture(CommandResult::transportFailure(ErrorKind::ConnectFailed, QStringLiteral("not here")));
    }
    QFuture<CommandResult> upload(const QString &, const QByteArray &, int) override
    {
        ++runs;
        return QtFuture::makeReadyFuture(CommandResult::transportFailure(ErrorKind::ConnectFailed, QStringLiteral("not here")));
    }
    QString describe() const override { return QStringLiteral("counting"); }
    std::atomic<int> runs{0};
};

bool keygen(const QString &path, const QString &passphrase)
{
    QProcess p;
    p.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                           QStringLiteral("-N"), passphrase, QStringLiteral("-f"), path});
    return p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

} // namespace

class TestErrorKinds : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void namesAreStable_data()
    {
        QTest::addColumn<ErrorKind>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("none") << ErrorKind::None << "none";
        QTest::newRow("host key unknown") << ErrorKind::HostKeyUnknown << "host-key-unknown";
        QTest::newRow("host key changed") << ErrorKind::HostKeyChanged << "host-key-changed";
        QTest::newRow("auth") << ErrorKind::AuthenticationFailed << "authentication-failed";
        QTest::newRow("passphrase") << ErrorKind::PassphraseNeeded << "passphrase-needed";
        QTest::newRow("login prompt") << ErrorKind::LoginPromptUnavailable << "login-prompt-unavailable";
        QTest::newRow("connect") << ErrorKind::ConnectFailed << "connect-failed";
        QTest::newRow("lost") << ErrorKind::ConnectionLost << "connection-lost";
        QTest::newRow("timeout") << ErrorKind::Timeout << "timeout";
        QTest::newRow("command") << ErrorKind::CommandFailed << "command-failed";
        QTest::newRow("parse") << ErrorKind::ParseFailed << "parse-failed";
        QTest::newRow("unsupported") << ErrorKind::SourceUnsupported << "source-unsupported";
        QTest::newRow("invalid") << ErrorKind::InvalidRequest << "invalid-request";
        QTest::newRow("cancelled") << ErrorKind::Cancelled << "cancelled";
        QTest::newRow("no accounting") << ErrorKind::NoAccounting << "no-accounting";
    }

    void namesAreStable()
    {
        QFETCH(ErrorKind, kind);
        QFETCH(QString, name);
        QCOMPARE(errorKindName(kind), name); // the CLI's JSON carries these: never rename
    }

    void commandResultKinds()
    {
        CommandResult ran;
        ran.exitStatus = 0;
        QCOMPARE(ran.errorKind(), ErrorKind::None);
        CommandResult failed;
        failed.exitStatus = 1;
        failed.stderrData = "squeue: error: Invalid job id specified";
        QCOMPARE(failed.errorKind(), ErrorKind::CommandFailed);
        const CommandResult lost = CommandResult::transportFailure(ErrorKind::ConnectionLost, QStringLiteral("broke"));
        QVERIFY(!lost.ran());
        QCOMPARE(lost.errorKind(), ErrorKind::ConnectionLost);
    }

    void identityFiles_data()
    {
        QTest::addColumn<QString>("keyPassphrase"); // empty: an unencrypted key; "-": not a key
        QTest::addColumn<QString>("given");
        QTest::addColumn<ErrorKind>("kind");
        QTest::newRow("plain key") << "" << "" << ErrorKind::None;
        QTest::newRow("encrypted, no passphrase") << "s3cret pass" << "" << ErrorKind::PassphraseNeeded;
        QTest::newRow("encrypted, wrong passphrase") << "s3cret pass" << "guess" << ErrorKind::PassphraseNeeded;
        QTest::newRow("encrypted, right passphrase") << "s3cret pass" << "s3cret pass" << ErrorKind::None;
        QTest::newRow("not a key") << "-" << "" << ErrorKind::AuthenticationFailed;
        QTest::newRow("not a key, with a passphrase") << "-" << "guess" << ErrorKind::AuthenticationFailed;
    }

    void identityFiles()
    {
        QFETCH(QString, keyPassphrase);
        QFETCH(QString, given);
        QFETCH(ErrorKind, kind);
        const QString path = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_'));
        if (keyPassphrase == QLatin1String("-")) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("-----BEGIN OPENSSH PRIVATE KEY-----\nbm90IGEga2V5\n-----END OPENSSH PRIVATE KEY-----\n");
        } else {
            QVERIFY2(keygen(path, keyPassphrase), "ssh-keygen failed");
        }
        const CommandResult r = SshSession::loadIdentity(path, given);
        QCOMPARE(r.failure, kind);
        QCOMPARE(r.transportError.isEmpty(), kind == ErrorKind::None);
    }

    void aMissingIdentityIsAnAuthenticationFailure()
    {
        const CommandResult r = SshSession::loadIdentity(m_dir.filePath(QStringLiteral("absent")), {});
        QCOMPARE(r.failure, ErrorKind::AuthenticationFailed);
        QVERIFY(r.transportError.contains(QStringLiteral("does not exist")));
    }

    void refusedActionsAreInvalidRequestsAndRunNothing()
    {
        auto shell = std::make_shared<CountingShell>();
        SlurmSource slurm(shell, GpuCatalog::builtIn());
        const ActionResult cancel = slurm.cancel(QStringLiteral("1; rm -rf ~")).result();
        QVERIFY(!cancel.ok);
        QCOMPARE(cancel.errorKind, ErrorKind::InvalidRequest);
        const ActionResult drain = slurm.drain({QStringLiteral("node$(id)")}, QStringLiteral("x")).result();
        QCOMPARE(drain.errorKind, ErrorKind::InvalidRequest);
        KubernetesSource kube(shell, GpuCatalog::builtIn(), KubernetesSourceOptions{});
        const ActionResult kubeCancel = kube.cancel(QStringLiteral("no-namespace'; id")).result();
        QCOMPARE(kubeCancel.errorKind, ErrorKind::InvalidRequest);
        const ActionResult kubeDrain = kube.drain({QStringLiteral("gpu-node01")}, QStringLiteral("  ")).result();
        QCOMPARE(kubeDrain.errorKind, ErrorKind::InvalidRequest);
        QCOMPARE(shell->runs.load(), 0);
    }

    void aFailedCommandIsCommandFailedAndATransportFailureKeepsItsKind()
    {
        auto shell = std::make_shared<CountingShell>();
        SlurmSource slurm(shell, GpuCatalog::builtIn());
        const ActionResult r = slurm.cancel(QStringLiteral("42")).result();
        QCOMPARE(shell->runs.load(), 1);
        QCOMPARE(r.errorKind, ErrorKind::ConnectFailed);
        const OrchestratorPart part = slurm.refresh().result();
        QCOMPARE(part.errorKind, ErrorKind::ConnectFailed);
        QVERIFY(part.transportFailed);
    }

    void theSessionCarriesTheKindToItsSourceStatus_data()
    {
        QTest::addColumn<ErrorKind>("kind");
        QTest::newRow("host key changed") << ErrorKind::HostKeyChanged;
        QTest::newRow("passphrase needed") << ErrorKind::PassphraseNeeded;
        QTest::newRow("timeout") << ErrorKind::Timeout;
    }

    void theSessionCarriesTheKindToItsSourceStatus()
    {
        QFETCH(ErrorKind, kind);
        SyntheticClusterOptions o;
        o.nodes = 2;
        auto orchestrator = std::make_unique<SyntheticOrchestrator>(SyntheticCluster::generate(o));
        orchestrator->setTransportFailure(kind, QStringLiteral("words that decide nothing"));
        ClusterProfile profile;
        profile.name = QStringLiteral("kinds");
        profile.sshHost = QStringLiteral("127.0.0.1");
        ClusterSession session(profile, std::make_shared<CountingShell>(), std::move(orchestrator));
        QSignalSpy ready(&session, &ClusterSession::snapshotReady);
        session.refreshNow();
        QVERIFY(ready.wait(5000));
        const SnapshotPtr s = session.latest();
        QCOMPARE(s->source(SourceKind::Ssh)->errorKind, kind);
        QCOMPARE(s->source(SourceKind::Slurm)->errorKind, kind);
        QVERIFY(!s->source(SourceKind::Ssh)->ok);
    }
};

QTEST_GUILESS_MAIN(TestErrorKinds)
#include "tst_error_kinds.moc"
