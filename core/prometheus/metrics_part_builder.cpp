#include "metrics_part_builder.h"

#include "dcgm_blank_value.h"
#include "dcgm_metric_catalog.h"
#include "host_name_resolver.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

const QString kNone;

// The labels the builder reads, found in one pass. Pointers into the series (which outlives
// every use here): reading 160,000 series costs no reference counting and no allocation.
struct SeriesLabels
{
    const QString *name = &kNone, *primaryHost = &kNone, *secondaryHost = &kNone, *node = &kNone,
                  *kubernetesNode = &kNone, *instance = &kNone, *gpu = &kNone, *uuid = &kNone,
                  *modelName = &kNone, *hpcJob = &kNone, *pod = &kNone, *ns = &kNone, *exportedPod = &kNone,
                  *exportedNs = &kNone, *migId = &kNone, *migProfile = &kNone;

    SeriesLabels(const PrometheusSeries &series, const QString &hostLabel)
    {
        for (const auto &[key, value] : series.labels) {
            if (hostLabel.isEmpty() ? key == QLatin1String("Hostname") : key == hostLabel)
                primaryHost = &value;
            else if (hostLabel.isEmpty() && key == QLatin1String("hostname"))
                secondaryHost = &value;
            else if (key == QLatin1String("__name__"))
                name = &value;
            else if (key == QLatin1String("gpu"))
                gpu = &value;
            else if (key == QLatin1String("node"))
                node = &value;
            else if (key == QLatin1String("kubernetes_node"))
                kubernetesNode = &value;
            else if (key == QLatin1String("instance"))
                instance = &value;
            else if (key == QLatin1String("UUID"))
                uuid = &value;
            else if (key == QLatin1String("modelName"))
                modelName = &value;
            else if (key == QLatin1String("hpc_job"))
                hpcJob = &value;
            else if (key == QLatin1String("pod"))
                pod = &value;
            else if (key == QLatin1String("namespace"))
                ns = &value;
            else if (key == QLatin1String("exported_pod"))
                exportedPod = &value;
            else if (key == QLatin1String("exported_namespace"))
                exportedNs = &value;
            else if (key == QLatin1String("GPU_I_ID"))
                migId = &value;
            else if (key == QLatin1String("GPU_I_PROFILE"))
                migProfile = &value;
        }
    }

    int gpuIndex() const
    {
        bool ok = false;
        const int index = gpu->toInt(&ok);
        return ok && index >= 0 ? index : -1;
    }
    int migInstance() const
    {
        bool ok = false;
        const int id = migId->toInt(&ok);
        return ok && id >= 0 ? id : -1;
    }

    // `pod`/`namespace` name the exporter's own pod, not a workload: Prometheus renamed the
    // exporter's labels to exported_* (so these are the target's), or the pod is what the
    // exporter put in its host label (dcgm-exporter before 3.1.6 without NODE_NAME).
    bool podIsExporter() const
    {
        return !pod->isEmpty()
            && (!exportedPod->isEmpty() || *pod == *primaryHost || *pod == *secondaryHost);
    }
    static QString qualified(const QString &ns, const QString &pod)
    {
        return ns.isEmpty() ? pod : ns + QLatin1Char('/') + pod;
    }
    QString exporterPod() const { return podIsExporter() ? qualified(*ns, *pod) : QString(); }

    // Same order as HostNameResolver::candidates; the exporter's pod (which Kubernetes places
    // on a node) before the scrape address.
    HostCandidates hosts() const
    {
        HostCandidates out;
        for (const QString *v : {primaryHost, secondaryHost, node, kubernetesNode})
            if (!v->isEmpty() && !out.contains(*v))
                out << *v;
        if (podIsExporter() && !out.contains(*pod))
            out << *pod;
        const QString host = HostNameResolver::hostOfInstance(*instance);
        if (!host.isEmpty() && !out.contains(host))
            out << host;
        return out;
    }

    QString job() const
    {
        if (!hpcJob->isEmpty())
            return *hpcJob;
        if (!exportedPod->isEmpty())
            return qualified(*exportedNs, *exportedPod);
        if (pod->isEmpty() || podIsExporter())
            return {};
        return qualified(*ns, *pod);
    }
};

// Identifies one GPU or MIG instance (and job, for usage) across the series of several
// metrics; points into the series like SeriesLabels.
struct GpuKey
{
    const QString *primaryHost, *secondaryHost, *node, *kubernetesNode, *instance;
    QString job;
    int gpu = -1;
    int mig = -1;

    GpuKey(const SeriesLabels &l, bool withJob)
        : primaryHost(l.primaryHost), secondaryHost(l.secondaryHost), node(l.node), kubernetesNode(l.kubernetesNode),
          instance(l.instance), job(withJob ? l.job() : QString()), gpu(l.gpuIndex()), mig(l.migInstance())
    {
    }
    bool operator==(const GpuKey &o) const
    {
        return gpu == o.gpu && mig == o.mig && *primaryHost == *o.primaryHost && *secondaryHost == *o.secondaryHost
            && *node == *o.node && *kubernetesNode == *o.kubernetesNode && *instance == *o.instance && job == o.job;
    }
};

size_t qHash(const GpuKey &k, size_t seed = 0)
{
    return qHashMulti(seed, *k.primaryHost, *k.secondaryHost, *k.node, *k.instance, k.job, k.gpu, k.mig);
}

// The latest value, unless it is NaN, Inf or a DCGM blank code ("not supported" etc.).
std::optional<double> readingOf(const PrometheusSeries &series)
{
    if (series.samples.isEmpty() || DcgmBlankValue::isMissing(series.samples.last().value))
        return std::nullopt;
    return series.samples.last().value;
}

} // namespace

QString MetricsPartBuilder::jobKey(const PrometheusSeries &series)
{
    return SeriesLabels(series, QString()).job();
}

QVector<GpuSample> MetricsPartBuilder::gpuSamples(const PrometheusResponse &gauges, const QString &hostLabel,
                                                  int *skipped)
{
    QVector<GpuSample> samples;
    QHash<GpuKey, int> indexByKey;
    indexByKey.reserve(gauges.series.size() / 8);
    int ignored = 0;
    // Series of one metric come in runs: look the metric up when the name changes.
    QString lastName;
    const DcgmMetric *lastMetric = nullptr;
    for (const PrometheusSeries &series : gauges.series) {
        const SeriesLabels labels(series, hostLabel);
        const GpuKey key(labels, false);
        if (key.gpu < 0) {
            ++ignored;
            continue;
        }
        if (*labels.name != lastName) {
            lastName = *labels.name;
            lastMetric = DcgmMetricCatalog::byName(lastName);
        }
        auto it = indexByKey.constFind(key);
        if (it == indexByKey.constEnd()) {
            GpuSample s;
            s.hosts = labels.hosts();
            s.gpu = key.gpu;
            s.migInstance = key.mig;
            s.migProfile = *labels.migProfile;
            s.exporterPod = labels.exporterPod();
            it = indexByKey.insert(key, int(samples.size()));
            samples.append(std::move(s));
        }
        GpuSample &s = samples[*it];
        if (s.uuid.isEmpty())
            s.uuid = *labels.uuid;
        if (s.modelName.isEmpty())
            s.modelName = *labels.modelName;
        if (s.jobKey.isEmpty())
            s.jobKey = labels.job();
        if (lastMetric && lastMetric->field)
            if (const std::optional<double> v = readingOf(series))
                s.metrics.*(lastMetric->field) = *v;
    }
    if (skipped)
        *skipped = ignored;
    return samples;
}

void MetricsPartBuilder::mergeGpuSamples(QVector<GpuSample> &into, const QVector<GpuSample> &from)
{
    if (into.isEmpty()) {
        into = from;
        return;
    }
    const auto keyOf = [](const GpuSample &s) {
        return s.hosts.join(QChar(0x1f)) + QChar(0x1f) + QString::number(s.gpu) + QChar(0x1f)
            + QString::number(s.migInstance);
    };
    QHash<QString, int> indexByKey;
    indexByKey.reserve(into.size());
    for (int i = 0; i < into.size(); ++i)
        indexByKey.insert(keyOf(into[i]), i);
    for (const GpuSample &s : from) {
        const auto it = indexByKey.constFind(keyOf(s));
        if (it == indexByKey.constEnd()) {
            indexByKey.insert(keyOf(s), int(into.size()));
            into.append(s);
            continue;
        }
        GpuSample &t = into[*it];
        for (const DcgmMetric &m : DcgmMetricCatalog::all())
            if (s.metrics.*(m.field))
                t.metrics.*(m.field) = s.metrics.*(m.field);
        if (t.uuid.isEmpty())
            t.uuid = s.uuid;
        if (t.modelName.isEmpty())
            t.modelName = s.modelName;
        if (t.jobKey.isEmpty())
            t.jobKey = s.jobKey;
        if (t.exporterPod.isEmpty())
            t.exporterPod = s.exporterPod;
        if (t.migProfile.isEmpty())
            t.migProfile = s.migProfile;
        if (s.pcieReplaysIncrease)
            t.pcieReplaysIncrease = s.pcieReplaysIncrease;
    }
}

void MetricsPartBuilder::addPcieReplayIncrease(QVector<GpuSample> &samples, const PrometheusResponse &increase,
                                               const QString &hostLabel)
{
    // Samples only keep their host candidates, so match on those and the GPU index.
    QHash<QString, int> indexByKey;
    indexByKey.reserve(samples.size());
    const auto keyOf = [](const HostCandidates &hosts, int gpu, int mig) {
        return hosts.join(QChar(0x1f)) + QChar(0x1f) + QString::number(gpu) + QChar(0x1f) + QString::number(mig);
    };
    for (int i = 0; i < samples.size(); ++i)
        indexByKey.insert(keyOf(samples[i].hosts, samples[i].gpu, samples[i].migInstance), i);
    for (const PrometheusSeries &series : increase.series) {
        const SeriesLabels labels(series, hostLabel);
        const int gpu = labels.gpuIndex();
        const std::optional<double> v = readingOf(series);
        if (gpu < 0 || !v)
            continue;
        const auto it = indexByKey.constFind(keyOf(labels.hosts(), gpu, labels.migInstance()));
        if (it != indexByKey.constEnd())
            samples[*it].pcieReplaysIncrease = *v;
    }
}

QVector<ExporterTarget> MetricsPartBuilder::exporterTargets(const PrometheusResponse &up)
{
    QVector<ExporterTarget> targets;
    targets.reserve(up.series.size());
    for (const PrometheusSeries &series : up.series) {
        ExporterTarget t;
        t.instance = series.label(u"instance");
        t.job = series.label(u"job");
        t.pod = series.label(u"pod");
        t.namespaceName = series.label(u"namespace");
        for (const QString &host : {series.label(u"node"), series.label(u"kubernetes_node"), t.pod,
                                    HostNameResolver::hostOfInstance(t.instance)})
            if (!host.isEmpty() && !t.hosts.contains(host))
                t.hosts << host;
        const std::optional<double> v = readingOf(series);
        t.up = v && *v >= 1;
        targets.append(std::move(t));
    }
    return targets;
}

QVector<GpuUsageSeries> MetricsPartBuilder::usageSeries(const PrometheusResponse &usage, const QString &hostLabel)
{
    struct Pending
    {
        const PrometheusSeries *util = nullptr;
        const PrometheusSeries *mem = nullptr;
        HostCandidates hosts;
        int gpu = -1;
        int mig = -1;
        QString job;
        double utilScale = 1; // GR engine active (0..1) of a MIG instance -> percent
    };
    QVector<Pending> pending;
    QHash<GpuKey, int> indexByKey;
    for (const PrometheusSeries &series : usage.series) {
        const SeriesLabels labels(series, hostLabel);
        const GpuKey key(labels, true);
        if (key.gpu < 0)
            continue;
        // DCGM has no GPU_UTIL for MIG instances; the plan asks for their GR engine activity.
        const bool isEngine = *labels.name == QLatin1String("DCGM_FI_PROF_GR_ENGINE_ACTIVE");
        const bool isUtil = *labels.name == QLatin1String("DCGM_FI_DEV_GPU_UTIL");
        if (!isUtil && !isEngine && *labels.name != QLatin1String("DCGM_FI_DEV_FB_USED"))
            continue;
        auto it = indexByKey.constFind(key);
        if (it == indexByKey.constEnd()) {
            it = indexByKey.insert(key, int(pending.size()));
            pending.append(Pending{nullptr, nullptr, labels.hosts(), key.gpu, key.mig, key.job});
        }
        Pending &p = pending[*it];
        if (isEngine) {
            if (!p.util) { // a GPU_UTIL series, where there is one, wins
                p.util = &series;
                p.utilScale = 100;
            }
        } else if (isUtil) {
            p.util = &series;
            p.utilScale = 1;
        } else {
            p.mem = &series;
        }
    }

    QVector<GpuUsageSeries> out;
    out.reserve(pending.size());
    for (Pending &p : pending) {
        GpuUsageSeries s;
        s.hosts = std::move(p.hosts);
        s.gpu = p.gpu;
        s.migInstance = p.mig;
        s.jobKey = std::move(p.job);
        static const QVector<PrometheusSample> none;
        const QVector<PrometheusSample> &util = p.util ? p.util->samples : none;
        const QVector<PrometheusSample> &mem = p.mem ? p.mem->samples : none;
        s.points.reserve(std::max(util.size(), mem.size()));
        // Both come from one query_range, so they share the step grid: a merge by time.
        qsizetype i = 0, j = 0;
        while (i < util.size() || j < mem.size()) {
            UsagePoint point;
            const double tu = i < util.size() ? util[i].time : INFINITY;
            const double tm = j < mem.size() ? mem[j].time : INFINITY;
            point.time = qint64(std::llround(std::min(tu, tm)));
            if (tu <= tm) {
                if (!DcgmBlankValue::isMissing(util[i].value))
                    point.utilPercent = float(util[i].value * p.utilScale);
                ++i;
            }
            if (tm <= tu) {
                if (!DcgmBlankValue::isMissing(mem[j].value))
                    point.memUsedMiB = float(mem[j].value);
                ++j;
            }
            s.points.append(point);
        }
        out.append(std::move(s));
    }
    return out;
}

} // namespace strata
