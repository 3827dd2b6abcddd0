// No lost or doubled actions: a submit, cancel or drain whose connection drops after the
// command was sent and before its result was read is reported as "outcome unknown" (a typed
// ActionOutcome), never sent again, and settled by reading the real Slurm back once the login
// node answers: "submitted as job N" (exactly one job carries the submission's comment) or "not
// submitted" (none does). The drop comes from a FaultProxy in front of sshd that loses either
// the SSH exec request itself or every answer to it; the same for a Kubernetes Job (found by its
// label) and a burn-in launch (followed as the job found by its comment). The CLI part: `strata submit` against a
// frozen controller exits 3 (outcome unknown) or, when the controller wakes up while it reads
// back, 0 with the job found by its comment.
#include "fault_lab.h"
#include "fault_proxy.h"

#include "burnin/burnin_slurm_transport.h"
#include "slurm/slurm_commands.h"
#include "ssh/ssh_options.h"
#include "ssh/ssh_remote_shell.h"

#include <QTemporaryDir>

using namespace strata;
using namespace strata::fault;

class TestFaultActions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void submitWhoseAnswerIsLostIsFoundByItsComment();
    void submitWhoseRequestIsLostIsReportedNotSubmitted();
    void cancelWhoseAnswerIsLostIsReadBack();
    void drainWhoseRequestIsLostIsReadBack();
    void kubernetesSubmitWhoseAnswerIsLostIsFoundByItsLabel();
    void burninLaunchWhoseAnswerIsLostIsFollowed();
    void cliExitsThreeWhileTheOutcomeStaysUnknown();
    void cliFindsTheJobWhenTheControllerComesBack();

private:
    // A session through a proxy in front of sshd, with one good refresh done.
    std::unique_ptr<ClusterSession> connectedSession(FaultProxy &proxy);
    // Waits for the next actionFinished of the session.
    ActionResult nextAction(ClusterSession &session, int timeoutMs, bool *arrived);
    // Refreshes (the proxy now passes) until the unknown action is settled by a read-back.
    ActionResult settle(ClusterSession &session, int timeoutMs, bool *arrived);
    QString slurm(const QStringList &argv, int *exitCode = nullptr) const;
    QStringList jobsWithTag(const QString &tag) const;
    QString submitHere(const QString &command);
    QString nodeState(const QString &node) const;
    QStringList strataArgs() const;

    ClusterProfile m_profile;
    QProcessEnvironment m_env;
    QTemporaryDir m_dir;
    QStringList m_jobs;
    QStringList m_drained;
    QStringList m_kubeJobs; // namespace/name
    qint64 m_stoppedPid = -1;
};

void TestFaultActions::initTestCase()
{
    QString error;
    m_profile = labProfile(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_env = QProcessEnvironment::systemEnvironment();
    for (const auto &kv : std::as_const(m_profile.remoteEnvironment))
        if (kv.first == QLatin1String("SLURM_CONF"))
            m_env.insert(kv.first, kv.second);
    QVERIFY2(m_env.contains(QStringLiteral("SLURM_CONF")), "connect.args has no SLURM_CONF");
    QVERIFY(waitForSlurmNodes(30000));
}

void TestFaultActions::cleanup()
{
    if (m_stoppedPid > 0)
        ::kill(pid_t(m_stoppedPid), SIGCONT);
    m_stoppedPid = -1;
    if (!m_jobs.isEmpty())
        slurm(QStringList{QStringLiteral("scancel")} + m_jobs);
    m_jobs.clear();
    for (const QString &node : std::as_const(m_drained))
        slurm({QStringLiteral("scontrol"), QStringLiteral("update"), QStringLiteral("NodeName=") + node, QStringLiteral("State=RESUME")});
    m_drained.clear();
    for (const QString &job : std::as_const(m_kubeJobs)) {
        QProcess kubectl;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KUBECONFIG"), labDir() + QStringLiteral("/kube/kubeconfig"));
        kubectl.setProcessEnvironment(env);
        kubectl.start(QStringLiteral("kubectl"), {QStringLiteral("delete"), QStringLiteral("job"), QStringLiteral("-n"), job.section(QLatin1Char('/'), 0, 0),
                                                  job.section(QLatin1Char('/'), 1), QStringLiteral("--ignore-not-found")});
        kubectl.waitForFinished(30000);
    }
    m_kubeJobs.clear();
}

QString TestFaultActions::slurm(const QStringList &argv, int *exitCode) const
{
    QProcess p;
    p.setProcessEnvironment(m_env);
    p.start(argv.first(), argv.mid(1));
    p.waitForFinished(30000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAllStandardOutput());
}

QStringList TestFaultActions::jobsWithTag(const QString &tag) const
{
    QStringList ids;
    const QString comment = SlurmCommands::submissionComment(tag);
    const QStringList lines = slurm({QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-a"), QStringLiteral("--states=all"),
                                     QStringLiteral("-o"), QStringLiteral("%i|%k")}).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines)
        if (line.section(QLatin1Char('|'), 1) == comment)
            ids << line.section(QLatin1Char('|'), 0, 0);
    return ids;
}

QString TestFaultActions::submitHere(const QString &command)
{
    const QString id = slurm({QStringLiteral("sbatch"), QStringLiteral("--parsable"), QStringLiteral("--wrap"), command}).trimmed();
    if (!id.isEmpty())
        m_jobs << id;
    return id;
}

QString TestFaultActions::nodeState(const QString &node) const
{
    return slurm({QStringLiteral("sinfo"), QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-n"), node,
                  QStringLiteral("-o"), QStringLiteral("%T")})
        .section(QLatin1Char('\n'), 0, 0).trimmed();
}

std::unique_ptr<ClusterSession> TestFaultActions::connectedSession(FaultProxy &proxy)
{
    QString error;
    if (!proxy.start(&error)) {
        QTest::qFail(qPrintable(error), __FILE__, __LINE__);
        return nullptr;
    }
    ClusterProfile p = m_profile;
    p.sshPort = proxy.port();
    p.knownHostsFile = knownHostsThrough(m_profile, proxy.port(), m_dir.path());
    auto session = std::make_unique<ClusterSession>(p);
    const QStringList live{QStringLiteral("ssh"), QStringLiteral("slurm")};
    const QString problem = checkLive(firstLiveRefresh(*session, live), live);
    if (!problem.isEmpty()) {
        QTest::qFail(qPrintable(problem), __FILE__, __LINE__);
        return nullptr;
    }
    // The tests then arm a loss on "the next large client write", meant to be the action's exec
    // request: let any refresh queued behind the first one run and its channels close first,
    // or one of its writes trips the loss instead (seen once on a fresh machine: the refresh's
    // connection went, the submit reconnected into the armed proxy and failed unsent).
    QTest::qWait(300);
    if (!QTest::qWaitFor([&] { return !session->isRefreshing(); }, 60000)) {
        QTest::qFail("the session never went idle after its first refresh", __FILE__, __LINE__);
        return nullptr;
    }
    QTest::qWait(200);
    return session;
}

ActionResult TestFaultActions::nextAction(ClusterSession &session, int timeoutMs, bool *arrived)
{
    ActionResult result;
    *arrived = false;
    QEventLoop loop;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    const auto c = QObject::connect(&session, &ClusterSession::actionFinished, &loop, [&](const ActionResult &r) {
        result = r;
        *arrived = true;
        loop.quit();
    });
    loop.exec();
    QObject::disconnect(c);
    return result;
}

ActionResult TestFaultActions::settle(ClusterSession &session, int timeoutMs, bool *arrived)
{
    ActionResult result;
    *arrived = false;
    const auto c = QObject::connect(&session, &ClusterSession::actionFinished, &session, [&](const ActionResult &r) {
        if (r.reconciled || !r.outcomeUnknown) {
            result = r;
            *arrived = true;
        }
    });
    QElapsedTimer clock;
    clock.start();
    while (!*arrived && clock.elapsed() < timeoutMs) {
        refreshOnce(session, 20000);
        QTest::qWait(300); // the read-back runs after the refresh that reached the cluster
    }
    QObject::disconnect(c);
    return result;
}

void TestFaultActions::submitWhoseAnswerIsLostIsFoundByItsComment()
{
    FaultProxy proxy(quint16(m_profile.sshPort));
    auto session = connectedSession(proxy);
    QVERIFY(session);

    // sbatch reads its script from stdin, which the client sends only once sshd has accepted
    // the exec request. A 2 KiB script makes that write the first one over 1 KiB (the exec
    // request is ~250 bytes): it reaches sshd with its EOF, sbatch submits, and every answer
    // from then on is lost; the connection closes a second later.
    proxy.loseAt(FaultProxy::Loss::Replies, 1024, 1000);
    JobSubmission s;
    s.name = QStringLiteral("fault-answer-lost");
    s.script = QStringLiteral("#!/bin/sh\n") + QStringLiteral("# padding\n").repeated(200) + QStringLiteral("sleep 120\n");
    QElapsedTimer clock;
    clock.start();
    session->submit(s);
    bool arrived = false;
    const ActionResult lost = nextAction(*session, 30000, &arrived);
    QVERIFY2(arrived, "no action result");
    QVERIFY2(clock.elapsed() < (kConnectTimeoutSeconds + kCommandTimeoutSeconds) * 1000, qPrintable(lost.message));
    QCOMPARE(lost.outcome(), ActionOutcome::Unknown);
    QVERIFY(!lost.ok && !lost.reconciled);
    QVERIFY2(lost.message.startsWith(QLatin1String("outcome unknown: ")), qPrintable(lost.message));
    QVERIFY(!lost.tag.isEmpty());
    QCOMPARE(session->unknownActions().size(), 1);

    proxy.pass();
    const ActionResult settled = settle(*session, 30000, &arrived);
    QVERIFY2(arrived, "the unknown submit was never read back");
    const QStringList jobs = jobsWithTag(lost.tag);
    m_jobs << jobs;
    QCOMPARE(jobs.size(), 1); // submitted exactly once: never resent
    QCOMPARE(settled.outcome(), ActionOutcome::Done);
    QVERIFY(settled.reconciled);
    QCOMPARE(settled.jobId, jobs.first());
    QVERIFY2(settled.message.startsWith(QStringLiteral("Submitted batch job %1").arg(jobs.first())), qPrintable(settled.message));
    QVERIFY(session->unknownActions().isEmpty());
}

void TestFaultActions::submitWhoseRequestIsLostIsReportedNotSubmitted()
{
    FaultProxy proxy(quint16(m_profile.sshPort));
    auto session = connectedSession(proxy);
    QVERIFY(session);

    // The exec request (the first client write of 80 bytes or more; the channel-open packet
    // before it is ~50) is dropped: sshd never sees the command.
    proxy.loseAt(FaultProxy::Loss::Request, 80, 1000);
    JobSubmission s;
    s.name = QStringLiteral("fault-request-lost");
    s.script = QStringLiteral("#!/bin/sh\nsleep 120\n");
    session->submit(s);
    bool arrived = false;
    const ActionResult lost = nextAction(*session, 30000, &arrived);
    QVERIFY2(arrived, "no action result");
    QCOMPARE(lost.outcome(), ActionOutcome::Unknown);

    proxy.pass();
    const ActionResult settled = settle(*session, 30000, &arrived);
    QVERIFY2(arrived, "the unknown submit was never read back");
    QCOMPARE(jobsWithTag(lost.tag).size(), 0);
    QCOMPARE(settled.outcome(), ActionOutcome::Failed);
    QVERIFY(settled.reconciled);
    QVERIFY2(settled.message.startsWith(QLatin1String("not submitted: no job carries the comment strata:")), qPrintable(settled.message));
}

void TestFaultActions::cancelWhoseAnswerIsLostIsReadBack()
{
    const QString job = submitHere(QStringLiteral("sleep 120"));
    QVERIFY(!job.isEmpty());
    FaultProxy proxy(quint16(m_profile.sshPort));
    auto session = connectedSession(proxy);
    QVERIFY(session);

    proxy.loseAt(FaultProxy::Loss::Replies, 80, 1000);
    session->cancel(job);
    bool arrived = false;
    const ActionResult lost = nextAction(*session, 30000, &arrived);
    QVERIFY2(arrived, "no action result");
    QCOMPARE(lost.outcome(), ActionOutcome::Unknown);

    proxy.pass();
    const ActionResult settled = settle(*session, 30000, &arrived);
    QVERIFY2(arrived, "the unknown cancel was never read back");
    QCOMPARE(settled.outcome(), ActionOutcome::Done);
    QVERIFY(settled.reconciled);
    QVERIFY2(settled.message.contains(job), qPrintable(settled.message));
    const QString state = slurm({QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-j"), job, QStringLiteral("--states=all"),
                                 QStringLiteral("-o"), QStringLiteral("%T")}).trimmed();
    QVERIFY2(state == QLatin1String("CANCELLED") || state.isEmpty(), qPrintable(state));
}

void TestFaultActions::drainWhoseRequestIsLostIsReadBack()
{
    const QString node = QStringLiteral("gpu-node04");
    QVERIFY2(!nodeState(node).startsWith(QLatin1String("drain")), qPrintable(nodeState(node)));
    FaultProxy proxy(quint16(m_profile.sshPort));
    auto session = connectedSession(proxy);
    QVERIFY(session);

    m_drained << node; // in case it went through after all
    proxy.loseAt(FaultProxy::Loss::Request, 80, 1000);
    session->drain({node}, QStringLiteral("fault test: request lost"));
    bool arrived = false;
    const ActionResult lost = nextAction(*session, 30000, &arrived);
    QVERIFY2(arrived, "no action result");
    QCOMPARE(lost.outcome(), ActionOutcome::Unknown);

    proxy.pass();
    const ActionResult settled = settle(*session, 30000, &arrived);
    QVERIFY2(arrived, "the unknown drain was never read back");
    QCOMPARE(settled.outcome(), ActionOutcome::Failed);
    QVERIFY(settled.reconciled);
    QVERIFY2(settled.message.startsWith(QStringLiteral("not drained: %1 is ").arg(node)), qPrintable(settled.message));
    QVERIFY(!nodeState(node).startsWith(QLatin1String("drain")));

    // The same drain sent again by the person, answered this time: it lands once.
    const ActionResult again = [&] {
        session->drain({node}, QStringLiteral("fault test: second try"));
        return nextAction(*session, 30000, &arrived);
    }();
    QVERIFY2(arrived && again.ok, qPrintable(again.message));
    QVERIFY2(nodeState(node).startsWith(QLatin1String("drain")), qPrintable(nodeState(node)));
}

void TestFaultActions::kubernetesSubmitWhoseAnswerIsLostIsFoundByItsLabel()
{
    const QString kubeconfig = labDir() + QStringLiteral("/kube/kubeconfig");
    QVERIFY2(QFile::exists(kubeconfig), "the lab wrote no kubeconfig: is the Kubernetes stand-in up?");
    FaultProxy proxy(quint16(m_profile.sshPort));
    QString error;
    QVERIFY2(proxy.start(&error), qPrintable(error));
    ClusterProfile p = m_profile;
    p.orchestrator = OrchestratorKind::Kubernetes;
    replaceRemoteEnvironment(p, QStringLiteral("KUBECONFIG"), kubeconfig);
    p.sshPort = proxy.port();
    p.knownHostsFile = knownHostsThrough(m_profile, proxy.port(), m_dir.path());
    ClusterSession session(p);
    const QStringList live{QStringLiteral("ssh"), QStringLiteral("kubernetes")};
    const Refresh good = firstLiveRefresh(session, live);
    QString problem = checkLive(good, live);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    // `kubectl create -f -` gets the manifest on stdin once the exec request is accepted; a
    // command with 2 KiB of comment makes that the first write over 1 KiB. It reaches kubectl,
    // the Job is created, every answer is lost.
    proxy.loseAt(FaultProxy::Loss::Replies, 1024, 1000);
    JobSubmission s;
    s.name = QStringLiteral("fault-kube-answer-lost");
    s.image = QStringLiteral("busybox");
    s.command = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("sleep 60 #") + QStringLiteral(" padding").repeated(256)};
    session.submit(s);
    bool arrived = false;
    const ActionResult lost = nextAction(session, 30000, &arrived);
    QVERIFY2(arrived, "no action result");
    QCOMPARE(lost.outcome(), ActionOutcome::Unknown);
    QVERIFY(!lost.tag.isEmpty());

    proxy.pass();
    const ActionResult settled = settle(session, 30000, &arrived);
    QVERIFY2(arrived, "the unknown submit was never read back");
    if (!settled.jobId.isEmpty())
        m_kubeJobs << settled.jobId;
    QCOMPARE(settled.outcome(), ActionOutcome::Done);
    QVERIFY(settled.reconciled);
    QVERIFY2(settled.message.contains(QStringLiteral("strata.io/submission=") + lost.tag), qPrintable(settled.message));
    // Exactly one Job carries the label: created once, never resent.
    QProcess kubectl;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfig);
    kubectl.setProcessEnvironment(env);
    kubectl.start(QStringLiteral("kubectl"), {QStringLiteral("get"), QStringLiteral("jobs"), QStringLiteral("-A"), QStringLiteral("-l"),
                                              QStringLiteral("strata.io/submission=") + lost.tag, QStringLiteral("-o"),
                                              QStringLiteral("jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{\"\\n\"}{end}")});
    QVERIFY(kubectl.waitForFinished(30000));
    const QStringList jobs = QString::fromUtf8(kubectl.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(jobs, QStringList{settled.jobId});
}

void TestFaultActions::burninLaunchWhoseAnswerIsLostIsFollowed()
{
    const QString agent = QStringLiteral(STRATA_BINARY_DIR "/burnin/strata-burn");
    if (!QFile::exists(agent))
        QSKIP("strata-burn is not built");
    FaultProxy proxy(quint16(m_profile.sshPort));
    QString error;
    QVERIFY2(proxy.start(&error), qPrintable(error));
    ClusterProfile p = m_profile;
    p.sshPort = proxy.port();
    p.knownHostsFile = knownHostsThrough(m_profile, proxy.port(), m_dir.path());
    BurninSlurmTransport launcher(std::make_shared<SshRemoteShell>(SshOptions::fromProfile(p)));
    launcher.setPollIntervalMs(500);

    BurninRequest request;
    request.nodes = {QStringLiteral("gpu-node03")};
    request.tests = {QStringLiteral("gemm")};
    request.durationSeconds = 2;
    request.backend = QStringLiteral("cpu");
    request.gpusByNode.insert(QStringLiteral("gpu-node03"), 8);
    request.agentLocalPath = agent;

    // Deployment passes; once it submits, sbatch's exec request (the first write over 200
    // bytes) passes too and the batch script on its stdin (the second) trips the loss: sbatch
    // gets the script and submits, its answer is lost.
    bool sawUnknown = false;
    QString jobId, failure;
    QEventLoop loop;
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    connect(&launcher, &BurninTransport::stageChanged, &loop, [&](const QString &stage) {
        if (stage == QLatin1String("submitting"))
            proxy.loseAt(FaultProxy::Loss::Replies, 200, 1000, 1);
        if (stage.startsWith(QLatin1String("outcome unknown: "))) {
            sawUnknown = true;
            proxy.pass(); // the read-back reconnects
        }
    });
    connect(&launcher, &BurninTransport::submitted, &loop, [&](const QString &id) {
        jobId = id;
        loop.quit();
    });
    connect(&launcher, &BurninTransport::failed, &loop, [&](const QString &message) {
        failure = message;
        loop.quit();
    });
    launcher.start(request);
    loop.exec();
    if (!jobId.isEmpty())
        m_jobs << jobId;
    launcher.cancel();
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY2(sawUnknown, "the launch's answer was not lost");
    QVERIFY(!jobId.isEmpty());
    const QString comment = slurm({QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-j"), jobId, QStringLiteral("--states=all"),
                                   QStringLiteral("-o"), QStringLiteral("%k")}).trimmed();
    QVERIFY2(comment.startsWith(QLatin1String("strata:")), qPrintable(comment));
    QCOMPARE(jobsWithTag(comment.mid(7)), QStringList{jobId}); // launched once
}

QStringList TestFaultActions::strataArgs() const
{
    QStringList args;
    for (const QString &line : QString::fromUtf8([&] {
             QFile f(labDir() + QStringLiteral("/connect.args"));
             return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
         }()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        args << line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return args;
}

void TestFaultActions::cliExitsThreeWhileTheOutcomeStaysUnknown()
{
    // A frozen controller: sbatch, sent, waits; the command timeout ends Strata's wait, and the
    // read-backs (squeue) time out too. The outcome is unknown and the exit status says so.
    m_stoppedPid = servicePid(QStringLiteral("slurmctld"));
    QVERIFY(m_stoppedPid > 0);
    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGSTOP), 0);
    QProcess cli;
    cli.setProcessEnvironment(m_env);
    QElapsedTimer clock;
    clock.start();
    cli.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata"),
              QStringList{QStringLiteral("submit")} + strataArgs()
                  + QStringList{QStringLiteral("--command-timeout"), QStringLiteral("2"), QStringLiteral("--name"),
                                QStringLiteral("fault-cli-unknown"), QStringLiteral("--wrap"), QStringLiteral("sleep 120")});
    QVERIFY(cli.waitForFinished(60000));
    const qint64 elapsed = clock.elapsed();
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGCONT), 0);
    m_stoppedPid = -1;
    QCOMPARE(cli.exitCode(), 3);
    QVERIFY2(cli.readAllStandardOutput().isEmpty(), "a result was printed for an unknown outcome");
    QVERIFY2(err.contains(QLatin1String("submit fault-cli-unknown: outcome unknown: ")), qPrintable(err));
    static const QRegularExpression tagRe(QStringLiteral("the submission's tag: ([0-9a-f-]{36})"));
    const auto m = tagRe.match(err);
    QVERIFY2(m.hasMatch(), qPrintable(err));
    // The submit, the refresh after it and three read-backs, each at most 2 s, 2 s apart.
    QVERIFY2(elapsed < 20000, qPrintable(QStringLiteral("%1 ms").arg(elapsed)));

    // Whatever sbatch did once the controller woke up, it did it at most once.
    QVERIFY(waitForSlurmNodes(30000));
    QTest::qWait(2000);
    const QStringList jobs = jobsWithTag(m.captured(1));
    m_jobs << jobs;
    QVERIFY2(jobs.size() <= 1, qPrintable(jobs.join(QLatin1Char(','))));
}

void TestFaultActions::cliFindsTheJobWhenTheControllerComesBack()
{
    // Frozen while sbatch is sent (its answer never comes within the command timeout), woken
    // while the CLI reads back: the job sbatch submitted is found by its comment, exit 0.
    m_stoppedPid = servicePid(QStringLiteral("slurmctld"));
    QVERIFY(m_stoppedPid > 0);
    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGSTOP), 0);
    QProcess cli;
    cli.setProcessEnvironment(m_env);
    cli.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata"),
              QStringList{QStringLiteral("submit")} + strataArgs()
                  + QStringList{QStringLiteral("--command-timeout"), QStringLiteral("2"), QStringLiteral("--name"),
                                QStringLiteral("fault-cli-found"), QStringLiteral("--wrap"), QStringLiteral("sleep 120")});
    QVERIFY(cli.waitForStarted(5000));
    QTest::qWait(3500); // past the submit's timeout; sbatch itself still waits for the controller
    QCOMPARE(::kill(pid_t(m_stoppedPid), SIGCONT), 0);
    m_stoppedPid = -1;
    QVERIFY(cli.waitForFinished(60000));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput()).trimmed();
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    static const QRegularExpression found(QStringLiteral("^Submitted batch job (\\d+) \\(found by its comment strata:([0-9a-f-]{36}) after the answer was lost\\)$"));
    const auto m = found.match(out);
    if (m.hasMatch())
        m_jobs << m.captured(1);
    QVERIFY2(err.contains(QLatin1String("submit fault-cli-found: outcome unknown: ")), qPrintable(err));
    QVERIFY2(m.hasMatch(), qPrintable(out + QLatin1Char('\n') + err));
    QCOMPARE(cli.exitCode(), 0);
    QCOMPARE(jobsWithTag(m.captured(2)), QStringList{m.captured(1)});
}

QTEST_GUILESS_MAIN(TestFaultActions)
#include "tst_fault_actions.moc"
