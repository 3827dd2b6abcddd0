#include "synthetic_cluster.h"

#include "model/workload_detector.h"

#include <QRandomGenerator>
#include <QSet>

#include <algorithm>

namespace strata {

namespace {

struct InstanceShape
{
    const char *type;
    const char *gpuModel;
    const char *partition;
    double powerLimitW;
};

// Roughly the mix of a real fleet: mostly H100, some H200 and B200.
const InstanceShape kShapes[] = {
    {"p5.48xlarge", "H100", "h100", 700},
    {"p5en.48xlarge", "H200", "h200", 700},
    {"p6-b200.48xlarge", "B200", "b200", 1000},
};

const InstanceShape &shapeFor(int nodeIndex, int nodeCount)
{
    const double position = double(nodeIndex) / qMax(1, nodeCount);
    if (position < 0.5)
        return kShapes[0];
    if (position < 0.75)
        return kShapes[1];
    return kShapes[2];
}

double jitter(QRandomGenerator &rng, double value, double spread, double low, double high)
{
    return std::clamp(value + (rng.generateDouble() * 2 - 1) * spread, low, high);
}

void fillMetrics(Gpu &gpu, bool busy, double powerLimitW, QRandomGenerator &rng)
{
    GpuMetrics &m = gpu.metrics;
    const double util = busy ? 40 + rng.bounded(61) : 0;
    m.utilPercent = util;
    m.tensorActive = util / 100.0 * 0.6;
    m.memCopyUtilPercent = util * 0.4;
    m.memUsedMiB = busy ? 20000 + rng.bounded(60000) : 500;
    m.memFreeMiB = 81559 - *m.memUsedMiB;
    m.tempC = busy ? 50 + rng.bounded(31) : 30 + rng.bounded(10);
    m.memoryTempC = *m.tempC + 5;
    m.powerW = busy ? powerLimitW * (0.4 + util / 200.0) : 70 + rng.bounded(30);
    m.smClockMHz = busy ? 1980 : 345;
    m.memClockMHz = 2619;
    m.xid = 0;
    m.pcieReplays = 0;
    m.uncorrectableRemappedRows = 0;
    m.correctableRemappedRows = 0;
    m.rowRemapFailure = 0;
}

void updateVerdict(Job &job, const ClusterSnapshot &snapshot)
{
    if (!job.isRunning() || !snapshot.metricsAvailable)
        return;
    double sum = 0, minimum = 101;
    int count = 0;
    for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it) {
        const Node *node = snapshot.node(it.key());
        if (!node)
            continue;
        for (int index : it.value()) {
            if (index < 0 || index >= node->gpus.size())
                continue;
            const auto &util = node->gpus[index].metrics.utilPercent;
            if (!util)
                continue;
            sum += *util;
            minimum = qMin(minimum, *util);
            ++count;
        }
    }
    if (count == 0) {
        job.gpuUtilMean.reset();
        job.gpuUtilMin.reset();
        job.efficiencyVerdict.clear();
        return;
    }
    job.gpuUtilMean = sum / count;
    job.gpuUtilMin = minimum;
    job.efficiencyVerdict = *job.gpuUtilMean < 10   ? QStringLiteral("idle")
                            : *job.gpuUtilMean < 40 ? QStringLiteral("low")
                                                    : QStringLiteral("good");
}

QString jobName(int serial, QRandomGenerator &rng)
{
    static const char *const kNames[] = {"train-llama", "eval", "pretrain-7b", "finetune",
                                         "nccl-test", "data-prep", "sweep", "bench|gemm",
                                         "résumé run", "inference"};
    return QString::fromUtf8(kNames[rng.bounded(int(std::size(kNames)))])
           + QStringLiteral("-%1").arg(serial % 97);
}

Job makeJob(int serial, const ClusterSnapshot &snapshot, QRandomGenerator &rng)
{
    Job job;
    job.id = QString::number(1000 + serial);
    if (serial % 50 == 7) {
        job.arrayJobId = QString::number(1000 + serial - 1);
        job.arrayTaskId = QString::number(serial % 13);
        job.id = job.arrayJobId + QLatin1Char('_') + job.arrayTaskId;
    }
    job.name = jobName(serial, rng);
    job.user = QStringLiteral("user%1").arg(1 + rng.bounded(40), 2, 10, QLatin1Char('0'));
    job.partition = snapshot.partitions.isEmpty()
                        ? QStringLiteral("batch")
                        : snapshot.partitions[rng.bounded(int(snapshot.partitions.size()))].name;
    job.setState(QStringLiteral("PENDING"));
    static const char *const kReasons[] = {"Priority", "Resources", "QOSMaxGRESPerUser",
                                           "Dependency"};
    job.reason = QString::fromLatin1(kReasons[rng.bounded(int(std::size(kReasons)))]);
    job.timeLimitSeconds = 3600 * (1 + rng.bounded(48));
    job.timeUsedSeconds = 0;
    job.submitTime = snapshot.takenAt.toSecsSinceEpoch() - rng.bounded(86400);
    job.gpusRequested = 1 << rng.bounded(4);
    // What runs inside, as a real cluster's commands say it (WorkloadDetector reads them):
    // torchrun training, vLLM serving, DeepSpeed fine-tuning, and plain scripts.
    switch (serial % 6) {
    case 0: job.command = QStringLiteral("torchrun --nnodes 2 --nproc_per_node 8 /home/%1/train.py").arg(job.user); break;
    case 1: job.command = QStringLiteral("vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2"); break;
    case 2: job.command = QStringLiteral("deepspeed --num_gpus 8 /home/%1/finetune.py --deepspeed ds.json").arg(job.user); break;
    default: job.command = QStringLiteral("/home/%1/jobs/%2.sh").arg(job.user, job.name); break;
    }
    job.workDir = QStringLiteral("/home/%1").arg(job.user);
    job.stdoutPath = QStringLiteral("/home/%1/slurm-%2.out").arg(job.user, job.id);
    return job;
}

} // namespace

QString SyntheticCluster::nodeName(int index, int nodeCount)
{
    const int width = qMax(2, int(QString::number(nodeCount).size()));
    return QStringLiteral("gpu-node%1").arg(index + 1, width, 10, QLatin1Char('0'));
}

ClusterSnapshot SyntheticCluster::generate(const SyntheticClusterOptions &options)
{
    QRandomGenerator rng(options.seed);
    ClusterSnapshot s;
    s.clusterName = options.clusterName;
    s.orchestrator = OrchestratorKind::Slurm;
    s.takenAt = options.takenAt;
    s.metricsAvailable = options.metrics;

    Partition batch;
    batch.name = QStringLiteral("batch");
    batch.state = QStringLiteral("UP");
    batch.isDefault = true;
    batch.maxTimeSeconds = 0;
    QMap<QString, Partition> byModel;

    s.nodes.reserve(options.nodes);
    for (int i = 0; i < options.nodes; ++i) {
        const InstanceShape &shape = shapeFor(i, options.nodes);
        Node n;
        n.name = nodeName(i, options.nodes);
        n.state = QStringLiteral("idle");
        n.partitions = {QStringLiteral("batch"), QString::fromLatin1(shape.partition)};
        n.features = {QString::fromLatin1(shape.partition)};
        n.instanceType = QString::fromLatin1(shape.type);
        n.cpus = 192;
        n.memoryMiB = 2048 * 1024;
        n.gpuModel = QString::fromLatin1(shape.gpuModel);
        n.gpuCount = options.gpusPerNode;
        for (int g = 0; g < options.gpusPerNode; ++g) {
            Gpu gpu;
            gpu.index = g;
            gpu.model = n.gpuModel;
            gpu.uuid = QStringLiteral("GPU-%1-%2").arg(i, 5, 10, QLatin1Char('0')).arg(g);
            n.gpus << gpu;
        }
        // A few nodes out of service, the way operators see them.
        const quint32 roll = rng.bounded(1000);
        if (roll < 25) {
            n.state = QStringLiteral("drained");
            n.stateFlags = {QStringLiteral("DRAIN")};
            n.reason = QStringLiteral("Action:Reboot xid-79");
            n.reasonUser = QStringLiteral("root");
        } else if (roll < 35) {
            n.state = QStringLiteral("down");
            n.stateFlags = {QStringLiteral("DOWN"), QStringLiteral("NOT_RESPONDING")};
            n.reason = QStringLiteral("Not responding");
            n.reasonUser = QStringLiteral("slurm");
        }
        batch.nodes << n.name;
        Partition &p = byModel[QString::fromLatin1(shape.partition)];
        p.name = QString::fromLatin1(shape.partition);
        p.state = QStringLiteral("UP");
        p.maxTimeSeconds = 7 * 86400;
        p.nodes << n.name;
        p.totalCpus += n.cpus;
        p.totalGpus += n.gpuCount;
        batch.totalCpus += n.cpus;
        batch.totalGpus += n.gpuCount;
        s.nodes << n;
    }
    s.partitions << batch;
    for (const Partition &p : byModel)
        s.partitions << p;

    // Running jobs fill the GPUs of serviceable nodes up to busyFraction; the rest wait.
    const int totalGpus = options.nodes * options.gpusPerNode;
    int gpusToFill = int(totalGpus * options.busyFraction);
    int nodeCursor = 0;
    s.jobs.reserve(options.jobs);
    for (int serial = 0; serial < options.jobs; ++serial) {
        Job job = makeJob(serial, s, rng);
        const quint32 roll = rng.bounded(100);
        if (roll < 3) {
            job.setState(roll == 0 ? QStringLiteral("FAILED") : QStringLiteral("COMPLETED"));
            job.reason = roll == 0 ? QStringLiteral("NonZeroExitCode") : QStringLiteral("None");
            s.jobs << job;
            continue;
        }
        if (gpusToFill > 0 && options.gpusPerNode > 0) {
            // Whole nodes for multi-node jobs, else a slice of one node.
            const int nodesWanted = job.gpusRequested == 8 && rng.bounded(4) == 0 ? 2 : 1;
            const int perNode = qMin(job.gpusRequested, options.gpusPerNode);
            for (int attempt = 0; attempt < options.nodes && job.nodes.size() < nodesWanted;
                 ++attempt) {
                Node &n = s.nodes[nodeCursor];
                if (!n.isUnavailable() && n.gpuCount - n.gpusAllocated >= perNode) {
                    QVector<int> indices;
                    for (Gpu &g : n.gpus) {
                        if (indices.size() == perNode)
                            break;
                        if (g.jobId.isEmpty()) {
                            g.jobId = job.id;
                            indices << g.index;
                        }
                    }
                    n.gpusAllocated += perNode;
                    n.gpuIndicesAllocated << indices;
                    n.cpusAllocated = qMin(n.cpus, n.cpusAllocated + perNode * 24);
                    job.nodes << n.name;
                    job.gpus.insert(n.name, indices);
                }
                if (n.gpuCount - n.gpusAllocated < 1 || n.isUnavailable()
                    || job.nodes.size() < nodesWanted)
                    nodeCursor = (nodeCursor + 1) % options.nodes;
            }
            if (!job.nodes.isEmpty()) {
                job.setState(QStringLiteral("RUNNING"));
                job.reason = QStringLiteral("None");
                job.gpusRequested = perNode * int(job.nodes.size());
                job.startTime = job.submitTime + rng.bounded(600);
                job.timeUsedSeconds = s.takenAt.toSecsSinceEpoch() - job.startTime;
                gpusToFill -= job.gpusRequested;
            } else {
                gpusToFill = 0; // fragmented full: everything after this waits
            }
        }
        s.jobs << job;
    }
    (void)WorkloadDetector::apply(s.jobs); // its findings (comment overrides) are not this fixture's subject
    s.finalize();
    // finalize() built the index only now: fix the partitions of running jobs from their node.
    for (Job &job : s.jobs)
        if (job.isRunning())
            if (const Node *n = s.node(job.nodes.first()))
                job.partition = n->partitions.value(1);

    for (Node &n : s.nodes) {
        if (n.isUnavailable())
            continue;
        n.state = n.gpusAllocated == 0              ? QStringLiteral("idle")
                  : n.gpusAllocated == n.gpuCount ? QStringLiteral("allocated")
                                                  : QStringLiteral("mixed");
    }

    if (options.metrics) {
        for (int i = 0; i < s.nodes.size(); ++i) {
            Node &n = s.nodes[i];
            const double limit = shapeFor(i, options.nodes).powerLimitW;
            if (n.isDown())
                continue;
            for (Gpu &g : n.gpus) {
                if (rng.generateDouble() < options.missingMetricsFraction)
                    continue;
                g.seenByExporter = true;
                fillMetrics(g, !g.jobId.isEmpty(), limit, rng);
                // An exporter that reports only some fields: utilisation but no power.
                if (rng.bounded(200) == 0)
                    g.metrics.powerW.reset();
            }
            if (n.isDrained() && !n.gpus.isEmpty() && n.gpus[0].seenByExporter) {
                n.gpus[0].metrics.xid = 79;
                Finding f;
                f.severity = Finding::Severity::Critical;
                f.node = n.name;
                f.gpu = 0;
                f.code = QStringLiteral("xid-79");
                f.message = QStringLiteral("GPU 0 fell off the bus (Xid 79): reboot the node");
                s.findings << f;
            }
            for (const Gpu &g : n.gpus) {
                if (g.metrics.tempC && *g.metrics.tempC >= 79) {
                    Finding f;
                    f.severity = Finding::Severity::Warning;
                    f.node = n.name;
                    f.gpu = g.index;
                    f.code = QStringLiteral("gpu-hot");
                    f.message = QStringLiteral("GPU %1 at %2 °C: check cooling")
                                    .arg(g.index)
                                    .arg(*g.metrics.tempC);
                    s.findings << f;
                }
            }
        }
    }
    for (Node &n : s.nodes) {
        if (!n.isDown())
            continue;
        Finding f;
        f.severity = Finding::Severity::Critical;
        f.node = n.name;
        f.code = QStringLiteral("node-down");
        f.message = QStringLiteral("%1 is not responding: check slurmd and the host").arg(n.name);
        s.findings << f;
    }
    for (Job &job : s.jobs)
        updateVerdict(job, s);

    const QDateTime at = s.takenAt;
    auto source = [&](SourceKind name, bool configured) {
        SourceStatus st;
        st.source = name;
        st.configured = configured;
        st.ok = configured;
        st.lastSuccess = configured ? at : QDateTime();
        st.lastAttempt = at;
        st.lastDurationMs = configured ? 120 : -1;
        return st;
    };
    s.sources << source(SourceKind::Ssh, true) << source(SourceKind::Slurm, true)
              << source(SourceKind::Prometheus, options.metrics);
    return s;
}

ClusterSnapshot SyntheticCluster::evolve(const ClusterSnapshot &base, quint32 seed, int seconds)
{
    QRandomGenerator rng(seed);
    ClusterSnapshot s = base;
    s.takenAt = base.takenAt.addSecs(seconds);

    // About 1% of the jobs leave (finished or purged); their GPUs come free.
    QSet<QString> leaving;
    for (const Job &job : std::as_const(s.jobs))
        if (rng.bounded(100) == 0)
            leaving.insert(job.id);
    QHash<QString, int> nodeIndex = s.nodeIndexByName;
    QVector<Job> kept;
    kept.reserve(s.jobs.size());
    int maxSerial = 0;
    for (Job &job : s.jobs) {
        maxSerial = qMax(maxSerial, job.id.section(QLatin1Char('_'), 0, 0).toInt() - 1000);
        if (leaving.contains(job.id)) {
            for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it) {
                Node &n = s.nodes[nodeIndex.value(it.key())];
                for (int index : it.value()) {
                    if (index >= 0 && index < n.gpus.size())
                        n.gpus[index].jobId.clear();
                    n.gpuIndicesAllocated.removeOne(index);
                }
                n.gpusAllocated = int(n.gpuIndicesAllocated.size());
            }
            continue;
        }
        if (job.isRunning())
            job.timeUsedSeconds += seconds;
        else if (job.isPending() && rng.bounded(50) == 0)
            job.reason = job.reason == QStringLiteral("Priority") ? QStringLiteral("Resources")
                                                                  : QStringLiteral("Priority");
        kept << job;
    }
    const int arriving = int(leaving.size());
    for (int i = 0; i < arriving; ++i)
        kept << makeJob(maxSerial + 1 + i, s, rng);
    s.jobs = kept;

    for (int i = 0; i < s.nodes.size(); ++i) {
        Node &n = s.nodes[i];
        if (!n.isUnavailable())
            n.state = n.gpusAllocated == 0              ? QStringLiteral("idle")
                      : n.gpusAllocated == n.gpuCount ? QStringLiteral("allocated")
                                                      : QStringLiteral("mixed");
        for (Gpu &g : n.gpus) {
            GpuMetrics &m = g.metrics;
            if (m.utilPercent)
                m.utilPercent = g.jobId.isEmpty() ? 0.0 : jitter(rng, *m.utilPercent, 8, 0, 100);
            if (m.tempC)
                m.tempC = jitter(rng, *m.tempC, 1.5, 20, 95);
            if (m.powerW)
                m.powerW = jitter(rng, *m.powerW, 20, 50, 1100);
        }
    }
    s.finalize();
    for (Job &job : s.jobs)
        updateVerdict(job, s);
    for (SourceStatus &st : s.sources) {
        if (st.configured) {
            st.lastAttempt = s.takenAt;
            st.lastSuccess = s.takenAt;
        }
    }
    return s;
}

} // namespace strata
