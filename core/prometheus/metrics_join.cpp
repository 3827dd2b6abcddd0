#include "metrics_join.h"
#include "model/display_url.h"

#include "alert_findings.h"
#include "model/finding_jobs.h"
#include "dcgm_metric_catalog.h"
#include "gpu_health_rules.h"
#include "host_name_resolver.h"
#include "job_link_errors.h"
#include "idle_gpu_limit_findings.h"
#include "job_stragglers.h"
#include "job_usage.h"

#include <QSet>

#include <algorithm>

namespace strata {

using Severity = Finding::Severity;

namespace {

// Only a launched node that is up runs an exporter: cloud nodes powered down, powering up or
// down, or whose launch failed, and down nodes, have none by design.
bool expectsMetrics(const Node &node)
{
    return isLaunched(node.power) && !node.isDown();
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

// The GPU-level values of a GPU in MIG mode, from its instances, where the exporter sent no
// GPU-level series: memory summed; utilisation, GR engine and tensor activity as the mean
// weighted by compute slices; everything else (temperature, power, clocks, XID, rows: the
// GPU's own, repeated on each instance) the highest.
void aggregateMigInstances(Gpu &gpu)
{
    const std::optional<double> GpuMetrics::*summed[] = {&GpuMetrics::memUsedMiB, &GpuMetrics::memFreeMiB};
    const std::optional<double> GpuMetrics::*weighted[] = {&GpuMetrics::utilPercent, &GpuMetrics::grEngineActive,
                                                          &GpuMetrics::tensorActive};
    for (const DcgmMetric &m : DcgmMetricCatalog::all()) {
        std::optional<double> &out = gpu.metrics.*(m.field);
        if (out)
            continue;
        const bool sum = std::find(std::begin(summed), std::end(summed), m.field) != std::end(summed);
        const bool mean = std::find(std::begin(weighted), std::end(weighted), m.field) != std::end(weighted);
        double total = 0, weights = 0;
        std::optional<double> highest;
        for (const MigInstance &mig : std::as_const(gpu.migInstances)) {
            const std::optional<double> &v = mig.metrics.*(m.field);
            if (!v)
                continue;
            const int w = mean ? mig.computeSlices() : 1;
            total += *v * w;
            weights += w;
            highest = highest ? std::max(*highest, *v) : *v;
        }
        if (weights > 0)
            out = sum ? total : mean ? total / weights : *highest;
    }
    QString job;
    for (const MigInstance &mig : std::as_const(gpu.migInstances)) {
        if (mig.jobId.isEmpty() || (!job.isEmpty() && mig.jobId != job)) {
            job.clear();
            break;
        }
        job = mig.jobId;
    }
    if (!job.isEmpty())
        gpu.jobId = job;
}

void addMigInstance(Gpu &gpu, const GpuSample &sample, const QString &jobKey)
{
    MigInstance mig;
    mig.id = sample.migInstance;
    mig.profile = sample.migProfile;
    mig.jobId = jobKey;
    mig.metrics = sample.metrics;
    // DCGM has no GPU_UTIL for MIG instances; their GR engine activity is the utilisation.
    if (!mig.metrics.utilPercent && mig.metrics.grEngineActive)
        mig.metrics.utilPercent = *mig.metrics.grEngineActive * 100;
    auto it = std::lower_bound(gpu.migInstances.begin(), gpu.migInstances.end(), mig.id,
                               [](const MigInstance &m, int id) { return m.id < id; });
    if (it != gpu.migInstances.end() && it->id == mig.id)
        *it = std::move(mig);
    else
        gpu.migInstances.insert(it, std::move(mig));
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
    HostNameResolver resolver(names, profile.hostRelabel);
    for (int i = 0; i < nodes.size(); ++i)
        if (!nodes[i].addresses.isEmpty())
            resolver.addNodeAddresses(i, nodes[i].addresses);
    if (!snapshot.podNodes.isEmpty())
        resolver.setPodNodes(&snapshot.podNodes);
    // Exporters discovered in Kubernetes name their own pod in the target labels. A series whose
    // namespace/pod is one of those (an idle GPU scraped with honor_labels false: no exported_pod,
    // so `pod` is the exporter's) names no workload, but its pod leads to its node.
    QSet<QString> exporterPods;
    for (const ExporterTarget &target : part.targets)
        if (!target.pod.isEmpty())
            exporterPods.insert(target.namespaceName.isEmpty() ? target.pod
                                                              : target.namespaceName + QLatin1Char('/') + target.pod);
    const auto withoutExporterPod = [&exporterPods](HostCandidates &hosts, QString &jobKey) {
        if (jobKey.isEmpty() || !exporterPods.contains(jobKey))
            return;
        const QString pod = jobKey.section(QLatin1Char('/'), -1);
        if (!hosts.contains(pod))
            hosts << pod;
        jobKey.clear();
    };
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
        if (node.gpuCount == 0 && node.gpuCountKnown() && !node.instanceType.isEmpty())
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
    QSet<qint64> migGpus; // (node << 20 | gpu)
    // A cluster has a handful of model names; the catalog's token match is not free x 16,000.
    QHash<QString, QString> modelByName;
    for (const GpuSample &sample : part.gpus) {
        HostCandidates hosts = sample.hosts;
        QString jobKey = sample.jobKey;
        withoutExporterPod(hosts, jobKey);
        const int n = resolve(hosts);
        if (n < 0) {
            const QString host = hosts.value(0, QStringLiteral("(no host label)"));
            if (!unknownSeen.contains(host)) {
                unknownSeen.insert(host);
                unknownHosts << host;
            }
            continue;
        }
        Node &node = nodes[n];
        Gpu &gpu = gpuEntry(node, sample.gpu);
        gpu.seenByExporter = true;
        if (sample.migInstance >= 0) {
            addMigInstance(gpu, sample, jobKey);
            migGpus.insert((qint64(n) << 20) | sample.gpu);
        } else {
            gpu.metrics = sample.metrics;
            if (!jobKey.isEmpty())
                gpu.jobId = jobKey;
        }
        if (!sample.uuid.isEmpty())
            gpu.uuid = sample.uuid;
        if (!sample.modelName.isEmpty()) {
            auto known = modelByName.constFind(sample.modelName);
            if (known == modelByName.constEnd())
                known = modelByName.insert(sample.modelName, catalog.modelForName(sample.modelName));
            const QString &model = *known;
            if (gpu.model.isEmpty())
                gpu.model = model;
            if (node.gpuModel.isEmpty())
                node.gpuModel = model;
        }
        if (sample.pcieReplaysIncrease) {
            // MIG instances repeat their GPU's counter: the highest stands for the GPU.
            std::optional<double> &increase = pcieIncrease[(qint64(n) << 20) | sample.gpu];
            increase = increase ? std::max(*increase, *sample.pcieReplaysIncrease) : *sample.pcieReplaysIncrease;
        }
    }
    for (const qint64 key : std::as_const(migGpus))
        if (Gpu *gpu = findGpu(nodes[int(key >> 20)], int(key & 0xfffff)))
            aggregateMigInstances(*gpu);

    // The scheduler's GPU indices where the exporter names no job, or names one that is not
    // running: its label lags the scheduler by a scrape or two when a job ends and the next
    // one starts on the same GPU. Slurm's indices (GRES IDX of the allocation) are the
    // authority: they win over an exporter's hpc_job label naming another running job (a
    // mapping file a prolog writes, or a stand-in that misread a forged job name).
    // Kubernetes' indices come from a pod annotation, while the exporter reads the kubelet's
    // pod-resources API: there the exporter wins.
    const bool schedulerIndicesWin = snapshot.orchestrator == OrchestratorKind::Slurm;
    QHash<QString, int> runningJobs;
    for (int j = 0; j < snapshot.jobs.size(); ++j)
        if (snapshot.jobs[j].isRunning())
            runningJobs.insert(snapshot.jobs[j].id, j);
    for (const Job &job : std::as_const(snapshot.jobs)) {
        if (!job.isRunning())
            continue;
        for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it) {
            const int n = nodeIndexByName.value(it.key(), -1);
            if (n < 0)
                continue;
            for (int index : it.value())
                if (Gpu *gpu = findGpu(nodes[n], index);
                    gpu && (schedulerIndicesWin || gpu->jobId.isEmpty() || JobUsage::jobIdForKey(gpu->jobId, runningJobs).isEmpty()))
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
        findings << Finding::make(Severity::Warning, n >= 0 ? nodes[n].name : QString(), -1, QStringLiteral("exporter-down"),
                                  QStringLiteral("DCGM exporter on %1 is down: no GPU metrics (Prometheus target %2, "
                                                 "job %3); restart the exporter on the node")
                                      .arg(where, target.instance, target.job));
    }

    if (part.gpus.isEmpty()) {
        findings << Finding::make(Severity::Warning, QString(), -1, QStringLiteral("no-dcgm-metrics"),
                                  QStringLiteral("Prometheus at %1 has no DCGM GPU metrics: is dcgm-exporter "
                                                 "deployed on the GPU nodes and scraped by this Prometheus?")
                                      .arg(DisplayUrl::withoutPassword(part.prometheusUrl)));
    } else {
        for (int n = 0; n < nodes.size(); ++n) {
            Node &node = nodes[n];
            if (!expectsMetrics(node) || exporterDown.contains(n) || !node.gpuCountKnown())
                continue; // a refused count has its own finding; nothing to compare with
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
                findings << Finding::make(Severity::Warning, node.name, -1, QStringLiteral("no-gpu-metrics"),
                                          QStringLiteral("%1: no GPU metrics (expects %2 GPUs): is the DCGM exporter "
                                                         "running on it and scraped by Prometheus?")
                                              .arg(node.name).arg(expected[n]));
            } else if (!missing.isEmpty()) {
                findings << Finding::make(Severity::Critical, node.name, missing.size() == 1 ? missing.first() : -1,
                                          QStringLiteral("gpu-missing"),
                                          QStringLiteral("%1: the exporter sees %2 of %3 GPUs (missing: %4): check "
                                                         "nvidia-smi on the node; a GPU that fell off the bus needs a "
                                                         "reboot, one still missing after that a replacement")
                                              .arg(node.name).arg(seen - extra.size()).arg(expected[n]).arg(indexList(missing)));
            }
            if (!extra.isEmpty())
                findings << Finding::make(Severity::Warning, node.name, -1, QStringLiteral("gpu-count-mismatch"),
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
        findings << Finding::make(Severity::Info, QString(), -1, QStringLiteral("metrics-unmatched-hosts"),
                                  QStringLiteral("GPU metrics from %1 host(s) that are not cluster nodes (%2%3): set "
                                                 "the profile's host label or host relabel map if these are yours")
                                      .arg(unknownHosts.size())
                                      .arg(shown.join(QStringLiteral(", ")),
                                           unknownHosts.size() > shown.size() ? QStringLiteral(", ...") : QString()));
    }

    if (part.alertsKnown)
        findings << AlertFindings::build(part.alerts, nodes, profile.hostLabel, resolve, part.silences);

    // The join may run again over the same snapshot (a staged refresh): what it adds starts over.
    for (Node &node : nodes)
        node.fabric = NodeFabric{};
    for (Job &job : snapshot.jobs)
        job.app.reset();
    if (part.fabricKnown) {
        // A node's ports and mounts may come under more than one host-label set (two exporter
        // targets): gathered onto the node.
        for (const NodeFabricQuery::HostFabric &h : part.fabric) {
            const int n = resolve(h.hosts);
            if (n < 0)
                continue;
            NodeFabric &f = nodes[n].fabric;
            f.ports += h.fabric.ports;
            f.mounts += h.fabric.mounts;
            f.fabricKnown = f.fabricKnown || h.fabric.fabricKnown;
            f.storageKnown = f.storageKnown || h.fabric.storageKnown;
        }
        QVector<NodeFabricQuery::NamedFabric> answered;
        for (const Node &node : std::as_const(nodes))
            if (node.fabric.fabricKnown || node.fabric.storageKnown)
                answered << NodeFabricQuery::NamedFabric(node.name, node.fabric);
        findings << NodeFabricQuery::findings(answered);
    }

    if (part.appKnown && !part.app.isEmpty()) {
        QStringList running;
        for (const Job &job : std::as_const(snapshot.jobs))
            if (job.isRunning())
                running << job.id;
        const QHash<QString, AppMetrics> byJob = AppMetricsQuery::byJob(running, part.app);
        for (Job &job : snapshot.jobs)
            if (const auto it = byJob.constFind(job.id); it != byJob.constEnd()) // running jobs only: byJob holds no other
                job.app = std::make_shared<const AppMetrics>(*it);
    }
    snapshot.summarizeWorkloads(); // its tokens/s come from the jobs' application metrics

    if (part.usageKnown) {
        JobUsage::Input input;
        input.series = &part.usage;
        input.seriesNode.reserve(part.usage.size());
        for (const GpuUsageSeries &s : part.usage) {
            HostCandidates hosts = s.hosts;
            QString jobKey = s.jobKey;
            withoutExporterPod(hosts, jobKey);
            input.seriesNode << resolve(hosts);
        }
        input.nodeIndexByName = nodeIndexByName;
        input.now = part.usageEnd > 0 ? part.usageEnd : part.takenAt.toSecsSinceEpoch();
        input.stepSeconds = part.usageStepSeconds;
        JobUsage::apply(snapshot.jobs, input, t);
        snapshot.findings += JobStragglers::find(snapshot.jobs, input, t);
        snapshot.findings += IdleGpuLimitFindings::find(snapshot.jobs, input, t, profile.idleGpuLimits);
    }
    if (part.linkCountersKnown) {
        QVector<int> seriesNode;
        seriesNode.reserve(part.linkCounters.size());
        for (const LinkCounterSeries &s : part.linkCounters)
            seriesNode << resolve(s.hosts);
        snapshot.findings += JobLinkErrors::find(snapshot.jobs, part.linkCounters, seriesNode, nodeIndexByName,
                                                 part.linkCountersEnd > 0 ? part.linkCountersEnd : part.takenAt.toSecsSinceEpoch());
    }
    // Jobs the history says nothing of yet (started since it was read, or none could be read):
    // their GPUs' latest readings, marked as such.
    JobUsage::applyCurrent(snapshot.jobs, nodes, t);
    // The GPU and node findings made here name the jobs they affect, as finalize()'s do.
    FindingJobs::attach(snapshot.findings, snapshot.nodes, snapshot.jobs, snapshot.nodeIndexByName);
}

} // namespace strata
