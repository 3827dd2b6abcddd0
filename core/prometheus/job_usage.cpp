#include "job_usage.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata {

QString JobUsage::jobIdForKey(const QString &key, const QHash<QString, int> &jobIndexById)
{
    if (key.isEmpty())
        return {};
    if (jobIndexById.contains(key))
        return key;
    QString candidate = key;
    for (int i = 0; i < 2; ++i) {
        const qsizetype dash = candidate.lastIndexOf(QLatin1Char('-'));
        if (dash <= 0 || candidate.lastIndexOf(QLatin1Char('/')) > dash)
            break;
        candidate.truncate(dash);
        if (jobIndexById.contains(candidate))
            return candidate;
    }
    return {};
}

JobUsage::GpuSummary JobUsage::summarise(const QVector<UsagePoint> &points, qint64 from, qint64 now,
                                         const HealthThresholds &t)
{
    GpuSummary s;
    double utilSum = 0, memSum = 0;
    int memPoints = 0;
    qint64 idleSince = -1;
    for (const UsagePoint &p : points) {
        if (p.time < from)
            continue;
        if (p.memUsedMiB >= 0) {
            memSum += p.memUsedMiB;
            ++memPoints;
        }
        if (p.utilPercent < 0)
            continue;
        utilSum += p.utilPercent;
        ++s.points;
        if (p.utilPercent < t.idleUtilPercent) {
            if (idleSince < 0)
                idleSince = p.time;
        } else {
            idleSince = -1;
        }
    }
    if (s.points > 0)
        s.meanUtilPercent = utilSum / s.points;
    if (memPoints > 0)
        s.meanMemUsedMiB = memSum / memPoints;
    if (idleSince >= 0)
        s.idleSeconds = std::max<qint64>(0, now - idleSince);
    return s;
}

QString JobUsage::verdict(int gpusHeld, const QVector<GpuSummary> &gpus, const HealthThresholds &t)
{
    if (gpus.isEmpty())
        return QStringLiteral("no GPU metrics for this job");
    const int held = std::max(gpusHeld, int(gpus.size()));
    double sum = 0, lowest = std::numeric_limits<double>::max();
    int idle = 0;
    qint64 idleFor = std::numeric_limits<qint64>::max();
    for (const GpuSummary &g : gpus) {
        sum += g.meanUtilPercent;
        lowest = std::min(lowest, g.meanUtilPercent);
        if (g.idleSeconds >= qint64(t.idleMinutes) * 60) {
            ++idle;
            idleFor = std::min(idleFor, g.idleSeconds);
        }
    }
    const double mean = sum / gpus.size();
    const QString gpuWord = held == 1 ? QStringLiteral("GPU") : QStringLiteral("GPUs");
    QString text;
    if (idle > 0)
        text = QStringLiteral("%1 %2 held, %3 idle for %4 min").arg(held).arg(gpuWord).arg(idle).arg(idleFor / 60);
    else if (lowest >= t.busyUtilPercent && gpus.size() >= held)
        text = held == 1 ? QStringLiteral("1 GPU busy (mean %1%)").arg(std::lround(mean))
                         : QStringLiteral("all %1 GPUs busy (mean %2%)").arg(held).arg(std::lround(mean));
    else
        text = QStringLiteral("%1 %2 held, mean %3%, lowest %4%")
                   .arg(held).arg(gpuWord).arg(std::lround(mean)).arg(std::lround(lowest));
    if (gpus.size() < held)
        text += QStringLiteral("; no metrics for %1 of %2").arg(held - gpus.size()).arg(held);
    return text;
}

QHash<int, QVector<int>> JobUsage::seriesOfJobs(const QVector<Job> &jobs, const Input &input)
{
    QHash<int, QVector<int>> mine;
    if (!input.series)
        return mine;
    const QVector<GpuUsageSeries> &series = *input.series;

    QHash<QString, int> jobIndexById;
    jobIndexById.reserve(jobs.size());
    for (int i = 0; i < jobs.size(); ++i)
        if (jobs[i].isRunning()) {
            jobIndexById.insert(jobs[i].id, i);
            for (const QString &pod : jobs[i].pods) // the exporter labels a Kubernetes GPU with its pod
                jobIndexById.insert(pod, i);
        }

    // Series the exporter labels with a job, by job; the rest by (node, GPU index).
    QHash<int, QVector<int>> labelled;
    QHash<qint64, QVector<int>> byGpu;
    QHash<QString, QString> resolvedKeys;
    for (int i = 0; i < series.size(); ++i) {
        const GpuUsageSeries &s = series[i];
        if (!s.jobKey.isEmpty()) {
            auto it = resolvedKeys.constFind(s.jobKey);
            if (it == resolvedKeys.constEnd())
                it = resolvedKeys.insert(s.jobKey, jobIdForKey(s.jobKey, jobIndexById));
            if (!it->isEmpty()) {
                labelled[jobIndexById.value(*it)].append(i);
                continue;
            }
        }
        const int node = input.seriesNode.value(i, -1);
        if (node >= 0)
            byGpu[(qint64(node) << 20) | s.gpu].append(i);
    }

    for (int j = 0; j < jobs.size(); ++j) {
        const Job &job = jobs[j];
        if (!job.isRunning())
            continue;
        QVector<int> own = labelled.value(j);
        // Nodes whose exporter names the job (a job-mapping directory, the pod-resources API)
        // give their labelled series; the job's other nodes, whose exporter names no workload
        // (a mixed fleet, an exporter rolled out in part), the series of the GPUs it holds there.
        QSet<int> labelledNodes;
        for (int i : std::as_const(own))
            labelledNodes.insert(input.seriesNode.value(i, -1));
        for (auto it = job.gpus.cbegin(); it != job.gpus.cend(); ++it) {
            const int node = input.nodeIndexByName.value(it.key(), -1);
            if (node < 0 || labelledNodes.contains(node))
                continue;
            for (int gpu : it.value())
                own += byGpu.value((qint64(node) << 20) | gpu);
        }
        if (!own.isEmpty())
            mine.insert(j, own);
    }
    return mine;
}

void JobUsage::apply(QVector<Job> &jobs, const Input &input, const HealthThresholds &t)
{
    if (!input.series)
        return;
    const QVector<GpuUsageSeries> &series = *input.series;
    const QHash<int, QVector<int>> seriesByJob = seriesOfJobs(jobs, input);

    for (int j = 0; j < jobs.size(); ++j) {
        Job &job = jobs[j];
        if (!job.isRunning())
            continue;
        const QVector<int> mine = seriesByJob.value(j);
        const qint64 from = job.startTime > 0 ? job.startTime : 0;
        QVector<GpuSummary> summaries;
        double memSum = 0;
        int memGpus = 0;
        for (int i : mine) {
            const GpuSummary s = summarise(series[i].points, from, input.now, t);
            if (s.points == 0)
                continue;
            summaries.append(s);
            if (s.meanMemUsedMiB >= 0) {
                memSum += s.meanMemUsedMiB;
                ++memGpus;
            }
        }
        const int held = job.gpuCountHeld() > 0 ? job.gpuCountHeld() : job.gpusRequested;
        job.efficiencyVerdict = verdict(held, summaries, t);
        if (summaries.isEmpty())
            continue;
        double sum = 0, lowest = std::numeric_limits<double>::max();
        for (const GpuSummary &s : summaries) {
            sum += s.meanUtilPercent;
            lowest = std::min(lowest, s.meanUtilPercent);
        }
        job.gpuUtilMean = sum / summaries.size();
        job.gpuUtilMin = lowest;
        job.gpuUtilBasis = QStringLiteral("window");
        if (memGpus > 0)
            job.gpuMemUsedMeanMiB = memSum / memGpus;
    }
}

void JobUsage::applyCurrent(QVector<Job> &jobs, const QVector<Node> &nodes, const HealthThresholds &t)
{
    QHash<QString, int> waiting;
    for (int i = 0; i < jobs.size(); ++i)
        if (jobs[i].isRunning() && !jobs[i].gpuUtilMean) {
            waiting.insert(jobs[i].id, i);
            for (const QString &pod : jobs[i].pods)
                waiting.insert(pod, i);
        }
    if (waiting.isEmpty())
        return;

    QHash<int, QVector<GpuSummary>> byJob;
    QHash<QString, QString> resolvedKeys;
    const auto add = [&](const QString &key, const GpuMetrics &m) {
        if (key.isEmpty() || !m.utilPercent)
            return;
        auto it = resolvedKeys.constFind(key);
        if (it == resolvedKeys.constEnd())
            it = resolvedKeys.insert(key, jobIdForKey(key, waiting));
        if (it->isEmpty())
            return;
        GpuSummary s;
        s.meanUtilPercent = *m.utilPercent;
        s.meanMemUsedMiB = m.memUsedMiB.value_or(-1);
        s.points = 1;
        byJob[waiting.value(*it)].append(s);
    };
    for (const Node &node : nodes)
        for (const Gpu &gpu : node.gpus) {
            if (gpu.migInstances.isEmpty()) {
                add(gpu.jobId, gpu.metrics);
                continue;
            }
            for (const MigInstance &mig : gpu.migInstances)
                add(mig.jobId, mig.metrics);
        }

    for (auto it = byJob.cbegin(); it != byJob.cend(); ++it) {
        Job &job = jobs[it.key()];
        const QVector<GpuSummary> &summaries = it.value();
        double sum = 0, lowest = std::numeric_limits<double>::max(), memSum = 0;
        int memGpus = 0;
        for (const GpuSummary &s : summaries) {
            sum += s.meanUtilPercent;
            lowest = std::min(lowest, s.meanUtilPercent);
            if (s.meanMemUsedMiB >= 0) {
                memSum += s.meanMemUsedMiB;
                ++memGpus;
            }
        }
        job.gpuUtilMean = sum / summaries.size();
        job.gpuUtilMin = lowest;
        job.gpuUtilBasis = QStringLiteral("current");
        if (memGpus > 0)
            job.gpuMemUsedMeanMiB = memSum / memGpus;
        const int held = job.gpuCountHeld() > 0 ? job.gpuCountHeld() : job.gpusRequested;
        job.efficiencyVerdict = verdict(held, summaries, t)
            + QStringLiteral(" (latest readings: no usage history since the job started yet)");
    }
}

} // namespace strata
