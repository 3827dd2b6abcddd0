#include "burnin_command.h"

#include "cli/cli_profile_resolver.h"
#include "cli/burnin_progress_meter.h"
#include "cli/cli_output.h"

#include "burnin/burnin_history.h"
#include "burnin/burnin_kubernetes_transport.h"
#include "burnin/burnin_session.h"
#include "model/snapshot_json.h"
#include "session/cluster_session.h"
#include "slurm/hostlist.h"
#include "slurm/slurm_commands.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>
#include <optional>

namespace strata {

namespace {

const QCommandLineOption kNodes{QStringLiteral("nodes"), QStringLiteral("Nodes to test (host list: gpu-node[01-02])."), QStringLiteral("nodes")};
const QCommandLineOption kTests{QStringLiteral("tests"), QStringLiteral("Tests: gemm,hbm,pcie,p2p (default gemm,hbm)."), QStringLiteral("list")};
const QCommandLineOption kDuration{QStringLiteral("duration"), QStringLiteral("Per test: 60s, 2m (default 60s)."), QStringLiteral("time")};
const QCommandLineOption kBackend{QStringLiteral("backend"), QStringLiteral("cuda or cpu (default: cuda where a GPU is found)."), QStringLiteral("name")};
const QCommandLineOption kInject{QStringLiteral("inject"), QStringLiteral("Self-test fault, NODE=bitflip|slow[:GPU] (repeatable)."), QStringLiteral("NODE=KIND")};
const QCommandLineOption kDrainOnFail{QStringLiteral("drain-on-fail"), QStringLiteral("Drain failing nodes with a reason naming GPU, test and figure.")};
const QCommandLineOption kYes{QStringLiteral("yes"), QStringLiteral("Drain failing nodes even if they run other users' jobs.")};
const QCommandLineOption kDirect{QStringLiteral("direct"), QStringLiteral("No scheduler: start the agent on each node over SSH from the login node.")};
const QCommandLineOption kNodeSsh{QStringLiteral("node-ssh"), QStringLiteral("With --direct: how the login node reaches a node, the node's name appended (default: ssh -o BatchMode=yes)."), QStringLiteral("command")};
const QCommandLineOption kAgentBinary{QStringLiteral("agent-binary"), QStringLiteral("Local strata-burn to deploy."), QStringLiteral("file")};
const QCommandLineOption kOutputDir{QStringLiteral("output-dir"), QStringLiteral("Remote directory for results, one run-TIME-ID subdirectory per run (default ~/.cache/strata/burnin)."), QStringLiteral("dir")};
const QCommandLineOption kHistory{QStringLiteral("history"), QStringLiteral("Burn-in history database (default ~/.local/share/strata/burnin.sqlite)."), QStringLiteral("file")};
const QCommandLineOption kAttach{QStringLiteral("attach"), QStringLiteral("Follow a burn-in already running: its Slurm job id, or on Kubernetes its Jobs (ns/name,... as printed at launch)."), QStringLiteral("job")};
const QCommandLineOption kBurnImage{QStringLiteral("image"), QStringLiteral("Kubernetes: image containing strata-burn (default: the profile's)."), QStringLiteral("image")};
const QCommandLineOption kReservation{QStringLiteral("reservation"), QStringLiteral("Slurm reservation to run in (e.g. a maintenance reservation of drained nodes)."), QStringLiteral("name")};
const QCommandLineOption kPartition{QStringLiteral("partition"), QStringLiteral("Partition for the burn-in job."), QStringLiteral("name")};

void err(const QString &text)
{
    CliOutput::line(text);
}

void out(const QString &text)
{
    CliOutput::out(text);
}

int durationSeconds(const QString &text, bool *ok)
{
    *ok = true;
    QString t = text.trimmed();
    int factor = 1;
    if (t.endsWith(QLatin1Char('s')))
        t.chop(1);
    else if (t.endsWith(QLatin1Char('m'))) {
        t.chop(1);
        factor = 60;
    }
    // A week per test at most, checked before multiplying (v * 60 past int would wrap): a
    // burn-in longer than that is a typo, not a test.
    constexpr int maxSeconds = 7 * 86400;
    const int v = t.toInt(ok);
    *ok = *ok && v > 0 && v <= maxSeconds / factor;
    return *ok ? v * factor : 0;
}

QJsonObject verdictToJson(const BurninVerdict &v, const QString &jobId, const QStringList &drained, const QStringList &notDrained)
{
    QJsonArray gpus;
    for (const BurninGpuVerdict &g : v.gpus) {
        QJsonArray tests;
        for (const BurninTestVerdict &t : g.tests)
        {
            QJsonObject test{{QLatin1String("test"), t.test}, {QLatin1String("passed"), t.passed},
                             {QLatin1String("skipped"), t.skipped},
                             {QLatin1String("figure"), t.figure ? QJsonValue(*t.figure) : QJsonValue(QJsonValue::Null)},
                             {QLatin1String("reasons"), QJsonArray::fromStringList(t.reasons)}};
            if (!t.engine.isEmpty())
                test.insert(QLatin1String("engine"), t.engine);
            if (t.fleet)
                test.insert(QLatin1String("fleet"), QJsonObject{{QLatin1String("standing"), fleetStandingName(t.fleet->standing)},
                                                                {QLatin1String("peers"), t.fleet->peers},
                                                                {QLatin1String("median"), t.fleet->median},
                                                                {QLatin1String("mad"), t.fleet->mad},
                                                                {QLatin1String("robustZ"), t.fleet->robustZ},
                                                                {QLatin1String("explanation"), t.fleet->explanation}});
            tests.append(test);
        }
        gpus.append(QJsonObject{{QLatin1String("node"), g.node}, {QLatin1String("gpu"), g.gpu}, {QLatin1String("uuid"), g.uuid},
                                {QLatin1String("model"), g.model}, {QLatin1String("backend"), g.backend},
                                {QLatin1String("passed"), g.passed}, {QLatin1String("tests"), tests},
                                {QLatin1String("reasons"), QJsonArray::fromStringList(g.reasons)},
                                {QLatin1String("notes"), QJsonArray::fromStringList(g.notes)}});
    }
    return QJsonObject{{QLatin1String("schema"), QStringLiteral("strata.burnin/1")},
                       {QLatin1String("jobId"), jobId},
                       {QLatin1String("passed"), v.passed},
                       {QLatin1String("failedNodes"), QJsonArray::fromStringList(v.failedNodes())},
                       {QLatin1String("problems"), QJsonArray::fromStringList(v.problems)},
                       {QLatin1String("notes"), QJsonArray::fromStringList(v.notes)},
                       {QLatin1String("drained"), QJsonArray::fromStringList(drained)},
                       {QLatin1String("notDrained"), QJsonArray::fromStringList(notDrained)},
                       {QLatin1String("gpus"), gpus}};
}

QString verdictToText(const BurninVerdict &v, const QString &jobId, const QStringList &drained, const QStringList &notDrained)
{
    QString text = QStringLiteral("Burn-in %1: %2\n").arg(jobId, v.passed ? QStringLiteral("PASSED") : QStringLiteral("FAILED"));
    for (const BurninGpuVerdict &g : v.gpus) {
        QStringList figures;
        for (const BurninTestVerdict &t : g.tests)
            figures << QStringLiteral("%1%2 %3%4").arg(t.test, t.engine.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(t.engine),
                                                      t.figure ? QString::number(*t.figure, 'f', 3) : QStringLiteral("-"),
                                                      t.skipped ? QStringLiteral(" (skipped)") : QString());
        text += QStringLiteral("  %1 GPU %2 %3 [%4] %5  %6\n").arg(g.node).arg(g.gpu).arg(g.model.isEmpty() ? QStringLiteral("?") : g.model,
                                                                  g.backend, g.passed ? QStringLiteral("pass") : QStringLiteral("FAIL"),
                                                                  figures.join(QLatin1String(", ")));
        for (const QString &r : g.reasons)
            text += QStringLiteral("      %1\n").arg(r);
        for (const QString &n : g.notes)
            text += QStringLiteral("      note: %1\n").arg(n);
    }
    for (const QString &p : v.problems)
        text += QStringLiteral("  problem: %1\n").arg(p);
    for (const QString &n : v.notes)
        text += QStringLiteral("  note: %1\n").arg(n);
    for (const QString &d : drained)
        text += QStringLiteral("  drained: %1\n").arg(d);
    for (const QString &d : notDrained)
        text += QStringLiteral("  %1\n").arg(d);
    return text;
}

} // namespace

QList<QCommandLineOption> BurninCommand::options()
{
    return {kNodes, kTests, kDuration, kBackend, kInject, kDrainOnFail, kYes, kDirect, kNodeSsh, kAgentBinary,
            kOutputDir, kHistory, kAttach, kPartition, kBurnImage, kReservation};
}

QString BurninCommand::localAgentPath(const QCommandLineParser &parser)
{
    if (parser.isSet(kAgentBinary))
        return parser.value(kAgentBinary);
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString &candidate : {dir + QStringLiteral("/strata-burn"), dir + QStringLiteral("/../burnin/strata-burn")})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("strata-burn"));
}

int BurninCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ClusterProfile &profile)
{
    BurninRequest request;
    QString error;
    if (!parser.isSet(kNodes) || !Hostlist::expand(parser.value(kNodes), &request.nodes, &error) || request.nodes.isEmpty()) {
        err(QStringLiteral("strata: burnin needs --nodes (a host list) %1").arg(error));
        return 2;
    }
    if (parser.isSet(kTests))
        request.tests = parser.value(kTests).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (parser.isSet(kDuration)) {
        bool ok = false;
        request.durationSeconds = durationSeconds(parser.value(kDuration), &ok);
        if (!ok) {
            err(QStringLiteral("strata: --duration \"%1\" is not 60s or 2m (at most 7 days)").arg(parser.value(kDuration)));
            return 2;
        }
    }
    request.backend = parser.value(kBackend);
    if (!request.backend.isEmpty() && request.backend != QLatin1String("cuda") && request.backend != QLatin1String("cpu")) {
        err(QStringLiteral("strata: --backend must be cuda or cpu"));
        return 2;
    }
    for (const QString &inject : parser.values(kInject)) {
        const int eq = inject.indexOf(QLatin1Char('='));
        const QString node = inject.left(eq), kind = inject.mid(eq + 1);
        if (eq <= 0 || !request.nodes.contains(node) || !(kind.startsWith(QLatin1String("bitflip")) || kind.startsWith(QLatin1String("slow")))) {
            err(QStringLiteral("strata: --inject \"%1\" must be NODE=bitflip|slow[:GPU] for a node in --nodes").arg(inject));
            return 2;
        }
        request.injectByNode.insert(node, kind);
    }
    request.drainOnFail = parser.isSet(kDrainOnFail);
    request.confirmDrainBusyNodes = parser.isSet(kYes);
    const bool kubernetes = profile.orchestrator == OrchestratorKind::Kubernetes;
    if (kubernetes && parser.isSet(kDirect)) {
        err(QStringLiteral("strata: --direct runs the agent over SSH; on a Kubernetes cluster the burn-in runs as Jobs"));
        return 2;
    }
    if (parser.isSet(kNodeSsh) && !parser.isSet(kDirect)) {
        err(QStringLiteral("strata: --node-ssh goes with --direct"));
        return 2;
    }
    request.transport = kubernetes ? BurninTransportKind::Kubernetes
        : parser.isSet(kDirect)    ? BurninTransportKind::Ssh
                                   : BurninTransportKind::Slurm;
    if (parser.isSet(kNodeSsh)) {
        request.nodeShell = QProcess::splitCommand(parser.value(kNodeSsh));
        if (request.nodeShell.isEmpty()) {
            err(QStringLiteral("strata: --node-ssh needs a command (e.g. \"ssh -F ~/.ssh/nodes\")"));
            return 2;
        }
    }
    if (parser.isSet(kAttach) && request.transport == BurninTransportKind::Ssh) {
        err(QStringLiteral("strata: --attach follows a Slurm job or Kubernetes Jobs; a %1 burn-in cannot be re-attached")
                .arg(burninTransportName(request.transport)));
        return 2;
    }
    // The id reaches a remote script or kubectl: validated before anything connects (Slurm:
    // the rule cancel applies; Kubernetes: namespace/strata-burnin-NODE-xxxxx per node).
    if (parser.isSet(kAttach)) {
        QMap<QString, QString> jobs;
        if (request.transport == BurninTransportKind::Kubernetes
                ? !BurninKubernetesTransport::jobsByNode(parser.value(kAttach), request.nodes, &jobs, &error)
                : !SlurmCommands::isValidJobId(parser.value(kAttach))) {
            err(request.transport == BurninTransportKind::Kubernetes
                    ? QStringLiteral("strata: --attach: %1").arg(error)
                    : QStringLiteral("strata: --attach \"%1\" is not a Slurm job id (digits, or an array task as 12_3)")
                          .arg(parser.value(kAttach)));
            return 2;
        }
    }
    request.partition = parser.value(kPartition);
    request.reservation = parser.value(kReservation);
    request.agentRemotePath = profile.burninAgentPath;
    request.outputDirectory = parser.value(kOutputDir);
    request.agentLocalPath = localAgentPath(parser);
    request.image = parser.isSet(kBurnImage) ? parser.value(kBurnImage) : profile.burninImage;
    request.namespaceName = profile.kubeNamespace;
    if (kubernetes && request.image.isEmpty()) {
        err(QStringLiteral("strata: a Kubernetes burn-in needs --image (an image containing strata-burn)"));
        return 2;
    }
    if (request.agentLocalPath.isEmpty() && !parser.isSet(kAttach) && !kubernetes) {
        err(QStringLiteral("strata: no local strata-burn to deploy (looked beside strata and in PATH): install the "
                           "strata-burn package, build it, or pass --agent-binary"));
        return 2;
    }
    const QString historyPath = parser.isSet(kHistory)
        ? parser.value(kHistory)
        : BurninHistory::defaultPath();
    const bool json = parser.value(QStringLiteral("format")) == QLatin1String("json");

    ClusterSession cluster(profile);
    BurninSession burnin(&cluster, historyPath);
    int exitCode = 1;
    // On a terminal a live line shows progress and time left; in a pipe only the job id,
    // failures and errors are said (the verdict goes to stdout either way).
    const bool terminal = CliOutput::stderrIsTerminal();
    std::optional<BurninProgressMeter> meter;
    QElapsedTimer clock;
    clock.start();
    QTimer redraw;
    redraw.setInterval(250);
    const auto drawProgress = [&] {
        if (terminal && meter)
            CliOutput::progress(meter->line(clock.elapsed()));
    };
    QObject::connect(&redraw, &QTimer::timeout, &app, drawProgress);
    const auto say = [&](const QString &text) {
        if (terminal)
            CliOutput::progress(QString());
        err(text);
        drawProgress();
    };
    const auto endProgress = [&] {
        redraw.stop();
        if (terminal && meter)
            CliOutput::progress(QString());
    };
    QObject::connect(&burnin, &BurninSession::stageChanged, &app, [&](const QString &stage) {
        if (terminal)
            say(QStringLiteral("burn-in: %1").arg(stage));
    });
    QObject::connect(&burnin, &BurninSession::submitted, &app, [&](const QString &job) { say(QStringLiteral("burn-in: job %1").arg(job)); });
    QObject::connect(&burnin, &BurninSession::eventReceived, &app, [&](const QString &node, const BurninEvent &event) {
        if (meter)
            meter->record(node, event, clock.elapsed());
        if (const auto *r = std::get_if<BurninResult>(&event)) {
            if (!r->passed)
                say(QStringLiteral("burn-in: %1 GPU %2 %3 FAILED").arg(node).arg(r->gpu).arg(r->test));
        } else if (const auto *e = std::get_if<BurninError>(&event)) {
            say(QStringLiteral("burn-in: %1 agent error: %2").arg(node, e->message));
        }
    });
    QObject::connect(&burnin, &BurninSession::failed, &app, [&](const QString &message) {
        endProgress();
        err(QStringLiteral("strata: burn-in failed: %1").arg(message));
        exitCode = burnin.outcomeUnknown() ? 3 : 1; // 3: launched or not is unknown (README)
        app.quit();
    });
    QObject::connect(&burnin, &BurninSession::completed, &app, [&](const BurninVerdict &v, const QStringList &drained, const QStringList &notDrained) {
        endProgress();
        out(json ? QString::fromUtf8(QJsonDocument(verdictToJson(v, burnin.jobId(), drained, notDrained)).toJson(QJsonDocument::Indented))
                 : verdictToText(v, burnin.jobId(), drained, notDrained));
        exitCode = v.passed ? 0 : 1;
        app.quit();
    });
    // A first look at the cluster: the nodes must exist, and their GPU counts set expectations.
    QObject::connect(&cluster, &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        if (burnin.jobId().isEmpty() && request.gpusByNode.isEmpty()) {
            const SourceStatus *s = snapshot->source(sourceKind(snapshot->orchestrator));
            if (!s || !s->ok) {
                err(QStringLiteral("strata: %1").arg(s ? s->error : QStringLiteral("no answer from the cluster")));
                app.quit();
                return;
            }
            for (const QString &n : std::as_const(request.nodes)) {
                const Node *node = snapshot->node(n);
                if (!node && request.transport != BurninTransportKind::Ssh) {
                    err(QStringLiteral("strata: no node \"%1\" in the cluster").arg(n));
                    app.quit();
                    return;
                }
                // Slurm starts nothing on a drained or down node, not even in a reservation: say
                // so now instead of leaving the burn-in pending without end.
                if (node && node->isUnavailable() && request.transport == BurninTransportKind::Slurm && !parser.isSet(kAttach)) {
                    err(QStringLiteral("strata: %1 is %2%3: Slurm will not start the burn-in there, not even in a "
                                       "reservation; resume it (strata resume %1), into a maintenance reservation first "
                                       "(--reservation) so that no other job lands there, or let `strata watch` test it")
                            .arg(n, node->state, node->reason.isEmpty() ? QString() : QStringLiteral(" (") + node->reason + QLatin1Char(')')));
                    app.quit();
                    return;
                }
                request.gpusByNode.insert(n, node ? node->gpuCount : 0);
            }
            meter.emplace(request.gpusByNode, request.tests, request.durationSeconds);
            if (terminal)
                redraw.start();
            if (parser.isSet(kAttach))
                burnin.attach(parser.value(kAttach), request);
            else
                burnin.start(request);
        }
    });
    cluster.refreshNow();
    app.exec();
    return exitCode;
}

int BurninCommand::runFromCommandLine(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    return run(app, parser, profile);
}

} // namespace strata
