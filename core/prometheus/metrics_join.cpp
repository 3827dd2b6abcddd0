#include "metrics_join.h"

#include "gpu_health_rules.h"
#include "host_name_resolver.h"
#include "job_usage.h"

#include <QSet>

#include <algorithm>

namespace strata {

using Severity = Finding::Severity;

namespace {

Finding finding(Severity severity, const QString &node, int gpu, const QString &code, const QString &message)
{
    Finding f;
    f.severity = severity;
    f.node = node;
    f.gpu = gpu;
    f.code = code;
    f.message = message;
    return f;
}

// Powered-down cloud nodes ("idle~") and down nodes have no running exporter by design.
bool expectsMetrics(const Node &node)
{
    return !node.isDown() && !node.state.contains(QLatin1Char('~'));
}

Gpu &gpuEntry(Node &node, int index)
{
    auto it = std::lower_bound(node.gpus.begin(), node.gpus.end(), index,
                               [](const Gpu &g, int i) { return g.index < i; });
    if (it != node.gpus.end() && it->index == index)
        return *it;
    Gpu gpu;
    gpu.index = index;
    gpu.model = node.gpuModel;
    return *node.gpus.insert(it, gpu);
}

Gpu *findGpu(Node &node, int index)
{
    auto it = std::lower_bound(node.gpus.begin(), node.gpus.end(), index,
                               [](const Gpu &g, int i) { return g.index < i; });
    return it != node.gpus.end() && it->index == index ? &*it : nullptr;
}

QString indexList(const QVector<int> &indices)
{
    QStringList parts;
    for (int i : indices)
        parts << QString::number(i);
    return parts.join(QStringLiteral(", "));
}

} // namespace

void MetricsJoin::apply(ClusterSnapshot &snapshot, const MetricsPart &part, const ClusterProfile &profile)
{
    apply(snapshot, part, profile, Options{});
}

void MetricsJoin::apply(ClusterSnapshot &snapshot, const MetricsPart &part, const ClusterProfile &profile,
                        const Options &options)
{
    if (!part.ok()) {
        snapshot.metricsAvailable = false;
        return;
    }
    snapshot.metricsAvailable = true;
    const GpuCatalog &catalog = options.catalog ? *options.catalog : GpuCatalog::builtIn();
    const HealthThresholds &t = options.thresholds;
    QVector<Node> &nodes = snapshot.nodes;

    QStringList names;
    names.reserve(nodes.size());
    QHash<QString, int> nodeIndexByName;
    nodeIndexByName.reserve(nodes.size());
    for (int i = 0; i < nodes.size(); ++i) {
        names << nodes[i].name;
        nodeIndexByName.insert(nodes[i].name, i);
    }
    const HostNameResolver resolver(names, profile.hostRelabel);
    // The GPUs of one node share their host labels: resolve each distinct set once.
    QHash<QString, int> resolved;
    const auto resolve = [&](const HostCandidates &hosts) {
        const QString key = hosts.join(QChar(0x1f));
        auto it = resolved.constFind(key);
        if (it == resolved.constEnd())
            it = resolved.insert(key, resolver.resolve(hosts));
        return *it;
    };

    // Expected GPUs: from GRES/capacity, else from the instance type.
    QVector<int> expected(nodes.size());
    for (int i = 0; i < nodes.size(); ++i) {
        Node &node = nodes[i];
        if (node.gpuCount == 0 && !node.instanceType.isEmpty())
            if (const InstanceTypeSpec *spec = catalog.instanceType(node.instanceType)) {
                node.gpuCount = spec->gpuCount;
                if (node.gpuModel.isEmpty())
                    node.gpuModel = spec->gpuModel;
            }
        expected[i] = node.gpuCount;
        std::sort(node.gpus.begin(), node.gpus.end(), [](const Gpu &a, const Gpu &b) { return a.index < b.index; });
        for (int g = 0; g < node.gpuCount; ++g)
            gpuEntry(node, g);
    }

    // Exporter samples onto GPUs.
    QHash<qint64, std::optional<double>> pcieIncrease; // (node << 20 | gpu)
    QStringList unknownHosts;
    QSet<QString> unknownSeen;
    for (const GpuSample &sample : part.gpus) {
        const int n = resolve(sample.hosts);
        if (n < 0) {
            const QString host = sample.hosts.value(0, QStringLiteral("(no host label)"));
            if (!unknownSeen.contains(host)) {
                unknownSeen.insert(host);
                unknownHosts << host;
            }
            continue;
        }
        Node &node = nodes[n];
        Gpu &gpu = gpuEntry(node, sample.gpu);
        gpu.seenByExporter = true;
        gpu.metrics = sample.metrics;
        if (!sample.uuid.isEmpty())
            gpu.uuid = sample.uuid;
        if (!sample.modelName.isEmpty()) {
            const QString model = catalog.modelForName(sample.modelName);
            if (gpu.model.isEmpty())
                gpu.model = model;
            if (node.gpuModel.isEmpty())
                node.gpuModel = model;
        }
        if (!sample.jobKey.isEmpty())
            gpu.jobId = sample.jobKey;
        if (sample.pcieReplaysIncrease)
            pcieIncrease.insert((qint64(n) << 20) | sample.gpu, sample.pcieReplaysIncrease);
    }

    // The scheduler's GPU indices where the exporter names no job.
    for (const Job &job : std::as_const(snapshot.jobs)) {
        if (!job.isRunning())
            continue;
        for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it) {
            const int n = nodeIndexByName.value(it.key(), -1);
            if (n < 0)
                continue;
            for (int index : it.value())
                if (Gpu *gpu = findGpu(nodes[n], index); gpu && gpu->jobId.isEmpty())
                    gpu->jobId = job.id;
        }
    }

    QVector<Finding> &findings = snapshot.findings;
    QSet<int> exporterDown;
    for (const ExporterTarget &target : part.targets) {
        if (target.up)
            continue;
        const int n = resolve(target.hosts);
        if (n >= 0 && !expectsMetrics(nodes[n]))
            continue;
        if (n >= 0)
            exporterDown.insert(n);
        const QString where = n >= 0 ? nodes[n].name : target.instance;
        findings << finding(Severity::Warning, n >= 0 ? nodes[n].name : QString(), -1, QStringLiteral("exporter-down"),
                            QStringLiteral("DCGM exporter on %1 is down: no GPU metrics (Prometheus target %2, "
                                           "job %3); restart the exporter on the node")
                                .arg(where, target.instance, target.job));
    }

    if (part.gpus.isEmpty()) {
        findings << finding(Severity::Warning, QString(), -1, QStringLiteral("no-dcgm-metrics"),
                            QStringLiteral("Prometheus at %1 has no DCGM GPU metrics: is dcgm-exporter "
                                           "deployed on the GPU nodes and scraped by this Prometheus?")
                                .arg(part.prometheusUrl));
    } else {
        for (int n = 0; n < nodes.size(); ++n) {
            Node &node = nodes[n];
            if (!expectsMetrics(node) || exporterDown.contains(n))
                continue;
            QVector<int> missing, extra;
            int seen = 0;
            for (const Gpu &gpu : std::as_const(node.gpus)) {
                if (gpu.index < expected[n] && !gpu.seenByExporter)
                    missing << gpu.index;
                if (gpu.seenByExporter)
                    ++seen;
                if (gpu.index >= expected[n] && gpu.seenByExporter)
                    extra << gpu.index;
            }
            if (expected[n] > 0 && seen == 0) {
                findings << finding(Severity::Warning, node.name, -1, QStringLiteral("no-gpu-metrics"),
                                    QStringLiteral("%1: no GPU metrics (expects %2 GPUs): is the DCGM exporter "
                                                   "running on it and scraped by Prometheus?")
                                        .arg(node.name).arg(expected[n]));
            } else if (!missing.isEmpty()) {
                findings << finding(Severity::Critical, node.name, missing.size() == 1 ? missing.first() : -1,
                                    QStringLiteral("gpu-missing"),
                                    QStringLiteral("%1: the exporter sees %2 of %3 GPUs (missing: %4): check "
                                                   "nvidia-smi on the node; a GPU that fell off the bus needs a "
                                                   "reboot, one still missing after that a replacement")
                                        .arg(node.name).arg(seen - extra.size()).arg(expected[n]).arg(indexList(missing)));
            }
            if (!extra.isEmpty())
                findings << finding(Severity::Warning, node.name, -1, QStringLiteral("gpu-count-mismatch"),
                                    QStringLiteral("%1: the exporter sees GPU %2 but the scheduler expects %3 "
                                                   "GPUs: fix the node's GPU count (Slurm Gres=gpu:N / gres.conf, "
                                                   "or the device plugin)")
                                        .arg(node.name, indexList(extra)).arg(expected[n]));
            for (const Gpu &gpu : std::as_const(node.gpus))
                if (gpu.seenByExporter)
                    findings << GpuHealthRules::evaluate(node.name, gpu,
                                                         pcieIncrease.value((qint64(n) << 20) | gpu.index), t);
        }
    }

    if (!unknownHosts.isEmpty()) {
        const QStringList shown = unknownHosts.mid(0, 5);
        findings << finding(Severity::Info, QString(), -1, QStringLiteral("metrics-unmatched-hosts"),
                            QStringLiteral("GPU metrics from %1 host(s) that are not cluster nodes (%2%3): set "
                                           "the profile's host label or host relabel map if these are yours")
                                .arg(unknownHosts.size())
                                .arg(shown.join(QStringLiteral(", ")),
                                     unknownHosts.size() > shown.size() ? QStringLiteral(", ...") : QString()));
    }

    if (part.usageKnown) {
        JobUsage::Input input;
        input.series = &part.usage;
        input.seriesNode.reserve(part.usage.size());
        for (const GpuUsageSeries &s : part.usage)
            input.seriesNode << resolve(s.hosts);
        input.nodeIndexByName = nodeIndexByName;
        input.now = part.usageEnd > 0 ? part.usageEnd : part.takenAt.toSecsSinceEpoch();
        JobUsage::apply(snapshot.jobs, input, t);
    }
}

} // namespace strata
