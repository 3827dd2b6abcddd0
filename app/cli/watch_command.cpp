#include "watch_command.h"

#include "cli/burnin_command.h"
#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"
#include "burnin/burnin_history.h"
#include "repair/repair_engine.h"
#include "session/cluster_session.h"
#include "session/terminal_login_prompter.h"
#include "slurm/hostlist.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <csignal>

namespace strata {

namespace {

const QCommandLineOption kOnce{QStringLiteral("once"), QStringLiteral("Run until nothing more is to be done now (tests waited for), then exit.")};
const QCommandLineOption kApply{QStringLiteral("apply"), QStringLiteral("Act: drain, test, return (without it: plan and preview only; a policy with \"dryRun\": true stays dry).")};
const QCommandLineOption kDryRun{QStringLiteral("dry-run"), QStringLiteral("Plan and preview only (the default without --apply).")};
const QCommandLineOption kPolicy{QStringLiteral("policy"), QStringLiteral("The repair policy as a JSON file (default: the profile's \"repair\")."), QStringLiteral("file")};
const QCommandLineOption kConfirm{QStringLiteral("confirm"), QStringLiteral("Drain these nodes even though they run other users' jobs (host list; repeatable)."), QStringLiteral("nodes")};
const QCommandLineOption kBackend{QStringLiteral("backend"), QStringLiteral("The burn-in's backend: cuda or cpu (default: cuda where a GPU is found)."), QStringLiteral("name")};
const QCommandLineOption kInject{QStringLiteral("inject"), QStringLiteral("Self-test fault for the burn-in, NODE=bitflip|slow[:GPU] (repeatable)."), QStringLiteral("NODE=KIND")};
const QCommandLineOption kAgentBinary{QStringLiteral("agent-binary"), QStringLiteral("Local strata-burn to deploy."), QStringLiteral("file")};
const QCommandLineOption kImage{QStringLiteral("image"), QStringLiteral("Kubernetes: the burn-in's image containing strata-burn (default: the profile's burninImage)."), QStringLiteral("image")};
const QCommandLineOption kHistory{QStringLiteral("history"), QStringLiteral("Burn-in history database (default ~/.local/share/strata/burnin.sqlite)."), QStringLiteral("file")};

// Passes of one --once run at most: a loop that never settles is a bug, said, not spun.
constexpr int kMaxOncePasses = 20;

volatile std::sig_atomic_t g_interrupted = 0;
void onInterrupt(int)
{
    g_interrupted = 1;
}

QJsonObject stepJson(const RepairStep &s, const QString &error)
{
    QJsonObject o{{QLatin1String("node"), s.node},
                  {QLatin1String("step"), repairStepKindName(s.kind)},
                  {QLatin1String("from"), nodeHealthStateName(s.from)},
                  {QLatin1String("to"), nodeHealthStateName(s.to)},
                  {QLatin1String("evidenceCode"), s.evidenceCode},
                  {QLatin1String("evidence"), s.evidence},
                  {QLatin1String("taken"), s.isTaken() && error.isEmpty()}};
    if (!s.isTaken()) {
        o[QLatin1String("held")] = repairHoldName(s.hold);
        o[QLatin1String("why")] = s.holdReason;
    }
    if (!error.isEmpty())
        o[QLatin1String("error")] = error;
    if (s.kind == RepairStepKind::Drain) {
        QJsonArray jobs;
        for (const DrainPreview::AffectedJob &j : s.preview.jobs)
            jobs.append(QJsonObject{{QLatin1String("id"), j.id}, {QLatin1String("name"), j.name}, {QLatin1String("user"), j.user},
                                    {QLatin1String("gpusOnNode"), j.gpusOnNode}});
        QJsonArray partitions;
        for (const DrainPreview::PartitionCapacity &c : s.preview.partitions)
            partitions.append(QJsonObject{{QLatin1String("name"), c.name}, {QLatin1String("nodes"), c.nodes},
                                          {QLatin1String("nodesInService"), c.nodesInService},
                                          {QLatin1String("nodesInServiceAfter"), c.nodesInServiceAfter},
                                          {QLatin1String("gpusInService"), c.gpusInService},
                                          {QLatin1String("gpusInServiceAfter"), c.gpusInServiceAfter}});
        o[QLatin1String("preview")] = QJsonObject{{QLatin1String("jobs"), jobs}, {QLatin1String("partitions"), partitions},
                                                  {QLatin1String("summary"), s.preview.summary()}};
    }
    return o;
}

QString stepText(const RepairStep &s, const QString &error)
{
    QString line = QStringLiteral("%1: %2 (%3 -> %4)").arg(s.node, repairStepKindName(s.kind), nodeHealthStateName(s.from), nodeHealthStateName(s.to));
    if (!s.evidenceCode.isEmpty())
        line += QStringLiteral(": %1: %2").arg(s.evidenceCode, s.evidence);
    if (!s.isTaken())
        line += QStringLiteral("\n  held (%1): %2").arg(repairHoldName(s.hold), s.holdReason);
    else if (!error.isEmpty())
        line += QStringLiteral("\n  FAILED: %1").arg(error);
    if (s.kind == RepairStepKind::Drain)
        line += QStringLiteral("\n  preview: %1").arg(s.preview.summary());
    return line;
}

} // namespace

QList<QCommandLineOption> WatchCommand::options()
{
    return {kOnce, kApply, kDryRun, kPolicy, kConfirm, kBackend, kInject, kAgentBinary, kImage, kHistory};
}

int WatchCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    if (parser.isSet(kApply) && parser.isSet(kDryRun)) {
        CliOutput::error(QStringLiteral("watch takes --apply or --dry-run, not both"));
        return 2;
    }
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    if (parser.isSet(kImage))
        profile.burninImage = parser.value(kImage);
    QJsonObject policyJson = profile.repairPolicy;
    if (parser.isSet(kPolicy)) {
        QFile file(parser.value(kPolicy));
        if (!file.open(QIODevice::ReadOnly)) {
            CliOutput::error(QStringLiteral("cannot read --policy %1: %2").arg(file.fileName(), file.errorString()));
            return 2;
        }
        QJsonParseError jsonError;
        const QJsonDocument doc = QJsonDocument::fromJson(file.read(1024 * 1024), &jsonError);
        if (!doc.isObject()) {
            CliOutput::error(QStringLiteral("--policy %1 is not a JSON object%2").arg(file.fileName(),
                jsonError.error == QJsonParseError::NoError ? QString() : QStringLiteral(": ") + jsonError.errorString()));
            return 2;
        }
        policyJson = doc.object();
    }
    QString error;
    const std::optional<RepairPolicy> policy = RepairPolicy::fromJson(policyJson, &error);
    if (!policy) {
        CliOutput::error(QStringLiteral("the repair policy is refused: %1").arg(error));
        return 2;
    }
    RepairEngine::Options options;
    options.policy = *policy;
    // A shared profile's policy never acts by itself: only the operator's --apply arms it.
    options.dryRun = !parser.isSet(kApply);
    options.operatorUser = profile.sshUser.isEmpty() ? qEnvironmentVariable("USER") : profile.sshUser;
    QStringList confirmed;
    if (!Hostlist::expandAll(parser.values(kConfirm), &confirmed, &error)) {
        CliOutput::error(QStringLiteral("--confirm: %1").arg(error));
        return 2;
    }
    options.confirmed = QSet<QString>(confirmed.begin(), confirmed.end());
    options.burninBackend = parser.value(kBackend);
    for (const QString &inject : parser.values(kInject)) {
        const qsizetype eq = inject.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            CliOutput::error(QStringLiteral("--inject \"%1\" is not NODE=KIND").arg(inject));
            return 2;
        }
        options.injectByNode.insert(inject.left(eq), inject.mid(eq + 1));
    }
    options.agentLocalPath = BurninCommand::localAgentPath(parser);
    options.burninHistoryPath = parser.isSet(kHistory) ? parser.value(kHistory) : BurninHistory::defaultPath();
    const bool json = parser.value(QStringLiteral("format")) == QLatin1String("json");
    const bool once = parser.isSet(kOnce);

    ClusterSession session(profile, std::make_shared<TerminalLoginPrompter>());
    RepairEngine engine(&session, options);
    if (const QString problem = engine.configurationProblem(); !problem.isEmpty()) {
        CliOutput::error(problem);
        return 2;
    }
    int exitCode = 0;
    int passes = 0;
    bool loaded = false;
    const auto say = [&](const QString &text) { CliOutput::line(QStringLiteral("strata watch: ") + text); };
    const auto stepOut = [&](const RepairStep &s, const QString &stepError) {
        if (!stepError.isEmpty())
            exitCode = 1;
        if (json)
            CliOutput::out(QString::fromUtf8(QJsonDocument(stepJson(s, stepError)).toJson(QJsonDocument::Compact)) + QLatin1Char('\n'));
        else
            CliOutput::out(stepText(s, stepError) + QLatin1Char('\n'));
    };
    QObject::connect(&engine, &RepairEngine::stepDone, &app, stepOut);
    QObject::connect(&engine, &RepairEngine::stepHeld, &app, [&](const RepairStep &s) { stepOut(s, {}); });
    QObject::connect(&engine, &RepairEngine::message, &app, say);
    QObject::connect(&engine, &RepairEngine::published, &app, [&](const QString &e) {
        if (!e.isEmpty()) {
            exitCode = 1;
            say(QStringLiteral("publishing failed: %1").arg(e));
        }
    });
    QObject::connect(&engine, &RepairEngine::testFinished, &app, [&](const QString &node, bool passed, const QString &evidence) {
        say(QStringLiteral("%1 test %2: %3").arg(node, passed ? QStringLiteral("passed") : QStringLiteral("did not pass"), evidence));
        session.refreshNow();
    });
    // --once: a pass that took nothing, with no test running, is the end.
    QObject::connect(&engine, &RepairEngine::passFinished, &app, [&] {
        if (!once)
            return;
        bool tookAny = false;
        for (const RepairStep &s : engine.lastSteps())
            tookAny = tookAny || s.isTaken();
        if (!tookAny && !engine.isTestRunning()) {
            app.quit();
        } else if (++passes >= kMaxOncePasses) {
            say(QStringLiteral("still acting after %1 passes: stopping").arg(kMaxOncePasses));
            exitCode = 1;
            app.quit();
        } else if (!engine.isTestRunning()) {
            session.refreshNow();
        }
    });
    QObject::connect(&session, &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        const SourceStatus *s = snapshot->source(sourceKind(snapshot->orchestrator));
        if (!s || !s->ok) {
            say(s ? s->error : QStringLiteral("no answer from the cluster"));
            if (once) {
                exitCode = 1;
                app.quit();
            }
            return;
        }
        if (loaded && !engine.pass(snapshot) && once && !engine.isPassRunning() && !engine.isTestRunning())
            QTimer::singleShot(500, &session, [&session] { session.refreshNow(); }); // older than the last action: read again
    });
    QObject::connect(&engine, &RepairEngine::recordsLoaded, &app, [&](const QString &e) {
        if (!e.isEmpty()) {
            CliOutput::error(e);
            exitCode = 1;
            app.quit();
            return;
        }
        loaded = true;
        say(QStringLiteral("%1 node record(s), %2 GPU record(s) read back; policy: %3%4")
                .arg(engine.records().size())
                .arg(engine.gpuRecords().size())
                .arg(QString::fromUtf8(QJsonDocument(options.policy.toJson()).toJson(QJsonDocument::Compact)),
                     options.dryRun || options.policy.dryRun ? QStringLiteral(" (dry run)") : QString()));
        if (once)
            session.refreshNow();
        else
            session.start();
    });
    QTimer interruptCheck;
    QObject::connect(&interruptCheck, &QTimer::timeout, &app, [&] {
        if (g_interrupted) {
            say(QStringLiteral("interrupted"));
            exitCode = 130;
            app.quit();
        }
    });
    interruptCheck.start(200);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    engine.loadRecords();
    app.exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return exitCode;
}

} // namespace strata
