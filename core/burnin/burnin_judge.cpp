#include "burnin_judge.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

QString number(double v)
{
    if (std::fabs(v) >= 100)
        return QString::number(v, 'f', 1);
    if (std::fabs(v) >= 1)
        return QString::number(v, 'f', 2);
    return QString::number(v, 'g', 3);
}

QString percent(double fraction) { return QString::number(std::lround(fraction * 100)) + QLatin1Char('%'); }

// Throttle reasons that mean the GPU was slowed by heat or a hardware signal: a fault.
// power_cap under a full GEMM is normal on many nodes and only noted.
const QStringList faultThrottles{QStringLiteral("sw_thermal"), QStringLiteral("hw_slowdown"),
                                 QStringLiteral("hw_thermal"), QStringLiteral("hw_power_brake")};

struct GpuEntry
{
    const BurninNodeRun *run = nullptr;
    BurninGpuInfo info;
    QString model;
    QString backend;
};

// GPUs of one model are peers across the whole run. Simulated (cpu backend) devices are peers
// only within their node: one node's devices are threads of one agent sharing its cores, while
// two nodes' agents are separate processes whose share of a (possibly shared, loaded) machine
// differs, so their figures say nothing about each other.
QString peerGroup(const GpuEntry &e)
{
    if (e.backend == QLatin1String("cpu"))
        return e.backend + QLatin1Char('/') + e.model + QLatin1Char('@') + e.run->node;
    return e.backend + QLatin1Char('/') + e.model;
}

const BurninResult *findResult(const BurninNodeRun &run, int gpu, const QString &test)
{
    for (const BurninResult &r : run.results)
        if (r.gpu == gpu && r.test == test)
            return &r;
    return nullptr;
}

// The catalog's GEMM figures are BF16; an FP8 (E4M3) engine's dense rate is twice that on
// every GPU that has FP8 tensor cores (Ada, Hopper, Blackwell), so its floor and peak are too.
double gemmRateFactor(const BurninResult &r)
{
    return r.engine.startsWith(QLatin1String("cublaslt-fp8")) ? 2.0 : 1.0;
}

// Each engine has its own floor: the catalog's GEMM floor is cuBLASLt's (and older agents, which
// did not say, ran cuBLAS); the own kernel's is ownGemmFloorTflops.
double gemmFloor(const BurninResult &r, const BurninCriteria &criteria)
{
    if (r.engine == QLatin1String("own-bf16"))
        return criteria.ownGemmFloorTflops;
    return criteria.gemmFloorTflops * gemmRateFactor(r);
}

// GEMM figures are compared only between runs of the same engine: a node whose agent found no
// libcublasLt runs the own kernel, whose rate says nothing about its GPUs next to cuBLASLt's.
QString gemmPeerGroup(const QString &group, const BurninResult &r)
{
    return group + QLatin1Char('#') + r.engine;
}

std::optional<double> headline(const BurninResult &r)
{
    if (r.test == QLatin1String("gemm"))
        return r.tflops;
    if (r.test == QLatin1String("hbm"))
        return r.copyTBps;
    if (r.test == QLatin1String("pcie"))
        return r.hostToDeviceGBps;
    if (r.test == QLatin1String("p2p") && !r.peers.isEmpty()) {
        double lowest = r.peers.first().second;
        for (const auto &p : r.peers)
            lowest = std::min(lowest, p.second);
        return lowest;
    }
    return std::nullopt;
}

struct Judging
{
    const GpuCatalog &catalog;
    QHash<QString, double> bestTflops;   // by peer group and engine (gemmPeerGroup)
    QHash<QString, double> bestCopyTBps;
};

void judgePerformance(const GpuEntry &e, const BurninResult &r, const BurninCriteria &criteria,
                      bool haveCriteria, const Judging &j, const QString &prefix, BurninTestVerdict &t)
{
    const bool cpu = e.backend == QLatin1String("cpu");
    const double peerFraction = cpu ? BurninJudge::cpuPeerFraction
                                    : haveCriteria ? criteria.peerFraction : BurninJudge::defaultPeerFraction;
    auto check = [&](double value, double floor, double best, const QString &unit, const QString &what) {
        if (!cpu && haveCriteria && floor > 0 && value < floor)
            t.reasons << QStringLiteral("%1 %2: %3%4 is below the %5 floor of %6")
                             .arg(prefix, t.test, what, number(value) + unit, e.model, number(floor));
        if (best > 0 && value < peerFraction * best)
            t.reasons << QStringLiteral("%1 %2: %3%4 is %5 of %6 (%7); needs %8")
                             .arg(prefix, t.test, what, number(value) + unit, percent(value / best),
                                  cpu ? QStringLiteral("the best device on this node") : QStringLiteral("the best GPU in this run"),
                                  number(best), percent(peerFraction));
    };
    if (r.test == QLatin1String("gemm") && r.tflops)
        check(*r.tflops, gemmFloor(r, criteria), j.bestTflops.value(gemmPeerGroup(peerGroup(e), r)),
              QStringLiteral(" TFLOPS"), r.engine == QLatin1String("own-bf16") ? QStringLiteral("own kernel ") : QString());
    if (r.test == QLatin1String("hbm") && r.copyTBps)
        check(*r.copyTBps, criteria.hbmFloorTBps, j.bestCopyTBps.value(peerGroup(e)),
              QStringLiteral(" TB/s"), QStringLiteral("copy bandwidth "));
}

void judgeTelemetry(const GpuEntry &e, const BurninResult &r, const BurninCriteria &criteria,
                    bool haveCriteria, const QString &prefix, BurninTestVerdict &t, QStringList &notes)
{
    if (!r.telemetry || e.backend == QLatin1String("cpu"))
        return;
    const BurninTelemetrySummary &tel = *r.telemetry;
    // The mean, not the minimum: the first sample of a test may catch the clock still ramping.
    if (haveCriteria && criteria.minSmClockMHz > 0 && r.test == QLatin1String("gemm")
        && tel.meanSmClockMHz && *tel.meanSmClockMHz < criteria.minSmClockMHz)
        t.reasons << QStringLiteral("%1 %2: mean SM clock %3 MHz under load (needs %4 MHz)")
                         .arg(prefix, t.test, number(*tel.meanSmClockMHz), number(criteria.minSmClockMHz));
    if (haveCriteria && criteria.maxTempC > 0 && tel.maxTempC && *tel.maxTempC > criteria.maxTempC)
        t.reasons << QStringLiteral("%1 %2: reached %3 °C (limit %4 °C)")
                         .arg(prefix, t.test, number(*tel.maxTempC), number(criteria.maxTempC));
    QStringList faults;
    for (const QString &reason : tel.throttleReasons)
        if (faultThrottles.contains(reason))
            faults << reason;
    if (!faults.isEmpty())
        t.reasons << QStringLiteral("%1 %2: throttled (%3)").arg(prefix, t.test, faults.join(QStringLiteral(", ")));
    if (tel.throttleReasons.contains(QStringLiteral("power_cap")))
        notes << QStringLiteral("%1 %2: ran at its power cap").arg(prefix, t.test);
}

} // namespace

BurninVerdict BurninJudge::judge(const QVector<BurninNodeRun> &runs, const GpuCatalog &catalog,
                                 const BurninExpectation &expectation)
{
    BurninVerdict v;
    auto problem = [&v](const QString &node, const QString &text) {
        v.problems << QStringLiteral("%1: %2").arg(node, text);
        if (!v.problemNodes.contains(node))
            v.problemNodes << node;
    };

    QSet<QString> reported;
    for (const BurninNodeRun &run : runs)
        reported.insert(run.node);
    for (auto it = expectation.gpusByNode.cbegin(); it != expectation.gpusByNode.cend(); ++it)
        if (!reported.contains(it.key()))
            problem(it.key(), QStringLiteral("no output from the agent"));

    QVector<GpuEntry> entries;
    bool anyCpu = false;
    for (const BurninNodeRun &run : runs) {
        if (!run.launchError.isEmpty()) {
            problem(run.node, QStringLiteral("the agent did not run: %1").arg(run.launchError));
            continue;
        }
        for (const BurninParseError &e : run.parseErrors)
            problem(run.node, QStringLiteral("unreadable agent output, %1").arg(e.message));
        for (const BurninError &e : run.errors)
            if (!e.gpu)
                problem(run.node, QStringLiteral("agent error: %1").arg(e.message));
        if (!run.start) {
            problem(run.node, QStringLiteral("the agent never reported its GPUs (no start event)"));
            continue;
        }
        if (!run.summary)
            problem(run.node, QStringLiteral("the agent's output ended without a summary (killed, "
                                             "or the connection was lost)"));
        const int expected = expectation.gpusByNode.value(run.node, -1);
        if (expected >= 0 && run.start->gpus.size() < expected)
            problem(run.node, QStringLiteral("%1 of %2 expected GPUs reported")
                                  .arg(run.start->gpus.size()).arg(expected));
        anyCpu = anyCpu || run.start->backend == QLatin1String("cpu");
        for (const BurninGpuInfo &gpu : run.start->gpus) {
            GpuEntry e;
            e.run = &run;
            e.info = gpu;
            e.backend = run.start->backend;
            // The driver's full name says the variant (A100-SXM4-80GB); the agent's own model
            // ("A100") only the family.
            QString byName = catalog.modelForName(gpu.name);
            if (byName.isEmpty())
                byName = catalog.modelForName(gpu.model);
            e.model = byName.isEmpty() ? gpu.model : byName;
            entries << e;
        }
    }

    Judging j{catalog, {}, {}};
    for (const GpuEntry &e : entries) {
        for (const BurninResult &r : e.run->results) {
            if (r.gpu != e.info.index)
                continue;
            if (r.test == QLatin1String("gemm") && r.tflops) {
                const QString group = gemmPeerGroup(peerGroup(e), r);
                j.bestTflops[group] = std::max(j.bestTflops.value(group), *r.tflops);
            }
            if (r.test == QLatin1String("hbm") && r.copyTBps)
                j.bestCopyTBps[peerGroup(e)] = std::max(j.bestCopyTBps.value(peerGroup(e)), *r.copyTBps);
        }
    }

    for (const GpuEntry &e : entries) {
        BurninGpuVerdict g;
        g.node = e.run->node;
        g.gpu = e.info.index;
        g.uuid = e.info.uuid;
        g.model = e.model;
        g.backend = e.backend;
        const GpuSpec *spec = catalog.gpu(e.model);
        const BurninCriteria criteria = spec ? spec->burnin : BurninCriteria{};
        const QString prefix = QStringLiteral("%1 GPU %2").arg(g.node).arg(g.gpu);
        for (const QString &test : e.run->start->tests) {
            BurninTestVerdict t;
            t.test = test;
            const BurninResult *r = findResult(*e.run, g.gpu, test);
            if (!r) {
                t.reasons << QStringLiteral("%1 %2: no result (the agent stopped before it)").arg(prefix, test);
            } else if (!r->skipped.isEmpty()) {
                t.skipped = true;
            } else if (!r->error.isEmpty()) {
                t.reasons << QStringLiteral("%1 %2: %3").arg(prefix, test, r->error);
            } else {
                t.figure = headline(*r);
                t.engine = r->engine;
                if (spec && t.figure && e.backend != QLatin1String("cpu")) {
                    const double peak = test == QLatin1String("gemm") ? spec->bf16PetaFlops * 1000 * gemmRateFactor(*r)
                        : test == QLatin1String("hbm")                 ? spec->hbmTBps
                                                                        : 0;
                    if (peak > 0)
                        t.pctOfSpec = 100.0 * *t.figure / peak;
                }
                if (!r->passed && r->reasons.isEmpty())
                    t.reasons << QStringLiteral("%1 %2: failed (the agent gave no reason)").arg(prefix, test);
                if (!r->passed)
                    for (const QString &reason : r->reasons)
                        t.reasons << QStringLiteral("%1 %2: %3").arg(prefix, test, reason);
                judgePerformance(e, *r, criteria, spec != nullptr, j, prefix, t);
                judgeTelemetry(e, *r, criteria, spec != nullptr, prefix, t, g.notes);
                if (r->test == QLatin1String("p2p"))
                    for (int peer : r->unreachablePeers)
                        g.notes << QStringLiteral("%1 p2p: no peer access to GPU %2").arg(prefix).arg(peer);
            }
            t.passed = t.reasons.isEmpty();
            g.reasons << t.reasons;
            g.tests << t;
        }
        g.passed = g.reasons.isEmpty();
        v.gpus << g;
    }
    if (anyCpu)
        v.notes << QStringLiteral("backend cpu: simulated devices, so the per-model floors, clock and "
                                  "temperature limits do not apply; correctness and the peer fraction "
                                  "(%1 of the best device on the same node) do")
                       .arg(percent(cpuPeerFraction));
    v.passed = v.problems.isEmpty()
        && std::all_of(v.gpus.cbegin(), v.gpus.cend(), [](const BurninGpuVerdict &g) { return g.passed; });
    return v;
}

} // namespace strata
