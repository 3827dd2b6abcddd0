#include "metrics_part_builder.h"

#include "dcgm_metric_catalog.h"
#include "host_name_resolver.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

constexpr QChar kSeparator(0x1f);

QString keyOf(const HostCandidates &hosts, int gpu, const QString &job = {})
{
    return hosts.join(kSeparator) + kSeparator + QString::number(gpu) + kSeparator + job;
}

int gpuIndex(const PrometheusSeries &series)
{
    bool ok = false;
    const int index = series.label(u"gpu").toInt(&ok);
    return ok && index >= 0 ? index : -1;
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
    QString job = series.label(u"hpc_job");
    if (!job.isEmpty())
        return job;
    const QString pod = series.label(u"pod");
    if (pod.isEmpty())
        return {};
    const QString ns = series.label(u"namespace");
    return ns.isEmpty() ? pod : ns + QLatin1Char('/') + pod;
}

QVector<GpuSample> MetricsPartBuilder::gpuSamples(const PrometheusResponse &gauges, const QString &hostLabel,
                                                  int *skipped)
{
    QVector<GpuSample> samples;
    QHash<QString, int> indexByKey;
    indexByKey.reserve(gauges.series.size() / 8);
    int ignored = 0;
    // The DCGM name lookup is by pointer per distinct __name__: cache the last one, series of
    // one metric come in runs.
    QString lastName;
    const DcgmMetric *lastMetric = nullptr;
    for (const PrometheusSeries &series : gauges.series) {
        const int gpu = gpuIndex(series);
        if (gpu < 0) {
            ++ignored;
            continue;
        }
        const QString name = series.label(u"__name__");
        if (name != lastName) {
            lastName = name;
            lastMetric = DcgmMetricCatalog::byName(name);
        }
        HostCandidates hosts = HostNameResolver::candidates(series, hostLabel);
        const QString key = keyOf(hosts, gpu);
        auto it = indexByKey.constFind(key);
        if (it == indexByKey.constEnd()) {
            GpuSample s;
            s.hosts = std::move(hosts);
            s.gpu = gpu;
            it = indexByKey.insert(key, int(samples.size()));
            samples.append(std::move(s));
        }
        GpuSample &s = samples[*it];
        if (s.uuid.isEmpty())
            s.uuid = series.label(u"UUID");
        if (s.modelName.isEmpty())
            s.modelName = series.label(u"modelName");
        if (s.jobKey.isEmpty())
            s.jobKey = jobKey(series);
        if (lastMetric && lastMetric->field)
            if (const std::optional<double> v = finiteValue(series))
                s.metrics.*(lastMetric->field) = *v;
    }
    if (skipped)
        *skipped = ignored;
    return samples;
}

void MetricsPartBuilder::addPcieReplayIncrease(QVector<GpuSample> &samples, const PrometheusResponse &increase,
                                               const QString &hostLabel)
{
    QHash<QString, int> indexByKey;
    indexByKey.reserve(samples.size());
    for (int i = 0; i < samples.size(); ++i)
        indexByKey.insert(keyOf(samples[i].hosts, samples[i].gpu), i);
    for (const PrometheusSeries &series : increase.series) {
        const int gpu = gpuIndex(series);
        const std::optional<double> v = finiteValue(series);
        if (gpu < 0 || !v)
            continue;
        const auto it = indexByKey.constFind(keyOf(HostNameResolver::candidates(series, hostLabel), gpu));
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
    QHash<QString, int> indexByKey;
    for (const PrometheusSeries &series : usage.series) {
        const int gpu = gpuIndex(series);
        if (gpu < 0)
            continue;
        const QString name = series.label(u"__name__");
        const bool isUtil = name == QLatin1String("DCGM_FI_DEV_GPU_UTIL");
        if (!isUtil && name != QLatin1String("DCGM_FI_DEV_FB_USED"))
            continue;
        HostCandidates hosts = HostNameResolver::candidates(series, hostLabel);
        const QString job = jobKey(series);
        const QString key = keyOf(hosts, gpu, job);
        auto it = indexByKey.constFind(key);
        if (it == indexByKey.constEnd()) {
            it = indexByKey.insert(key, int(pending.size()));
            pending.append(Pending{nullptr, nullptr, std::move(hosts), gpu, job});
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
