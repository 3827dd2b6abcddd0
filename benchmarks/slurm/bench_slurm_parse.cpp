// bench_slurm_parse: the Slurm parsers and the merge SlurmSource does, at cluster scale.
//
// Generates in memory what a 2,000-node, 50,000-job cluster answers (sinfo --json of 22.05 and
// scontrol --json show nodes of 24.11, squeue -O in the record-marker format, `scontrol show
// job -d -o` for the running jobs), each shaped on a real record captured from the lab
// (tests/data/slurm), then times every parser and the full refresh-side work (parse +
// applyPlacements + ClusterSnapshot::finalize). Prints wall time, peak RSS and input bytes.
//
//   bench_slurm_parse [--nodes N] [--jobs N] [--running N] [--repeat N]
#include "model/cluster_snapshot.h"
#include "model/gpu_catalog.h"
#include "slurm/scontrol_parser.h"
#include "slurm/sinfo_json_parser.h"
#include "slurm/slurm_source.h"
#include "slurm/squeue_parser.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <malloc.h>
#include <sys/resource.h>

#include <cstdio>
#include <functional>

using namespace strata;

namespace {

QByteArray captured(const char *name)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/slurm/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing %s", qPrintable(f.fileName()));
    return f.readAll();
}

long peakRssKiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

// Bytes the heap hands out right now (glibc): the difference around a parse is what its result
// holds, which peak RSS (the inputs, the parse's temporaries) does not show.
size_t heapInUse()
{
    return mallinfo2().uordblks;
}

QString nodeName(int i)
{
    return QStringLiteral("gpu-node%1").arg(i + 1, 4, 10, QLatin1Char('0'));
}

struct RunningJob
{
    int id;
    int node;
    int firstGpu;
    int gpus;
};

struct Inputs
{
    QByteArray sinfo;
    QByteArray scontrolNodes; // 24.11
    QByteArray squeue;
    QByteArray scontrol;
    QByteArray marker = "<<strata:5eed0123456789ab>>";
    int running = 0;
};

// Running jobs fill the GPUs node by node with `gpusPerJob` each (16,000 GPUs in all).
QVector<RunningJob> placeRunning(int nodes, int running)
{
    QVector<RunningJob> out;
    const int gpusPerJob = qMax(1, (nodes * 8) / qMax(1, running));
    int id = 1000;
    for (int n = 0; n < nodes && out.size() < running; ++n)
        for (int g = 0; g + gpusPerJob <= 8 && out.size() < running; g += gpusPerJob)
            out.append({id++, n, g, gpusPerJob});
    return out;
}

QByteArray makeSinfo(int nodes, const QVector<RunningJob> &running)
{
    QJsonObject root = QJsonDocument::fromJson(captured("sinfo.json")).object();
    const QJsonObject templ = root.value(QLatin1String("nodes")).toArray().first().toObject();
    QVector<int> used(nodes, 0);
    for (const RunningJob &j : running)
        used[j.node] += j.gpus;
    QJsonArray out;
    for (int i = 0; i < nodes; ++i) {
        QJsonObject n = templ;
        const bool h200 = i % 4 >= 2;
        const QString type = h200 ? QStringLiteral("h200") : QStringLiteral("h100");
        n.insert(QLatin1String("name"), nodeName(i));
        n.insert(QLatin1String("hostname"), nodeName(i));
        n.insert(QLatin1String("features"), h200 ? QStringLiteral("p5en.48xlarge") : QStringLiteral("p5.48xlarge"));
        n.insert(QLatin1String("active_features"), n.value(QLatin1String("features")));
        n.insert(QLatin1String("gres"), QStringLiteral("gpu:%1:8").arg(type));
        n.insert(QLatin1String("gres_used"), used[i] == 0 ? QStringLiteral("gpu:%1:0(IDX:N/A)").arg(type)
                                                          : QStringLiteral("gpu:%1:%2(IDX:0-%3)").arg(type).arg(used[i]).arg(used[i] - 1));
        n.insert(QLatin1String("state"), used[i] == 0 ? QStringLiteral("idle") : used[i] == 8 ? QStringLiteral("allocated") : QStringLiteral("mixed"));
        if (i % 97 == 0) {
            n.insert(QLatin1String("state_flags"), QJsonArray{QStringLiteral("DRAIN")});
            n.insert(QLatin1String("reason"), QStringLiteral("Action:Reboot xid=79 GPU 3 fell off the bus"));
        }
        n.insert(QLatin1String("partitions"), h200 ? QJsonArray{QStringLiteral("train"), QStringLiteral("inference")} : QJsonArray{QStringLiteral("train")});
        out.append(n);
    }
    root.insert(QLatin1String("nodes"), out);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// `scontrol --json show nodes` of Slurm 24.11 (data_parser v0.0.42): the real capture's first
// node object (tests/data/slurm/24.11/scontrol_show_nodes.json) repeated with the same GPU use.
QByteArray makeScontrolNodes(int nodes, const QVector<RunningJob> &running)
{
    QJsonObject root = QJsonDocument::fromJson(captured("24.11/scontrol_show_nodes.json")).object();
    const QJsonObject templ = root.value(QLatin1String("nodes")).toArray().first().toObject();
    QVector<int> used(nodes, 0);
    for (const RunningJob &j : running)
        used[j.node] += j.gpus;
    QJsonArray out;
    for (int i = 0; i < nodes; ++i) {
        QJsonObject n = templ;
        const bool b200 = i % 4 >= 2;
        const QString type = b200 ? QStringLiteral("b200") : QStringLiteral("h100");
        const QString feature = b200 ? QStringLiteral("p6-b200.48xlarge") : QStringLiteral("p5.48xlarge");
        n.insert(QLatin1String("name"), nodeName(i));
        n.insert(QLatin1String("hostname"), nodeName(i));
        n.insert(QLatin1String("features"), QJsonArray{feature});
        n.insert(QLatin1String("active_features"), QJsonArray{feature});
        n.insert(QLatin1String("gres"), QStringLiteral("gpu:%1:8").arg(type));
        n.insert(QLatin1String("gres_used"), used[i] == 0 ? QStringLiteral("gpu:%1:0(IDX:N/A)").arg(type)
                                                          : QStringLiteral("gpu:%1:%2(IDX:0-%3)").arg(type).arg(used[i]).arg(used[i] - 1));
        QJsonArray state{used[i] == 0 ? QStringLiteral("IDLE") : used[i] == 8 ? QStringLiteral("ALLOCATED") : QStringLiteral("MIXED")};
        if (i % 97 == 0) {
            state.append(QStringLiteral("DRAIN"));
            n.insert(QLatin1String("reason"), QStringLiteral("Action:Reboot xid=79 GPU 3 fell off the bus"));
            n.insert(QLatin1String("reason_set_by_user"), QStringLiteral("root"));
        }
        n.insert(QLatin1String("state"), state);
        n.insert(QLatin1String("partitions"), b200 ? QJsonArray{QStringLiteral("train"), QStringLiteral("inference")} : QJsonArray{QStringLiteral("train")});
        out.append(n);
    }
    root.insert(QLatin1String("nodes"), out);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray jobName(QRandomGenerator &rng, int id)
{
    static const char *const kinds[] = {"llama-70b pretrain", "sweep \"lr\" 'warmup'", "eval|pipe name", "data-prep", "ünïcødé 训练 run"};
    return QByteArray(kinds[rng.bounded(5)]) + ' ' + QByteArray::number(id);
}

// squeue -h -a -r --states=all -O 'JobArrayID:\x1f,...,Name:MARKER', like main_squeue_marker.txt:
// 19 fields then the name, each record ending with MARKER + newline.
QByteArray makeSqueue(const Inputs &in, const QVector<RunningJob> &running, int jobs, QHash<int, QByteArray> *names)
{
    QRandomGenerator rng(7);
    QByteArray out;
    out.reserve(qsizetype(jobs) * 170);
    const char sep = '\x1f';
    for (const RunningJob &j : running) {
        const QByteArray name = jobName(rng, j.id);
        names->insert(j.id, name);
        const QByteArray id = QByteArray::number(j.id);
        out += id + sep + id + sep + "N/A" + sep + "root" + sep + "RUNNING" + sep + "None" + sep + "train" + sep
            + nodeName(j.node).toLatin1() + sep + "1:02:03" + sep + "7-00:00:00" + sep + "2026-12-02T13:55:20" + sep
            + "2026-12-02T13:55:20" + sep + "gres/gpu:" + QByteArray::number(j.gpus) + sep + "N/A" + sep + "N/A" + sep
            + "N/A" + sep + "1" + sep + "1" + sep + "*" + sep + name + in.marker + '\n';
    }
    for (int k = int(running.size()); k < jobs; ++k) {
        const int id = 100000 + k;
        const QByteArray name = jobName(rng, id);
        const QByteArray ids = QByteArray::number(id);
        const bool array = k % 10 == 0;
        // A third of the pending jobs ask with --gpus-per-task (tres-per-task, %b N/A).
        const bool perTask = k % 3 == 1;
        out += (array ? QByteArray::number(id / 10) + '_' + QByteArray::number(k % 100) : ids) + sep
            + (array ? QByteArray::number(id / 10) : ids) + sep + (array ? QByteArray::number(k % 100) : QByteArray("N/A")) + sep
            + "alice" + sep + "PENDING" + sep + (k % 3 ? "Resources" : "Priority") + sep + "train" + sep + sep + "0:00" + sep
            + "UNLIMITED" + sep + "2026-12-02T13:55:20" + sep + "N/A" + sep + (perTask ? "N/A" : "gres/gpu:8") + sep + "N/A" + sep
            + (perTask ? "gres/gpu=1" : "N/A") + sep + "N/A" + sep + "1" + sep + "8" + sep + "*" + sep + name + in.marker + '\n';
    }
    return out;
}

// What SlurmSource's remote filter sends: the running jobs' records, each the real job-5
// record of the lab capture with its id, name, node and GPU indices replaced.
QByteArray makeScontrol(const QVector<RunningJob> &running, const QHash<int, QByteArray> &names)
{
    QByteArray templ;
    for (const QByteArray &line : captured("marker/main_scontrol_show_job_d_o.txt").split('\n'))
        if (line.startsWith("JobId=5 "))
            templ = line;
    const QByteArray name = "llama-70b pretrain";
    QByteArray out;
    out.reserve(qsizetype(running.size()) * (templ.size() + 40));
    for (const RunningJob &j : running) {
        QByteArray r = templ;
        const QByteArray node = nodeName(j.node).toLatin1();
        const QByteArray idx = j.gpus == 1 ? QByteArray::number(j.firstGpu)
                                           : QByteArray::number(j.firstGpu) + '-' + QByteArray::number(j.firstGpu + j.gpus - 1);
        r.replace("JobId=5 ", "JobId=" + QByteArray::number(j.id) + ' ');
        r.replace("JobName=" + name + ' ', "JobName=" + names.value(j.id) + ' ');
        r.replace("gpu-node01", node);
        r.replace("gpu:h100:6(IDX:0-5)", "gpu:h100:" + QByteArray::number(j.gpus) + "(IDX:" + idx + ')');
        r.replace("gpu:h100:6", "gpu:h100:" + QByteArray::number(j.gpus));
        r.replace("slurm-5.out", "slurm-" + QByteArray::number(j.id) + ".out");
        out += r + '\n';
    }
    return out;
}

double timeMs(int repeat, const std::function<void()> &work)
{
    double best = 1e18;
    for (int i = 0; i < repeat; ++i) {
        QElapsedTimer t;
        t.start();
        work();
        best = qMin(best, t.nsecsElapsed() / 1e6);
    }
    return best;
}

void report(const char *what, double ms, qsizetype bytes, const QString &detail)
{
    std::printf("  %-34s %9.1f ms  %8.2f MB  peak RSS %7.1f MB  %s\n", what, ms, bytes / 1e6, peakRssKiB() / 1024.0,
                qPrintable(detail));
}

void runScenario(int nodes, int jobs, int runningCount, int repeat)
{
    Inputs in;
    const QVector<RunningJob> running = placeRunning(nodes, runningCount);
    QHash<int, QByteArray> names;
    in.sinfo = makeSinfo(nodes, running);
    in.scontrolNodes = makeScontrolNodes(nodes, running);
    in.squeue = makeSqueue(in, running, jobs, &names);
    in.scontrol = makeScontrol(running, names);
    std::printf("\n%d nodes, %d jobs, %d running (%d GPUs each); generated, peak RSS %.1f MB\n", nodes, jobs,
                int(running.size()), running.isEmpty() ? 0 : running.first().gpus, peakRssKiB() / 1024.0);
    const GpuCatalog &catalog = GpuCatalog::builtIn();

    SinfoParseResult sinfo;
    double ms = timeMs(repeat, [&] { sinfo = SinfoJsonParser::parse(in.sinfo, catalog); });
    report("sinfo --json (22.05)", ms, in.sinfo.size(), QStringLiteral("%1 nodes %2").arg(sinfo.nodes.size()).arg(sinfo.error));
    SinfoParseResult scontrolNodes;
    ms = timeMs(repeat, [&] { scontrolNodes = SinfoJsonParser::parse(in.scontrolNodes, catalog); });
    int gpusUsed = 0;
    for (const Node &n : std::as_const(scontrolNodes.nodes))
        gpusUsed += n.gpusAllocated;
    report("scontrol --json show nodes (24.11)", ms, in.scontrolNodes.size(),
           QStringLiteral("%1 nodes, %2 GPUs in use %3").arg(scontrolNodes.nodes.size()).arg(gpusUsed).arg(scontrolNodes.error));
    SqueueParseResult squeue;
    ms = timeMs(repeat, [&] { squeue = SqueueParser::parse(in.squeue, in.marker); });
    qint64 gpusRequested = 0;
    for (const Job &j : std::as_const(squeue.jobs))
        gpusRequested += j.gpusRequested;
    report("squeue -O (marker format)", ms, in.squeue.size(),
           QStringLiteral("%1 jobs, %2 malformed, %3 GPUs requested").arg(squeue.jobs.size()).arg(squeue.malformedRecords).arg(gpusRequested));
    {
        squeue = {};
        const size_t before = heapInUse();
        const SqueueParseResult held = SqueueParser::parse(in.squeue, in.marker);
        const double bytes = double(heapInUse() - before);
        std::printf("  %-34s %9.1f MB held, %.0f bytes a job\n", "squeue jobs in memory", bytes / 1e6,
                    bytes / qMax<qsizetype>(1, held.jobs.size()));
        squeue = held;
    }
    QHash<QString, QString> known;
    for (const Job &j : std::as_const(squeue.jobs))
        if (j.isRunning())
            known.insert(j.id, j.name);
    ScontrolJobsParseResult details;
    ms = timeMs(repeat, [&] { details = ScontrolParser::parseJobDetails(in.scontrol, known); });
    report("scontrol show job -d -o (running)", ms, in.scontrol.size(),
           QStringLiteral("%1 placements, %2 malformed").arg(details.jobs.size()).arg(details.malformedRecords));

    // The whole refresh-side CPU work of SlurmSource + ClusterSession::publish, from bytes.
    int gpusHeld = 0;
    const double mergeMs = timeMs(repeat, [&] {
        SinfoParseResult n = SinfoJsonParser::parse(in.sinfo, catalog);
        SqueueParseResult q = SqueueParser::parse(in.squeue, in.marker);
        QHash<QString, QString> names;
        for (const Job &j : std::as_const(q.jobs))
            if (j.isRunning())
                names.insert(j.id, j.name);
        const ScontrolJobsParseResult d = ScontrolParser::parseJobDetails(in.scontrol, names);
        ClusterSnapshot snapshot;
        snapshot.nodes = std::move(n.nodes);
        snapshot.jobs = std::move(q.jobs);
        applyPlacements(snapshot.nodes, snapshot.jobs, d.jobs);
        snapshot.finalize();
        gpusHeld = 0;
        for (const Node &node : std::as_const(snapshot.nodes))
            for (const Gpu &g : node.gpus)
                gpusHeld += g.jobId.isEmpty() ? 0 : 1;
    });
    report("full merge (parse+place+finalize)", mergeMs, in.sinfo.size() + in.squeue.size() + in.scontrol.size(),
           QStringLiteral("%1 GPUs held").arg(gpusHeld));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), QStringLiteral("Nodes."), QStringLiteral("N"), QStringLiteral("2000"));
    const QCommandLineOption jobsOption(QStringLiteral("jobs"), QStringLiteral("Jobs."), QStringLiteral("N"), QStringLiteral("50000"));
    const QCommandLineOption runningOption(QStringLiteral("running"), QStringLiteral("Running jobs (default: 2000 and 16000)."), QStringLiteral("N"));
    const QCommandLineOption repeatOption(QStringLiteral("repeat"), QStringLiteral("Best of N runs."), QStringLiteral("N"), QStringLiteral("3"));
    parser.addOptions({nodesOption, jobsOption, runningOption, repeatOption});
    parser.process(app);
    const int nodes = parser.value(nodesOption).toInt();
    const int jobs = parser.value(jobsOption).toInt();
    const int repeat = qMax(1, parser.value(repeatOption).toInt());
    std::printf("bench_slurm_parse: best of %d runs, wall time per stage\n", repeat);
    if (parser.isSet(runningOption)) {
        runScenario(nodes, jobs, parser.value(runningOption).toInt(), repeat);
    } else {
        runScenario(nodes, jobs, nodes, repeat);
        runScenario(nodes, jobs, nodes * 8, repeat);
    }
    return 0;
}
