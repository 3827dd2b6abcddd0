// The kinds' words (issue 24): every enum reads back from the word it writes, the words are the
// ones the profile file, the snapshot JSON and the CLI have always carried, and a word that
// names nothing is refused (or is Other) instead of read as a neighbour.
#include "model/action_kind.h"
#include "model/job.h"
#include "model/job_state.h"
#include "model/kube_api_route.h"
#include "model/orchestrator_kind.h"
#include "model/power_state.h"
#include "model/source_kind.h"

#include <QTest>

using namespace strata;

class TestKindWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sourceKind_data()
    {
        QTest::addColumn<SourceKind>("kind");
        QTest::addColumn<QString>("word");
        QTest::newRow("ssh") << SourceKind::Ssh << QStringLiteral("ssh");
        QTest::newRow("slurm") << SourceKind::Slurm << QStringLiteral("slurm");
        QTest::newRow("prometheus") << SourceKind::Prometheus << QStringLiteral("prometheus");
        QTest::newRow("kubernetes") << SourceKind::Kubernetes << QStringLiteral("kubernetes");
    }
    void sourceKind()
    {
        QFETCH(SourceKind, kind);
        QFETCH(QString, word);
        QCOMPARE(sourceKindName(kind), word);
        QVERIFY(parseSourceKind(word));
        QCOMPARE(*parseSourceKind(word), kind);
    }

    void orchestratorKind_data()
    {
        QTest::addColumn<OrchestratorKind>("kind");
        QTest::addColumn<QString>("word");
        QTest::addColumn<SourceKind>("source");
        QTest::newRow("slurm") << OrchestratorKind::Slurm << QStringLiteral("slurm") << SourceKind::Slurm;
        QTest::newRow("kubernetes") << OrchestratorKind::Kubernetes << QStringLiteral("kubernetes") << SourceKind::Kubernetes;
    }
    void orchestratorKind()
    {
        QFETCH(OrchestratorKind, kind);
        QFETCH(QString, word);
        QFETCH(SourceKind, source);
        QCOMPARE(orchestratorKindName(kind), word);
        QVERIFY(parseOrchestratorKind(word));
        QCOMPARE(*parseOrchestratorKind(word), kind);
        QCOMPARE(strata::sourceKind(kind), source);
    }

    void powerState_data()
    {
        QTest::addColumn<PowerState>("state");
        QTest::addColumn<QString>("word");
        QTest::newRow("launched") << PowerState::Launched << QStringLiteral("launched");
        QTest::newRow("powering-up") << PowerState::PoweringUp << QStringLiteral("powering-up");
        QTest::newRow("powered-down") << PowerState::PoweredDown << QStringLiteral("powered-down");
        QTest::newRow("powering-down") << PowerState::PoweringDown << QStringLiteral("powering-down");
        QTest::newRow("failed-to-launch") << PowerState::FailedToLaunch << QStringLiteral("failed-to-launch");
    }
    void powerState()
    {
        QFETCH(PowerState, state);
        QFETCH(QString, word);
        QCOMPARE(powerStateName(state), word);
        QVERIFY(parsePowerState(word));
        QCOMPARE(*parsePowerState(word), state);
        QVERIFY(!parsePowerState(word.toUpper()));
        QCOMPARE(isLaunched(state), state == PowerState::Launched);
    }

    void kubeApiRoute_data()
    {
        QTest::addColumn<KubeApiRoute>("route");
        QTest::addColumn<QString>("word");
        QTest::newRow("auto") << KubeApiRoute::Auto << QStringLiteral("auto");
        QTest::newRow("direct") << KubeApiRoute::Direct << QStringLiteral("direct");
        QTest::newRow("kubectl") << KubeApiRoute::Kubectl << QStringLiteral("kubectl");
    }
    void kubeApiRoute()
    {
        QFETCH(KubeApiRoute, route);
        QFETCH(QString, word);
        QCOMPARE(kubeApiRouteName(route), word);
        QVERIFY(parseKubeApiRoute(word));
        QCOMPARE(*parseKubeApiRoute(word), route);
    }

    void actionKind_data()
    {
        QTest::addColumn<ActionKind>("kind");
        QTest::addColumn<QString>("word");
        QTest::newRow("submit") << ActionKind::Submit << QStringLiteral("submit");
        QTest::newRow("cancel") << ActionKind::Cancel << QStringLiteral("cancel");
        QTest::newRow("drain") << ActionKind::Drain << QStringLiteral("drain");
        QTest::newRow("resume") << ActionKind::Resume << QStringLiteral("resume");
        QTest::newRow("silence") << ActionKind::Silence << QStringLiteral("silence");
        QTest::newRow("expire-silence") << ActionKind::ExpireSilence << QStringLiteral("expire-silence");
    }
    void actionKind()
    {
        QFETCH(ActionKind, kind);
        QFETCH(QString, word);
        QCOMPARE(actionKindName(kind), word);
        QVERIFY(parseActionKind(word));
        QCOMPARE(*parseActionKind(word), kind);
    }

    // Words that name none of the kinds: other spellings, neighbours, nothing.
    void unknownWordsAreRefused_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("empty") << QString();
        QTest::newRow("capitalised") << QStringLiteral("Kubernetes");
        QTest::newRow("upper case") << QStringLiteral("SLURM");
        QTest::newRow("padded") << QStringLiteral(" ssh");
        QTest::newRow("a neighbour") << QStringLiteral("k8s");
    }
    void unknownWordsAreRefused()
    {
        QFETCH(QString, word);
        QVERIFY(!parseSourceKind(word));
        QVERIFY(!parseOrchestratorKind(word));
        QVERIFY(!parseKubeApiRoute(word));
        QVERIFY(!parseActionKind(word));
        QCOMPARE(parseJobState(word), JobState::Other);
    }

    // Slurm's JOB_STATE names and the words KubernetesPartBuilder gives Jobs and pods.
    void jobState_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<JobState>("state");
        QTest::newRow("PENDING") << QStringLiteral("PENDING") << JobState::Pending;
        QTest::newRow("CONFIGURING") << QStringLiteral("CONFIGURING") << JobState::Configuring;
        QTest::newRow("RUNNING") << QStringLiteral("RUNNING") << JobState::Running;
        QTest::newRow("COMPLETING") << QStringLiteral("COMPLETING") << JobState::Completing;
        QTest::newRow("SUSPENDED") << QStringLiteral("SUSPENDED") << JobState::Suspended;
        QTest::newRow("COMPLETED") << QStringLiteral("COMPLETED") << JobState::Completed;
        QTest::newRow("SUCCEEDED") << QStringLiteral("SUCCEEDED") << JobState::Succeeded;
        QTest::newRow("TERMINATING") << QStringLiteral("TERMINATING") << JobState::Terminating;
        QTest::newRow("CANCELLED") << QStringLiteral("CANCELLED") << JobState::Cancelled;
        QTest::newRow("FAILED") << QStringLiteral("FAILED") << JobState::Failed;
        QTest::newRow("TIMEOUT") << QStringLiteral("TIMEOUT") << JobState::Timeout;
        QTest::newRow("NODE_FAIL") << QStringLiteral("NODE_FAIL") << JobState::NodeFail;
        QTest::newRow("PREEMPTED") << QStringLiteral("PREEMPTED") << JobState::Preempted;
        QTest::newRow("OUT_OF_MEMORY") << QStringLiteral("OUT_OF_MEMORY") << JobState::OutOfMemory;
        QTest::newRow("BOOT_FAIL") << QStringLiteral("BOOT_FAIL") << JobState::BootFail;
        QTest::newRow("DEADLINE") << QStringLiteral("DEADLINE") << JobState::Deadline;
        QTest::newRow("REQUEUED") << QStringLiteral("REQUEUED") << JobState::Requeued;
        QTest::newRow("REQUEUE_HOLD") << QStringLiteral("REQUEUE_HOLD") << JobState::RequeueHold;
        QTest::newRow("REQUEUE_FED") << QStringLiteral("REQUEUE_FED") << JobState::RequeueFederated;
        QTest::newRow("RESIZING") << QStringLiteral("RESIZING") << JobState::Resizing;
        QTest::newRow("REVOKED") << QStringLiteral("REVOKED") << JobState::Revoked;
        QTest::newRow("SIGNALING") << QStringLiteral("SIGNALING") << JobState::Signaling;
        QTest::newRow("SPECIAL_EXIT") << QStringLiteral("SPECIAL_EXIT") << JobState::SpecialExit;
        QTest::newRow("STAGE_OUT") << QStringLiteral("STAGE_OUT") << JobState::StageOut;
        QTest::newRow("STOPPED") << QStringLiteral("STOPPED") << JobState::Stopped;
    }
    void jobState()
    {
        QFETCH(QString, word);
        QFETCH(JobState, state);
        QCOMPARE(parseJobState(word), state);
        QCOMPARE(jobStateName(state), word);
    }

    // Parsers hand the upper-case word; anything else is another state, kept as written.
    void jobStateOtherWords_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("lower case") << QStringLiteral("running");
        QTest::newRow("with a suffix") << QStringLiteral("CANCELLED+");
        QTest::newRow("unknown") << QStringLiteral("RESV_DEL_HOLD");
    }
    void jobStateOtherWords()
    {
        QFETCH(QString, word);
        QCOMPARE(parseJobState(word), JobState::Other);
        QCOMPARE(jobStateName(JobState::Other), QString());
    }

    // A job's word and its state are set together; isRunning/isPending decide on the state.
    void jobSetStateKeepsTheWord_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<JobState>("state");
        QTest::addColumn<bool>("running");
        QTest::addColumn<bool>("pending");
        QTest::newRow("running") << QStringLiteral("RUNNING") << JobState::Running << true << false;
        QTest::newRow("pending") << QStringLiteral("PENDING") << JobState::Pending << false << true;
        QTest::newRow("completing") << QStringLiteral("COMPLETING") << JobState::Completing << false << false;
        QTest::newRow("unknown word") << QStringLiteral("ODD") << JobState::Other << false << false;
    }
    void jobSetStateKeepsTheWord()
    {
        QFETCH(QString, word);
        QFETCH(JobState, state);
        QFETCH(bool, running);
        QFETCH(bool, pending);
        Job job;
        QCOMPARE(job.stateKind, JobState::Other);
        QVERIFY(!job.isRunning());
        job.setState(word);
        QCOMPARE(job.state, word);
        QCOMPARE(job.stateKind, state);
        QCOMPARE(job.isRunning(), running);
        QCOMPARE(job.isPending(), pending);
    }
};

QTEST_GUILESS_MAIN(TestKindWords)
#include "tst_kind_words.moc"
