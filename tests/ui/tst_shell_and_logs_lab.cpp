// "Open shell" and a pod's "Show output" against the lab, for real: the ssh command that
// ShellCommand builds is run (non-interactively, a command instead of the shell) through the
// lab's sshd as the login node, on to a node (ProxyCommand -W) and into a running Slurm job
// (srun --overlap); KubeLogFollower follows `kubectl logs -f` (the real kubectl against the
// Kubernetes stand-in) over one SshRemoteShell while that same connection runs other commands,
// and stopping it ends the remote kubectl.

#include "../integration/cli_lab.h"

#include "dialogs/job_output_dialog.h"
#include "kubernetes/kube_log_follower.h"
#include "lab_profile.h"

#include "kubernetes/kubectl_commands.h"
#include "session/shell_command.h"
#include "ssh/ssh_options.h"
#include "ssh/ssh_remote_shell.h"

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTest>
#include <QUuid>

using namespace strata;

namespace {

lab::Run runArgv(const QStringList &argv, int timeoutMs = 30000)
{
    return lab::runProcess(argv.first(), argv.mid(1), QProcessEnvironment::systemEnvironment(), timeoutMs);
}

} // namespace

class TestShellAndLogsLab : public QObject
{
    Q_OBJECT
private:
    lab::CliLab m_lab;
    ClusterProfile m_profile;
    QString m_kubeconfig;
    QStringList m_pods;
    QString m_job;

    lab::Run kubectl(const QStringList &args, const QByteArray &input = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KUBECONFIG"), m_kubeconfig);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("kubectl"), args);
        p.write(input);
        p.closeWriteChannel();
        lab::Run r;
        r.finished = p.waitForFinished(30000);
        r.exitCode = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

    // A bare pod in default whose (simulated) shell echoes and sleeps; waits until it runs.
    QString startPod(const QString &script)
    {
        const QString name = QStringLiteral("logs-") + QUuid::createUuid().toString(QUuid::Id128).left(8);
        const QByteArray yaml = QStringLiteral(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: %1, namespace: default}\nspec:\n  restartPolicy: Never\n"
            "  tolerations: [{operator: Exists}]\n"
            "  containers:\n  - name: main\n    image: busybox:1.36\n    command: [sh, -c, \"%2\"]\n").arg(name, script).toUtf8();
        const lab::Run created = kubectl({QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")}, yaml);
        if (created.exitCode != 0) {
            qWarning() << created.err;
            return {};
        }
        m_pods << name;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 20000) {
            const QString phase = QString::fromUtf8(kubectl({QStringLiteral("get"), QStringLiteral("pod"), name,
                                                             QStringLiteral("-o"), QStringLiteral("jsonpath={.status.phase}")}).out);
            if (phase == QLatin1String("Running") || phase == QLatin1String("Succeeded"))
                return name;
            QTest::qWait(100);
        }
        return {};
    }

    std::shared_ptr<RemoteShell> shell() const
    {
        ClusterProfile p = m_profile;
        p.remoteEnvironment.append({QStringLiteral("KUBECONFIG"), m_kubeconfig});
        return std::make_shared<SshRemoteShell>(SshOptions::fromProfile(p));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_lab.load(&error), qPrintable(error));
        m_profile = LabProfile::fromDirectory(lab::labDir(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_kubeconfig = lab::labDir() + QStringLiteral("/kube/kubeconfig");
        QVERIFY2(QFile::exists(m_kubeconfig), "the lab wrote no kubeconfig: is the Kubernetes stand-in up?");
    }

    void cleanupTestCase()
    {
        if (!m_job.isEmpty())
            m_lab.slurm(QStringLiteral("scancel"), {m_job});
        for (const QString &pod : std::as_const(m_pods))
            kubectl({QStringLiteral("delete"), QStringLiteral("pod"), pod, QStringLiteral("--wait=false")});
    }

    void nodeShellGoesThroughTheLoginNode()
    {
        // The lab's "node" is its sshd again, reached from the login node by ssh -W.
        ShellCommand::Options o;
        o.command = {QStringLiteral("hostname")};
        o.batchMode = true;
        const auto built = ShellCommand::sshArguments(m_profile, ShellTarget::onNode(QStringLiteral("127.0.0.1"), m_profile.sshPort), o);
        QVERIFY2(built.ok(), qPrintable(built.error));
        const lab::Run r = runArgv(built.argv);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QString::fromUtf8(r.out).trimmed(), QSysInfo::machineHostName());

        // The jump is used: with the login node unreachable the node is too.
        ClusterProfile noLogin = m_profile;
        noLogin.sshPort = 1;
        const auto viaNothing = ShellCommand::sshArguments(noLogin, ShellTarget::onNode(QStringLiteral("127.0.0.1"), m_profile.sshPort), o);
        QVERIFY(viaNothing.ok());
        const lab::Run refused = runArgv(viaNothing.argv);
        QVERIFY(refused.exitCode != 0);
        QVERIFY(refused.out.isEmpty());
    }

    void jobShellRunsInTheAllocation()
    {
        const lab::Run submitted = m_lab.slurm(QStringLiteral("sbatch"), {QStringLiteral("--parsable"), QStringLiteral("-J"),
                                                                          QStringLiteral("shell-test"), QStringLiteral("-w"),
                                                                          QStringLiteral("gpu-node02"), QStringLiteral("--wrap"),
                                                                          QStringLiteral("sleep 300")});
        QVERIFY2(submitted.exitCode == 0, submitted.err.constData());
        m_job = QString::fromUtf8(submitted.out).trimmed().section(QLatin1Char(';'), 0, 0);
        QTRY_COMPARE_WITH_TIMEOUT(m_lab.jobState(m_job), QStringLiteral("RUNNING"), 30000);

        ShellCommand::Options o;
        o.command = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo $SLURMD_NODENAME $SLURM_JOB_ID")};
        o.batchMode = true;
        const auto built = ShellCommand::sshArguments(m_profile, ShellTarget::inSlurmJob(m_job, QStringLiteral("gpu-node02")), o);
        QVERIFY2(built.ok(), qPrintable(built.error));
        const lab::Run r = runArgv(built.argv, 60000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QString::fromUtf8(r.out).trimmed(), QStringLiteral("gpu-node02 %1").arg(m_job));
        m_lab.slurm(QStringLiteral("scancel"), {m_job});
    }

    void podLogIsFollowedOverTheSessionsConnection()
    {
        const QString pod = startPod(QStringLiteral("echo first line; sleep 8; echo second line; sleep 2; echo third line"));
        QVERIFY(!pod.isEmpty());
        auto ssh = shell();
        const QStringList argv = KubectlCommands(QString(), m_profile.kubeContext, 0)
                                     .followLogs(QStringLiteral("default"), QStringLiteral("pod"), pod, 2000);
        QCOMPARE(argv.mid(0, 5), (QStringList{QStringLiteral("kubectl"), QStringLiteral("logs"), QStringLiteral("-f"),
                                              QStringLiteral("-n"), QStringLiteral("default")}));
        auto *follower = new KubeLogFollower(ssh, argv, QStringLiteral("kubectl logs -f pod/default/") + pod);
        JobOutputDialog dialog(QStringLiteral("default/") + pod, follower);
        // Followed, not read at the end: the first line shows while the pod still runs.
        QTRY_VERIFY_WITH_TIMEOUT(dialog.text()->toPlainText().contains(QStringLiteral("first line")), 15000);
        QVERIFY(!follower->ended());
        QVERIFY(!dialog.text()->toPlainText().contains(QStringLiteral("second line")));
        QVERIFY2(dialog.statusText().endsWith(QStringLiteral("following")), qPrintable(dialog.statusText()));
        // The same connection still runs the refreshes' commands meanwhile: this one answers
        // while the stream is still open.
        const CommandResult echoed = ssh->run({QStringLiteral("echo"), QStringLiteral("between")}).result();
        QCOMPARE(echoed.stdoutData, QByteArray("between\n"));
        QVERIFY(!follower->ended());
        QTRY_VERIFY_WITH_TIMEOUT(follower->ended(), 30000);
        QCOMPARE(dialog.text()->toPlainText(), QStringLiteral("first line\nsecond line\nthird line\n"));
        QVERIFY2(dialog.statusText().endsWith(QStringLiteral("ended")), qPrintable(dialog.statusText()));
        QVERIFY(dialog.find(QStringLiteral("second")));
        QCOMPARE(dialog.text()->textCursor().selectedText(), QStringLiteral("second"));
    }

    void stoppingEndsTheRemoteKubectl()
    {
        const QString pod = startPod(QStringLiteral("echo only line; sleep infinity"));
        QVERIFY(!pod.isEmpty());
        auto ssh = shell();
        KubeLogFollower follower(ssh, KubectlCommands(QString(), m_profile.kubeContext, 0)
                                          .followLogs(QStringLiteral("default"), QStringLiteral("pod"), pod, 2000),
                                 pod);
        QString text;
        connect(&follower, &OutputFollower::appended, this, [&](const QString &t) { text += t; });
        follower.start();
        QTRY_COMPARE_WITH_TIMEOUT(text, QStringLiteral("only line\n"), 15000);
        // The lab's login node is this machine: its kubectl is visible here.
        const auto running = [&] {
            return QProcess::execute(QStringLiteral("pgrep"), {QStringLiteral("-f"), QStringLiteral("kubectl logs -f -n default ") + pod}) == 0;
        };
        QVERIFY(running());
        follower.stop();
        QTRY_VERIFY_WITH_TIMEOUT(follower.ended(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!running(), 5000);
    }

    void aPodThatIsNotThereFailsWithKubectlsWords()
    {
        auto ssh = shell();
        KubeLogFollower follower(ssh, KubectlCommands(QString(), m_profile.kubeContext, 0)
                                          .followLogs(QStringLiteral("default"), QStringLiteral("pod"), QStringLiteral("no-such-pod"), 10),
                                 QStringLiteral("no-such-pod"));
        QSignalSpy failed(&follower, &OutputFollower::failed);
        follower.start();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 15000);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("not found")), qPrintable(failed.first().first().toString()));
    }
};

QTEST_MAIN(TestShellAndLogsLab)
#include "tst_shell_and_logs_lab.moc"
