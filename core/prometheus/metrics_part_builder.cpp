#include "metrics_part_builder.h"

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
                  *instance = &kNone, *gpu = &kNone, *uuid = &kNone, *modelName = &kNone, *hpcJob = &kNone,
                  *pod = &kNone, *ns = &kNone;

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
        }
    }

    int gpuIndex() const
    {
        bool ok = false;
        const int index = gpu->toInt(&ok);
        return ok && index >= 0 ? index : -1;
    }

    // Same order as HostNameResolver::candidates.
    HostCandidates hosts() const
    {
        HostCandidates out;
        for (const QString *v : {primaryHost, secondaryHost, node})
            if (!v->isEmpty() && !out.contains(*v))
                out << *v;
        const QString host = HostNameResolver::hostOfInstance(*instance);
        if (!host.isEmpty() && !out.contains(host))
            out << host;
        return out;
    }

    QString job() const
    {
        if (!hpcJob->isEmpty())
            return *hpcJob;
        if (pod->isEmpty())
            return {};
        return ns->isEmpty() ? *pod : *ns + QLatin1Char('/') + *pod;
    }
};

// Identifies one GPU (and job, for usage) across the series of several metrics; points into
// the series like SeriesLabels.
struct GpuKey
{
    const QString *primaryHost, *secondaryHost, *node, *instance;
    QString job;
    int gpu = -1;

    GpuKey(const SeriesLabels &l, bool withJob)
        : primaryHost(l.primaryHost), secondaryHost(l.secondaryHost), node(l.node), instance(l.instance),
          job(withJob ? l.job() : QString()), gpu(l.gpuIndex())
    {
    }
    bool operator==(const GpuKey &o) const
    {
        return gpu == o.gpu && *primaryHost == *o.primaryHost && *secondaryHost == *o.secondaryHost
            && *node == *o.node && *instance == *o.instance && job == o.job;
    }
};

size_t qHash(const GpuKey &k, size_t seed = 0)
{
    return qHashMulti(seed, *k.primaryHost, *k.secondaryHost, *k.node, *k.instance, k.job, k.gpu);
}

std::optional<double> finiteValue(const PrometheusSeries &series)
{
    if (series.samples.isEmpty() || !std::isfinite(series.samples.last().value))
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
            if (const std::optional<double> v = finiteValue(series))
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
    const auto keyOf = [](const GpuSample &s) { return s.hosts.join(QChar(0x1f)) + QChar(0x1f) + QString::number(s.gpu); };
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
    const auto keyOf = [](const HostCandidates &hosts, int gpu) {
        return hosts.join(QChar(0x1f)) + QChar(0x1f) + QString::number(gpu);
    };
    for (int i = 0; i < samples.size(); ++i)
        indexByKey.insert(keyOf(samples[i].hosts, samples[i].gpu), i);
    for (const PrometheusSeries &series : increase.series) {
        const SeriesLabels labels(series, hostLabel);
        const int gpu = labels.gpuIndex();
        const std::optional<double> v = finiteValue(series);
        if (gpu < 0 || !v)
            continue;
        const auto it = indexByKey.constFind(keyOf(labels.hosts(), gpu));
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
        const QString node = series.label(u"node");
        if (!node.isEmpty())
            t.hosts << node;
        const QString host = HostNameResolver::hostOfInstance(t.instance);
        if (!host.isEmpty() && host != node)
            t.hosts << host;
        const std::optional<double> v = finiteValue(series);
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
        QString job;
    };
    QVector<Pending> pending;
    QHash<GpuKey, int> indexByKey;
    for (const PrometheusSeries &series : usage.series) {
        const SeriesLabels labels(series, hostLabel);
        const GpuKey key(labels, true);
        if (key.gpu < 0)
            continue;
        const bool isUtil = *labels.name == QLatin1String("DCGM_FI_DEV_GPU_UTIL");
        if (!isUtil && *labels.name != QLatin1String("DCGM_FI_DEV_FB_USED"))
            continue;
        auto it = indexByKey.constFind(key);
        if (it == indexByKey.constEnd()) {
            it = indexByKey.insert(key, int(pending.size()));
            pending.append(Pending{nullptr, nullptr, labels.hosts(), key.gpu, key.job});
        }
        (isUtil ? pending[*it].util : pending[*it].mem) = &series;
    }

    QVector<GpuUsageSeries> out;
    out.reserve(pending.size());
    for (Pending &p : pending) {
        GpuUsageSeries s;
        s.hosts = std::move(p.hosts);
        s.gpu = p.gpu;
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
                if (std::isfinite(util[i].value))
                    point.utilPercent = float(util[i].value);
                ++i;
            }
            if (tm <= tu) {
                if (std::isfinite(mem[j].value))
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
