#include "job_stragglers.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace strata::JobStragglers {

namespace {

double median(QVector<double> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The median absolute deviation scaled to a standard deviation for normal data (x 1.4826).
double robustSpread(const QVector<double> &values, double centre)
{
    QVector<double> deviations;
    deviations.reserve(values.size());
    for (double v : values)
        deviations << std::abs(v - centre);
    return 1.4826 * median(deviations);
}

struct NodeEvidence
{
    int steps = 0;        // steps where the node and another had values
    int lagging = 0;      // of which it lagged
    double ownSum = 0;    // its mean utilisation, summed over the lagging steps
    double othersSum = 0; // the others' median, the same
    int others = 0;       // how many other nodes had values, at most
};

} // namespace

QVector<Finding> find(const QVector<Job> &jobs, const JobUsage::Input &input, const HealthThresholds &t)
{
    QVector<Finding> findings;
    if (!input.series)
        return findings;
    const QVector<GpuUsageSeries> &series = *input.series;
    QHash<int, QString> nodeNames;
    for (auto it = input.nodeIndexByName.cbegin(); it != input.nodeIndexByName.cend(); ++it)
        nodeNames.insert(it.value(), it.key());
    const qint64 window = std::max<qint64>(qint64(t.stragglerWindowMinutes) * 60,
                                           qint64(std::max(1, t.stragglerMinSteps)) * std::max<qint64>(0, input.stepSeconds));

    const QHash<int, QVector<int>> seriesByJob = JobUsage::seriesOfJobs(jobs, input);
    for (auto job = seriesByJob.cbegin(); job != seriesByJob.cend(); ++job) {
        const Job &j = jobs[job.key()];
        const qint64 from = std::max(j.startTime > 0 ? j.startTime : 0, input.now - window);
        // time -> node -> (sum of its GPUs' utilisation, GPUs with a value)
        QMap<qint64, QHash<int, QPair<double, int>>> byStep;
        for (int i : job.value()) {
            const int node = input.seriesNode.value(i, -1);
            if (node < 0)
                continue;
            for (const UsagePoint &p : series[i].points) {
                if (p.time < from || p.time > input.now || p.utilPercent < 0)
                    continue;
                QPair<double, int> &cell = byStep[p.time][node];
                cell.first += p.utilPercent;
                ++cell.second;
            }
        }
        QHash<int, NodeEvidence> evidence;
        for (const auto &step : std::as_const(byStep)) {
            if (step.size() < 2)
                continue;
            QHash<int, double> means;
            for (auto it = step.cbegin(); it != step.cend(); ++it)
                means.insert(it.key(), it.value().first / it.value().second);
            for (auto it = means.cbegin(); it != means.cend(); ++it) {
                QVector<double> others;
                for (auto other = means.cbegin(); other != means.cend(); ++other)
                    if (other.key() != it.key())
                        others << other.value();
                const double centre = median(others);
                const double gapNeeded = std::max(t.stragglerGapPercent, 3 * robustSpread(others, centre));
                NodeEvidence &e = evidence[it.key()];
                ++e.steps;
                e.others = std::max(e.others, int(others.size()));
                if (centre - it.value() >= gapNeeded) {
                    ++e.lagging;
                    e.ownSum += it.value();
                    e.othersSum += centre;
                }
            }
        }
        for (auto it = evidence.cbegin(); it != evidence.cend(); ++it) {
            const NodeEvidence &e = it.value();
            if (e.lagging < t.stragglerMinSteps || e.lagging < t.stragglerLaggingShare * e.steps)
                continue;
            const QString node = nodeNames.value(it.key());
            if (node.isEmpty())
                continue;
            const double own = e.ownSum / e.lagging;
            const double others = e.othersSum / e.lagging;
            Finding f = Finding::make(
                Finding::Severity::Warning, node, -1, findingCode(),
                QStringLiteral("job %1 (%2): %3's GPUs averaged %4 % utilisation while the job's other %5 "
                               "averaged %6 % (median), in %7 of %8 steps of the last %9 min: in a synchronous "
                               "job the slowest node sets the pace of all. Look at its clocks and throttling, "
                               "its NVLink and EFA/InfiniBand counters, or run a fabric test on the job's nodes")
                    .arg(j.id, j.name, node)
                    .arg(qRound(own))
                    .arg(e.others == 1 ? QStringLiteral("node") : QStringLiteral("%1 nodes").arg(e.others))
                    .arg(qRound(others))
                    .arg(e.lagging)
                    .arg(e.steps)
                    .arg((input.now - from + 59) / 60));
            f.job = j.id;
            f.jobs = {j.id};
            findings << f;
        }
    }
    std::sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        return std::tie(a.job, a.node) < std::tie(b.job, b.node);
    });
    return findings;
}

} // namespace strata::JobStragglers
