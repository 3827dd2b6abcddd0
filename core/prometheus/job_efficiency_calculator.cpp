#include "job_efficiency_calculator.h"

#include "dcgm_blank_value.h"
#include "host_name_resolver.h"
#include "job_usage.h"
#include "metrics_part_builder.h"

#include "model/cluster_snapshot.h"
#include "model/gpu_count.h"

#include <QMap>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

qint64 gpuKey(int node, int gpu)
{
    return (qint64(node) << 20) | qint64(gpu);
}

} // namespace

JobEfficiencyCalculator::Nodes JobEfficiencyCalculator::Nodes::fromSnapshot(const ClusterSnapshot *snapshot)
{
    Nodes nodes;
    if (!snapshot)
        return nodes;
    nodes.names.reserve(snapshot->nodes.size());
    nodes.addresses.reserve(snapshot->nodes.size());
    for (const Node &node : snapshot->nodes) {
        nodes.names << node.name;
        nodes.addresses << node.addresses;
        if (node.gpuCountKnown() && node.gpuCount > 0)
            nodes.gpuCount.insert(node.name, node.gpuCount);
    }
    return nodes;
}

JobEfficiencyCalculator::JobEfficiencyCalculator(const QVector<JobRecord> &records, const Nodes &nodes, Context context)
    : m_context(std::move(context)), m_nodeNames(nodes.names)
{
    QHash<QString, int> nodeIndex;
    for (int i = 0; i < m_nodeNames.size(); ++i)
        nodeIndex.insert(m_nodeNames[i], i);
    const auto indexOf = [&](const QString &name) {
        auto it = nodeIndex.constFind(name);
        if (it == nodeIndex.constEnd()) {
            it = nodeIndex.insert(name, int(m_nodeNames.size()));
            m_nodeNames << name;
        }
        return *it;
    };

    const int n = int(records.size());
    m_runs.resize(n);
    m_attribution.fill(JobEfficiency::Basis::None, n);
    m_exact.resize(n);
    m_inside.resize(n);
    m_edges.resize(n);
    for (int i = 0; i < n; ++i) {
        const JobRecord &r = records[i];
        if (!r.started.isValid() || r.gpus <= 0)
            continue;
        Run run;
        run.start = std::max(r.started.toSecsSinceEpoch(), m_context.periodStart);
        run.end = std::min(r.ended.isValid() ? r.ended.toSecsSinceEpoch() : m_context.periodEnd, m_context.periodEnd);
        if (run.end <= run.start)
            continue;
        m_runs[i] = run;
        m_recordById.insert(r.id, i);
        for (const PodSpan &pod : r.pods) {
            if (!pod.started.isValid() || pod.gpus <= 0)
                continue;
            PodRun podRun{i, {}};
            podRun.run.start = std::max(pod.started.toSecsSinceEpoch(), m_context.periodStart);
            podRun.run.end = std::min(pod.ended.isValid() ? pod.ended.toSecsSinceEpoch() : m_context.periodEnd,
                                      m_context.periodEnd);
            if (podRun.run.end > podRun.run.start)
                m_podRuns.insert(pod.key, podRun);
        }

        QVector<qint64> gpus;
        if (!r.gpuIndicesByNode.isEmpty()) {
            m_attribution[i] = JobEfficiency::Basis::Indices;
            for (auto it = r.gpuIndicesByNode.cbegin(); it != r.gpuIndicesByNode.cend(); ++it) {
                const int node = indexOf(it.key());
                for (int gpu : it.value())
                    if (gpu >= 0 && gpu < GpuCount::kMaxPerNode) // a record claiming index 2^31 sizes nothing
                        gpus << gpuKey(node, gpu);
            }
        } else {
            qint64 nodeGpus = 0;
            bool allKnown = !r.nodes.isEmpty();
            for (const QString &name : r.nodes) {
                const int count = nodes.gpuCount.value(name, 0);
                allKnown = allKnown && count > 0;
                nodeGpus += count;
            }
            if (allKnown && nodeGpus == r.gpus) {
                m_attribution[i] = JobEfficiency::Basis::WholeNodes;
                for (const QString &name : r.nodes) {
                    const int node = indexOf(name);
                    const int count = std::min(nodes.gpuCount.value(name), GpuCount::kMaxPerNode);
                    for (int gpu = 0; gpu < count; ++gpu)
                        gpus << gpuKey(node, gpu);
                }
            } else {
                m_attribution[i] = JobEfficiency::Basis::Unattributable;
            }
        }
        for (qint64 key : std::as_const(gpus))
            m_recordsByGpu[key].append(i);
    }
    for (QVector<int> &list : m_recordsByGpu)
        std::sort(list.begin(), list.end(), [this](int a, int b) { return m_runs[a].start < m_runs[b].start; });
    m_resolver.emplace(m_nodeNames, m_context.hostRelabel);
    for (int i = 0; i < nodes.addresses.size() && i < m_nodeNames.size(); ++i)
        m_resolver->addNodeAddresses(i, nodes.addresses[i]);
}

int JobEfficiencyCalculator::resolveNode(const PrometheusSeries &series)
{
    const HostCandidates candidates = HostNameResolver::candidates(series, m_context.hostLabel);
    const QString key = candidates.join(QChar(0x1f));
    auto it = m_nodeByCandidates.constFind(key);
    if (it != m_nodeByCandidates.constEnd())
        return *it;
    const int node = m_resolver->resolve(candidates);
    m_nodeByCandidates.insert(key, node);
    return node;
}

void JobEfficiencyCalculator::addPoint(Sum &sum, Metric metric, double value, double weight, qint64 gpu) const
{
    // No GPU reports a negative utilisation, memory or power: a missing reading, not an idle one.
    if (weight <= 0 || !std::isfinite(value) || value < 0 || DcgmBlankValue::isMissing(value))
        return;
    switch (metric) {
    case Metric::Util:
        sum.utilWeighted += weight * value;
        sum.utilWeight += weight;
        if (value < m_context.thresholds.idleUtilPercent)
            sum.idleWeight += weight;
        sum.gpus.insert(gpu);
        break;
    case Metric::MemUsed:
        sum.memPeak = std::max(sum.memPeak, value);
        break;
    case Metric::Power:
        sum.powerWeighted += weight * value;
        sum.powerWeight += weight;
        break;
    }
}

void JobEfficiencyCalculator::add(Metric metric, const PrometheusResponse &answer)
{
    if (!answer.ok)
        return;
    const qint64 step = m_context.stepSeconds;
    if (step <= 0)
        return;
    QHash<qint64, QVector<const PrometheusSeries *>> byGpu; // series attributed by indices, by GPU
    for (const PrometheusSeries &series : answer.series) {
        if (!series.label(u"GPU_I_ID").isEmpty())
            continue; // a MIG instance: the plan does not ask for them
        bool numeric = false;
        const int gpu = series.label(u"gpu").toInt(&numeric);
        if (!numeric || gpu < 0 || gpu >= (1 << 20)) {
            ++m_skippedSeries;
            continue;
        }
        const int node = resolveNode(series);
        // The series' own pod (weighted by the pod's span), else its job by id.
        const QString seriesKey = MetricsPartBuilder::jobKey(series);
        int i = -1;
        const Run *labelledRun = nullptr;
        if (const auto pod = m_podRuns.constFind(seriesKey); pod != m_podRuns.constEnd()) {
            i = pod->record;
            labelledRun = &pod->run;
        } else if (const QString job = JobUsage::jobIdForKey(seriesKey, m_recordById); !job.isEmpty()) {
            i = m_recordById.value(job);
            labelledRun = &m_runs[i];
        }
        if (labelledRun) {
            const Run &run = *labelledRun;
            const qint64 key = node >= 0 ? gpuKey(node, gpu)
                                         : (qint64(qHash(HostNameResolver::candidates(series, m_context.hostLabel)
                                                             .join(QChar(0x1f))))
                                            << 20) | gpu;
            for (const PrometheusSample &p : series.samples) {
                const qint64 t = qint64(std::llround(p.time));
                const qint64 overlap = std::min(t, run.end) - std::max(t - step, run.start);
                addPoint(m_exact[i], metric, p.value, double(std::min(overlap, step)) / double(step), key);
            }
            continue;
        }
        if (node < 0) {
            ++m_unmatchedSeries;
            continue;
        }
        const qint64 key = gpuKey(node, gpu);
        if (m_recordsByGpu.contains(key))
            byGpu[key].append(&series);
    }

    // A GPU by its indices: one series, or several where the exporter's job label changed (a
    // GPU's series before the exporter knew its job, then the job's). Within one step the
    // busier reading is the job's: the other is the few seconds before the exporter knew it.
    for (auto group = byGpu.cbegin(); group != byGpu.cend(); ++group) {
        QVector<PrometheusSample> merged;
        const QVector<PrometheusSample> *samples = &group.value().first()->samples;
        if (group.value().size() > 1) {
            QMap<qint64, double> byTime;
            for (const PrometheusSeries *s : group.value())
                for (const PrometheusSample &p : s->samples) {
                    if (!std::isfinite(p.value) || DcgmBlankValue::isMissing(p.value))
                        continue;
                    const qint64 t = qint64(std::llround(p.time));
                    auto it = byTime.find(t);
                    if (it == byTime.end())
                        byTime.insert(t, p.value);
                    else
                        *it = std::max(*it, p.value);
                }
            merged.reserve(byTime.size());
            for (auto it = byTime.cbegin(); it != byTime.cend(); ++it)
                merged.append(PrometheusSample{double(it.key()), it.value()});
            samples = &merged;
        }
        for (int i : m_recordsByGpu.value(group.key())) {
            const Run &run = m_runs[i];
            // Points whose step (t - step, t] touches the run: t in (run.start, run.end + step).
            auto it = std::upper_bound(samples->cbegin(), samples->cend(), double(run.start),
                                       [](double t, const PrometheusSample &s) { return t < s.time; });
            for (; it != samples->cend() && qint64(std::llround(it->time)) < run.end + step; ++it) {
                const qint64 t = qint64(std::llround(it->time));
                const qint64 overlap = std::min(t, run.end) - std::max(t - step, run.start);
                if (overlap >= step)
                    addPoint(m_inside[i], metric, it->value, 1.0, group.key());
                else
                    addPoint(m_edges[i], metric, it->value, double(overlap) / double(step), group.key());
            }
        }
    }
}

void JobEfficiencyCalculator::fill(QVector<JobRecord> &records) const
{
    const double hoursPerWeight = double(m_context.stepSeconds) / 3600.0;
    for (int i = 0; i < records.size() && i < m_runs.size(); ++i) {
        JobRecord &r = records[i];
        JobEfficiency e;
        const Sum *sum = nullptr;
        if (!r.started.isValid()) {
            e.why = QStringLiteral("never started");
        } else if (r.gpus <= 0) {
            e.why = QStringLiteral("held no GPUs");
        } else if (m_runs[i].end <= m_runs[i].start) {
            e.why = QStringLiteral("did not run inside the period");
        } else if (m_exact[i].any()) {
            e.basis = JobEfficiency::Basis::Exact;
            sum = &m_exact[i];
        } else if (m_attribution[i] == JobEfficiency::Basis::Unattributable) {
            e.basis = JobEfficiency::Basis::Unattributable;
            e.why = !r.pods.isEmpty()
                        ? QStringLiteral("shared its nodes, and the exporter labels none of its pods' GPUs (pod and "
                                         "namespace labels: the DCGM exporter's Kubernetes mapping, kubelet pod-resources)")
                        : QStringLiteral("shared its nodes, and neither the accounting (no GPU indices recorded) nor the "
                                         "exporter (no hpc_job label) says which GPUs were its own");
        } else if (m_inside[i].any() || m_edges[i].any()) {
            e.basis = m_attribution[i];
            sum = m_inside[i].utilWeight > 0 ? &m_inside[i] : &m_edges[i];
        } else {
            e.why = QStringLiteral("no GPU samples in Prometheus for its GPUs over its run (exporter not scraped "
                                   "then, or the run is older than Prometheus's retention)");
        }
        if (sum) {
            if (sum->utilWeight > 0) {
                e.utilMeanPercent = sum->utilWeighted / sum->utilWeight;
                e.gpuHoursMeasured = sum->utilWeight * hoursPerWeight;
                e.gpuHoursIdle = sum->idleWeight * hoursPerWeight;
                e.gpusMeasured = int(sum->gpus.size());
            }
            e.memPeakMiB = sum->memPeak;
            if (sum->powerWeight > 0)
                e.powerMeanW = sum->powerWeighted / sum->powerWeight;
        }
        r.efficiency = e;
    }
}

} // namespace strata
