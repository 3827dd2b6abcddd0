#include "fabric_command.h"

#include "cli/cli_output.h"
#include "cli/cli_profile_resolver.h"

#include "burnin/burnin_history.h"
#include "burnin/fabric_fleet_history.h"
#include "fabric/fabric_expectation.h"
#include "fabric/fabric_history_entry.h"
#include "fabric/fabric_nodes.h"
#include "fabric/fabric_test_runner.h"
#include "fabric/fabric_transport_factory.h"
#include "model/gpu_catalog.h"
#include "model/cluster_snapshot.h"
#include "model/orchestrator_kind.h"
#include "profile/cluster_profile.h"
#include "session/cluster_session.h"
#include "slurm/hostlist.h"

#include <QJsonArray>
#include <QTimer>

#include <csignal>
#include <cstdlib>
#include <optional>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

namespace {

using CliOutput::error;
using CliOutput::line;
using CliOutput::out;

const QCommandLineOption kNodes{QStringLiteral("nodes"), QStringLiteral("Nodes to test, at least two (host list: gpu-node[01-04])."), QStringLiteral("nodes")};
const QCommandLineOption kNoIsolate{QStringLiteral("no-isolate"), QStringLiteral("Measure the whole set only; do not bisect to the node responsible.")};
const QCommandLineOption kShortRatio{QStringLiteral("short-ratio"), QStringLiteral("A group below this fraction of the best group is short (default 0.75)."), QStringLiteral("ratio")};
const QCommandLineOption kFloor{QStringLiteral("floor"), QStringLiteral("All-reduce bus bandwidth the set must reach, GB/s (default: from the instance type; none: peers only)."), QStringLiteral("GBps")};
const QCommandLineOption kReservation{QStringLiteral("reservation"), QStringLiteral("Run in this existing reservation instead of creating a maintenance reservation."), QStringLiteral("name")};
const QCommandLineOption kPartition{QStringLiteral("partition"), QStringLiteral("Partition for the test jobs."), QStringLiteral("name")};
const QCommandLineOption kTool{QStringLiteral("tool"), QStringLiteral("auto (nccl-tests where the nodes have it and a GPU), torch or nccl-tests."), QStringLiteral("tool"), QStringLiteral("auto")};
const QCommandLineOption kBackend{QStringLiteral("backend"), QStringLiteral("The torch probe's backend: auto (NCCL with GPUs), nccl or gloo (CPU: one rank per node)."), QStringLiteral("backend"), QStringLiteral("auto")};
const QCommandLineOption kSizes{QStringLiteral("sizes"), QStringLiteral("Message sizes, comma separated, K/M/G suffixes (default 64K,1M,8M on CPUs; 1M,16M,128M,1G on GPUs)."), QStringLiteral("list")};
const QCommandLineOption kIterations{QStringLiteral("iterations"), QStringLiteral("Timed iterations per size (default 5 on CPUs, 20 on GPUs)."), QStringLiteral("n")};
const QCommandLineOption kTime{QStringLiteral("time"), QStringLiteral("Time limit of each test job in minutes (default 10)."), QStringLiteral("minutes")};
const QCommandLineOption kPython{QStringLiteral("python"), QStringLiteral("The Python with torch on the nodes, for Strata's probe (default python3 from the jobs' PATH)."), QStringLiteral("path"), QStringLiteral("python3")};
const QCommandLineOption kHistory{QStringLiteral("history"), QStringLiteral("History file each group's result is recorded in and compared with (default: the burn-in history, ~/.local/share/strata/burnin.sqlite)."), QStringLiteral("file")};
const QCommandLineOption kNoHistory{QStringLiteral("no-history"), QStringLiteral("Neither compare the groups with the fleet nor record them.")};
const QCommandLineOption kImage{QStringLiteral("image"), QStringLiteral("Kubernetes: the image the probe's pods run, with python3 and torch (default nvcr.io/nvidia/pytorch:24.12-py3)."), QStringLiteral("image"), QStringLiteral("nvcr.io/nvidia/pytorch:24.12-py3")};
const QCommandLineOption kOutputDir{QStringLiteral("output-dir"), QStringLiteral("Remote directory the jobs write to, shared with the login node (default ~/.cache/strata/fabric)."), QStringLiteral("dir")};

// Ctrl-C (SIGINT) or SIGTERM: cancel the run (its jobs, Strata's reservation) before exiting;
// another one after the first was noticed ends at once. Signals that arrive together are one:
// a Ctrl-C reaches every process of the terminal's group, and coreutils' timeout sends its
// signal to the program and then to its whole group, so one interrupt often comes twice
// within microseconds (restoring the default action in the handler made that second copy
// kill Strata before it cancelled anything).
volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void onInterrupt(int)
{
    g_interrupted = 1;
}

QString gbps(double v)
{
    return QString::number(v, 'f', v < 10 ? 3 : 1);
}

bool parseSizes(const QString &text, QList<qint64> *sizes)
{
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString t = part.trimmed().toUpper();
        qint64 unit = 1;
        if (t.endsWith(QLatin1Char('K')))
            unit = qint64(1) << 10;
        else if (t.endsWith(QLatin1Char('M')))
            unit = qint64(1) << 20;
        else if (t.endsWith(QLatin1Char('G')))
            unit = qint64(1) << 30;
        if (unit > 1)
            t.chop(1);
        bool ok = false;
        const qint64 n = t.toLongLong(&ok);
        if (!ok || n <= 0 || n > (qint64(16) << 30) / unit)
            return false;
        *sizes << n * unit;
    }
    return !sizes->isEmpty() && sizes->size() <= 32;
}

// Each group's standing against the fleet, [round][group]; none for a group without a figure
// or when the history is not used.
struct FleetStandings
{
    QList<QList<std::optional<FleetComparison>>> byRound;
    QString error; // the history could not be read or written
};

FleetStandings judgeAgainstFleet(const FabricTestRunner &runner, const QString &instanceType, const QString &historyPath)
{
    FleetStandings standings;
    const FabricIsolation *iso = runner.isolation();
    QVector<FabricHistoryRecord> records;
    QList<QPair<int, int>> where;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (int r = 0; r < iso->rounds().size(); ++r) {
        const FabricRound &round = iso->rounds().at(r);
        standings.byRound.append(QList<std::optional<FleetComparison>>(round.groups.size()));
        for (int g = 0; g < round.groups.size(); ++g) {
            if (const auto record = fabricHistoryEntry(round.groups.at(g), runner.request().tag, now, instanceType)) {
                records << *record;
                where << qMakePair(r, g);
            }
        }
    }
    if (historyPath.isEmpty())
        return standings;
    const FabricFleetHistory judged = FabricFleetHistory::judge(historyPath, records, true);
    standings.error = judged.error;
    for (int i = 0; i < where.size(); ++i)
        standings.byRound[where.at(i).first][where.at(i).second] = judged.standings.value(i);
    return standings;
}

QJsonValue fleetJson(const std::optional<FleetComparison> &c)
{
    if (!c)
        return QJsonValue();
    return QJsonObject{{QStringLiteral("standing"), fleetStandingName(c->standing)},
                       {QStringLiteral("peers"), c->peers},
                       {QStringLiteral("median"), c->median},
                       {QStringLiteral("robustZ"), c->robustZ},
                       {QStringLiteral("explanation"), c->explanation}};
}

QJsonObject groupJson(const FabricRoundGroup &g, const std::optional<FleetComparison> &fleet)
{
    QJsonArray samples;
    for (const FabricSample &s : g.result.samples)
        samples.append(QJsonObject{{QStringLiteral("op"), fabricOpName(s.op)},
                                   {QStringLiteral("bytes"), double(s.bytes)},
                                   {QStringLiteral("seconds"), s.seconds},
                                   {QStringLiteral("algbwGBps"), s.algbwGBps},
                                   {QStringLiteral("busbwGBps"), s.busbwGBps}});
    return QJsonObject{{QStringLiteral("nodes"), QJsonArray::fromStringList(g.result.nodes)},
                       {QStringLiteral("jobId"), g.result.jobId},
                       {QStringLiteral("tool"), fabricToolName(g.result.tool)},
                       {QStringLiteral("backend"), g.result.backend},
                       {QStringLiteral("ranks"), g.result.ranks},
                       {QStringLiteral("figureGBps"), g.result.figureGBps()},
                       {QStringLiteral("latencySeconds"), g.result.smallestMessageSeconds()},
                       {QStringLiteral("short"), g.shortOfReference},
                       {QStringLiteral("unsupported"), QJsonArray::fromStringList(g.result.unsupported)},
                       {QStringLiteral("error"), g.result.error.isEmpty() ? QJsonValue() : QJsonValue(g.result.error)},
                       {QStringLiteral("fleet"), fleetJson(fleet)},
                       {QStringLiteral("samples"), samples}};
}

QJsonObject reportJson(const FabricTestRunner &runner, const FabricExpectation &expectation, const FleetStandings &fleet)
{
    const FabricIsolation *iso = runner.isolation();
    QJsonArray rounds;
    for (int ri = 0; ri < iso->rounds().size(); ++ri) {
        const FabricRound &r = iso->rounds().at(ri);
        QJsonArray groups;
        for (int gi = 0; gi < r.groups.size(); ++gi)
            groups.append(groupJson(r.groups.at(gi), fleet.byRound.value(ri).value(gi)));
        rounds.append(QJsonObject{{QStringLiteral("number"), r.number}, {QStringLiteral("groups"), groups}});
    }
    const FabricVerdict &v = iso->verdict();
    return QJsonObject{{QStringLiteral("schema"), QStringLiteral("strata.fabric/1")},
                       {QStringLiteral("nodes"), QJsonArray::fromStringList(runner.request().nodes)},
                       {QStringLiteral("floorGBps"), runner.request().floorGBps},
                       {QStringLiteral("floorSource"), expectation.explanation},
                       {QStringLiteral("scheduler"), runner.transportKind() == FabricTransportKind::Kubernetes ? QStringLiteral("kubernetes") : QStringLiteral("slurm")},
                       {QStringLiteral("reservation"), runner.reservation()},
                       {QStringLiteral("cordoned"), QJsonArray::fromStringList(runner.cordoned())},
                       {QStringLiteral("verdict"), QJsonObject{{QStringLiteral("kind"), fabricVerdictName(v.kind)},
                                                               {QStringLiteral("node"), v.node.isEmpty() ? QJsonValue() : QJsonValue(v.node)},
                                                               {QStringLiteral("figureGBps"), v.figureGBps},
                                                               {QStringLiteral("referenceGBps"), v.referenceGBps},
                                                               {QStringLiteral("explanation"), v.explanation}}},
                       {QStringLiteral("historyError"), fleet.error.isEmpty() ? QJsonValue() : QJsonValue(fleet.error)},
                       {QStringLiteral("rounds"), rounds}};
}

QString reportText(const FabricTestRunner &runner, const FabricExpectation &expectation, const FleetStandings &fleet)
{
    const FabricIsolation *iso = runner.isolation();
    QString text;
    text += QStringLiteral("fabric test of %1 (%2)\n").arg(runner.request().nodes.join(QLatin1Char(',')), expectation.explanation);
    for (int ri = 0; ri < iso->rounds().size(); ++ri) {
        const FabricRound &r = iso->rounds().at(ri);
        for (int gi = 0; gi < r.groups.size(); ++gi) {
            const FabricRoundGroup &g = r.groups.at(gi);
            text += QStringLiteral("  round %1  %2  %3 GB/s busbw  %4%5\n")
                        .arg(r.number)
                        .arg(g.result.nodes.join(QLatin1Char(',')), -32)
                        .arg(gbps(g.result.figureGBps()), 9)
                        .arg(g.result.error.isEmpty() ? (g.shortOfReference ? QStringLiteral("SHORT") : QStringLiteral("ok")) : g.result.error)
                        .arg(g.result.jobId.isEmpty() ? QString() : QStringLiteral("  (job %1)").arg(g.result.jobId));
            // Beside the floor's verdict, never changing it: where the figure stands in the fleet.
            if (const std::optional<FleetComparison> c = fleet.byRound.value(ri).value(gi))
                text += QStringLiteral("           against the fleet: %1: %2\n").arg(fleetStandingName(c->standing), c->explanation);
        }
    }
    if (!fleet.error.isEmpty())
        text += QStringLiteral("history: %1\n").arg(fleet.error);
    text += QStringLiteral("verdict: %1: %2\n").arg(fabricVerdictName(iso->verdict().kind), iso->verdict().explanation);
    return text;
}

int exitCodeOf(FabricVerdictKind kind)
{
    switch (kind) {
    case FabricVerdictKind::Measured:
    case FabricVerdictKind::MeetsExpectation:
    case FabricVerdictKind::NoOutlier:
        return 0;
    default:
        return 1;
    }
}

} // namespace

QList<QCommandLineOption> FabricCommand::options()
{
    return {kNodes, kNoIsolate, kShortRatio, kFloor, kReservation, kPartition, kTool, kBackend, kSizes, kIterations, kTime, kPython, kImage, kOutputDir, kHistory, kNoHistory};
}

int FabricCommand::run(QCoreApplication &app, QCommandLineParser &parser, const ConnectionOptions &connection)
{
    FabricRequest request;
    QString problem;
    if (!parser.isSet(kNodes) || !Hostlist::expand(parser.value(kNodes), &request.nodes, &problem) || request.nodes.size() < 2) {
        error(QStringLiteral("fabric needs --nodes with at least two nodes (a host list) %1").arg(problem));
        return 2;
    }
    request.isolate = !parser.isSet(kNoIsolate);
    bool ok = true;
    if (parser.isSet(kShortRatio)) {
        request.shortRatio = parser.value(kShortRatio).toDouble(&ok);
        if (!ok || !(request.shortRatio > 0 && request.shortRatio < 1)) {
            error(QStringLiteral("--short-ratio must be a number between 0 and 1"));
            return 2;
        }
    }
    const bool floorGiven = parser.isSet(kFloor);
    if (floorGiven) {
        request.floorGBps = parser.value(kFloor).toDouble(&ok);
        if (!ok || !(request.floorGBps >= 0 && request.floorGBps < 1e6)) {
            error(QStringLiteral("--floor must be GB/s (0: judge against peers only)"));
            return 2;
        }
    }
    const QString tool = parser.value(kTool);
    if (tool == QLatin1String("torch"))
        request.tool = FabricToolChoice::TorchProbe;
    else if (tool == QLatin1String("nccl-tests"))
        request.tool = FabricToolChoice::NcclTests;
    else if (tool != QLatin1String("auto")) {
        error(QStringLiteral("--tool must be auto, torch or nccl-tests"));
        return 2;
    }
    request.backend = parser.value(kBackend);
    if (request.backend != QLatin1String("auto") && request.backend != QLatin1String("gloo") && request.backend != QLatin1String("nccl")) {
        error(QStringLiteral("--backend must be auto, gloo or nccl"));
        return 2;
    }
    if (parser.isSet(kSizes) && !parseSizes(parser.value(kSizes), &request.sizes)) {
        error(QStringLiteral("--sizes must be at most 32 sizes like 64K,1M,1G (each at most 16G)"));
        return 2;
    }
    if (parser.isSet(kIterations)) {
        request.iterations = parser.value(kIterations).toInt(&ok);
        if (!ok || request.iterations < 1 || request.iterations > 10000) {
            error(QStringLiteral("--iterations must be 1 to 10000"));
            return 2;
        }
    }
    if (parser.isSet(kTime)) {
        request.timeLimitMinutes = parser.value(kTime).toInt(&ok);
        if (!ok || request.timeLimitMinutes < 1 || request.timeLimitMinutes > 24 * 60) {
            error(QStringLiteral("--time must be 1 to 1440 minutes"));
            return 2;
        }
    }
    request.reservation = parser.value(kReservation);
    request.partition = parser.value(kPartition);
    request.outputDirectory = parser.value(kOutputDir);
    request.python = parser.value(kPython);
    if (parser.isSet(kHistory) && parser.isSet(kNoHistory)) {
        error(QStringLiteral("--history and --no-history exclude each other"));
        return 2;
    }
    const QString historyPath = parser.isSet(kNoHistory) ? QString()
                                : parser.isSet(kHistory) ? parser.value(kHistory)
                                                         : BurninHistory::defaultPath();
    QString instanceType;

    ClusterProfile profile;
    if (!CliProfileResolver::resolve(connection, parser, &profile))
        return 2;
    if (profile.orchestrator == OrchestratorKind::Kubernetes) {
        // Indexed Jobs on the cordoned nodes: no reservation, partition or shared output files.
        for (const QCommandLineOption &slurmOnly : {kReservation, kPartition, kOutputDir}) {
            if (parser.isSet(slurmOnly)) {
                error(QStringLiteral("--%1 is a Slurm option; on Kubernetes the nodes are cordoned and each group runs as an Indexed Job")
                          .arg(slurmOnly.names().first()));
                return 2;
            }
        }
        if (request.tool == FabricToolChoice::NcclTests) {
            error(QStringLiteral("--tool nccl-tests needs an MPI launch across pods; on Kubernetes Strata runs its torch.distributed probe"));
            return 2;
        }
        request.tool = FabricToolChoice::TorchProbe;
        request.namespaceName = profile.kubeNamespace;
        request.image = parser.value(kImage);
    } else if (parser.isSet(kImage)) {
        error(QStringLiteral("--image is a Kubernetes option; on Slurm the probe runs with --python on the nodes"));
        return 2;
    }
    const bool json = parser.value(QStringLiteral("format")) == QLatin1String("json");
    ClusterSession cluster(profile);
    FabricTestRunner runner(FabricTransportFactory::create(&cluster));
    FabricExpectation expectation;
    int exitCode = 1;
    bool started = false;
    bool interrupted = false;
    QObject::connect(&runner, &FabricTestRunner::stageChanged, &app, [](const QString &stage) { line(QStringLiteral("fabric: %1").arg(stage)); });
    QObject::connect(&runner, &FabricTestRunner::roundStarted, &app, [](int round, const QList<QStringList> &groups, const QStringList &jobs) {
        QStringList parts;
        for (int i = 0; i < groups.size(); ++i)
            parts << QStringLiteral("%1 (job %2)").arg(groups.at(i).join(QLatin1Char(',')), jobs.value(i));
        line(QStringLiteral("fabric: round %1: %2").arg(round).arg(parts.join(QLatin1String("; "))));
    });
    QObject::connect(&runner, &FabricTestRunner::groupFinished, &app, [](int round, const FabricGroupResult &r, bool isShort) {
        line(QStringLiteral("fabric: round %1: %2: %3").arg(round).arg(r.nodes.join(QLatin1Char(',')),
                                                                         r.error.isEmpty() ? QStringLiteral("%1 GB/s%2").arg(gbps(r.figureGBps()), isShort ? QStringLiteral(", short") : QString())
                                                                                           : r.error));
    });
    QObject::connect(&runner, &FabricTestRunner::finished, &app, [&](const FabricVerdict &verdict) {
        const FleetStandings fleet = judgeAgainstFleet(runner, instanceType, historyPath);
        if (!fleet.error.isEmpty() && json) // the text report says it itself
            error(QStringLiteral("fabric: history: %1").arg(fleet.error));
        out(json ? QString::fromUtf8(QJsonDocument(reportJson(runner, expectation, fleet)).toJson(QJsonDocument::Indented))
                 : reportText(runner, expectation, fleet));
        exitCode = exitCodeOf(verdict.kind);
        app.quit();
    });
    QObject::connect(&runner, &FabricTestRunner::failed, &app, [&](const QString &message) {
        error(QStringLiteral("fabric test failed: %1").arg(message));
        exitCode = interrupted ? 130 : 1;
        app.quit();
    });
    // A first look at the cluster: the nodes must exist; their instance type sets the floor and
    // their GPU count the ranks per node.
    QObject::connect(&cluster, &ClusterSession::snapshotReady, &app, [&](const SnapshotPtr &snapshot) {
        if (started)
            return;
        started = true;
        const SourceStatus *s = snapshot->source(sourceKind(snapshot->orchestrator));
        if (!s || !s->ok) {
            error(s ? s->error : QStringLiteral("no answer from the cluster"));
            app.quit();
            return;
        }
        const FabricNodes found = fabricNodes(*snapshot, request.nodes, GpuCatalog::builtIn(),
                                              snapshot->orchestrator);
        if (!found.missingNode.isEmpty()) {
            error(QStringLiteral("no node \"%1\" in the cluster").arg(found.missingNode));
            app.quit();
            return;
        }
        if (const QString refusal = fabricNodesRefusal(found); !refusal.isEmpty()) {
            error(QStringLiteral("fabric test cannot start: %1").arg(refusal));
            app.quit();
            return;
        }
        expectation = found.expectation;
        instanceType = found.instanceType;
        if (!floorGiven)
            request.floorGBps = expectation.floorGBps;
        else
            expectation.explanation = QStringLiteral("floor %1 GB/s given").arg(gbps(request.floorGBps));
        if (request.backend != QLatin1String("gloo"))
            request.gpusPerNode = found.gpusPerNode;
        runner.start(request);
    });
    g_interrupted = 0;
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    QTimer interruptWatch;
    QObject::connect(&interruptWatch, &QTimer::timeout, &app, [&] {
        if (!g_interrupted)
            return;
        g_interrupted = 0;
        if (interrupted) {
            line(QStringLiteral("fabric: interrupted again: quitting without waiting for the cleanup"));
            std::_Exit(130);
        }
        interrupted = true;
        line(QStringLiteral("fabric: interrupted: cancelling the test's jobs and releasing its nodes (again to quit at once)"));
        if (runner.isRunning())
            runner.cancel();
        else
            app.quit();
    });
    interruptWatch.start(100);
    cluster.refreshNow();
    app.exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return exitCode;
}

} // namespace strata
