#pragma once

#include "metrics_part.h"
#include "prometheus_response.h"

#include <QStringList>
#include <QVector>

namespace strata {

// Pure conversions from the parsed answers of the MetricsQueryPlan queries to MetricsPart
// pieces. No I/O, no state; MetricsSource runs them on the QtConcurrent pool.
class MetricsPartBuilder
{
public:
    // One GpuSample per (host labels, gpu) from the gauges query (each series carries
    // __name__). Series without a numeric `gpu` label are skipped and counted in *skipped.
    // NaN and +/-Inf values count as missing: the field stays nullopt.
    static QVector<GpuSample> gpuSamples(const PrometheusResponse &gauges, const QString &hostLabel,
                                         int *skipped = nullptr);
    // Merges samples of the same GPUs (e.g. from per-metric queries): metrics present in
    // `from` overwrite, identity fields fill gaps. Order: `into`'s, then new GPUs.
    static void mergeGpuSamples(QVector<GpuSample> &into, const QVector<GpuSample> &from);
    // Adds increase(DCGM_FI_DEV_PCIE_REPLAY_COUNTER[...]) to the matching samples.
    static void addPcieReplayIncrease(QVector<GpuSample> &samples, const PrometheusResponse &increase,
                                      const QString &hostLabel);
    // `up` of the exporter targets.
    static QVector<ExporterTarget> exporterTargets(const PrometheusResponse &up);
    // The usage matrix (GPU_UTIL and FB_USED, each series carrying __name__) merged into one
    // series of points per (host labels, gpu, job).
    static QVector<GpuUsageSeries> usageSeries(const PrometheusResponse &usage, const QString &hostLabel);

    // `hpc_job`, else "namespace/pod", else empty.
    static QString jobKey(const PrometheusSeries &series);
};

} // namespace strata
