#include "job_link_errors.h"

#include "host_name_resolver.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace strata::JobLinkErrors {

const QVector<Counter> &counters()
{
    static const QVector<Counter> all{
        {QStringLiteral("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"), LinkKind::NvLink, QStringLiteral("NVLink CRC flit errors")},
        {QStringLiteral("DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL"), LinkKind::NvLink, QStringLiteral("NVLink CRC data errors")},
        {QStringLiteral("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL"), LinkKind::NvLink, QStringLiteral("NVLink replays")},
        {QStringLiteral("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL"), LinkKind::NvLink, QStringLiteral("NVLink recoveries")},
        {QStringLiteral("node_infiniband_link_downed_total"), LinkKind::InfiniBand, QStringLiteral("InfiniBand link downs")},
        {QStringLiteral("node_infiniband_link_error_recovery_total"), LinkKind::InfiniBand, QStringLiteral("InfiniBand link error recoveries")},
        {QStringLiteral("node_infiniband_symbol_error_total"), LinkKind::InfiniBand, QStringLiteral("InfiniBand symbol errors")},
        {QStringLiteral("node_infiniband_local_link_integrity_errors_total"), LinkKind::InfiniBand, QStringLiteral("InfiniBand local link integrity errors")},
        {QStringLiteral("node_infiniband_port_errors_received_total"), LinkKind::InfiniBand, QStringLiteral("InfiniBand receive errors")},
    };
    return all;
}

QVector<LinkCounterSeries> fromResponse(const PrometheusResponse &response, const QString &counter, const QString &hostLabel)
{
    QVector<LinkCounterSeries> out;
    if (!response.ok)
        return out;
    out.reserve(response.series.size());
    for (const PrometheusSeries &s : response.series) {
        LinkCounterSeries c;
        c.counter = counter;
        c.hosts = HostNameResolver::candidates(s, hostLabel);
        const QString gpu = s.label(u"gpu");
        const QString device = s.label(u"device");
        const QString port = s.label(u"port");
        if (!gpu.isEmpty())
            c.where = QStringLiteral("GPU %1").arg(gpu);
        else if (!device.isEmpty())
            c.where = port.isEmpty() ? device : QStringLiteral("%1 port %2").arg(device, port);
        c.samples.reserve(s.samples.size());
        for (const PrometheusSample &p : s.samples)
            if (std::isfinite(p.value))
                c.samples.append(LinkCounterSample{qint64(p.time), p.value});
        out << c;
    }
    return out;
}

double increase(const QVector<LinkCounterSample> &samples, qint64 from, qint64 to)
{
    double total = 0;
    bool have = false;
    double last = 0;
    for (const LinkCounterSample &p : samples) {
        if (p.time < from || p.time > to)
            continue;
        if (have)
            total += p.value >= last ? p.value - last : p.value; // a drop: the counter was reset
        last = p.value;
        have = true;
    }
    return total;
}

namespace {

struct Rise
{
    double increase = 0;
    QStringList where;
};

QString count(double v)
{
    return QString::number(v, 'f', v == std::floor(v) ? 0 : 1);
}

} // namespace

QVector<Finding> find(const QVector<Job> &jobs, const QVector<LinkCounterSeries> &series, const QVector<int> &seriesNode,
                      const QHash<QString, int> &nodeIndexByName, qint64 now)
{
    QVector<Finding> findings;
    QHash<QString, QString> description;
    for (const Counter &c : counters())
        description.insert(c.name, c.description);
    QHash<int, QVector<int>> seriesOfNode;
    for (int i = 0; i < series.size(); ++i)
        if (const int node = seriesNode.value(i, -1); node >= 0)
            seriesOfNode[node] << i;
    for (const Job &job : jobs) {
        if (!job.isRunning() || job.nodes.size() < 2 || job.startTime <= 0)
            continue;
        for (const QString &node : job.nodes) {
            const int index = nodeIndexByName.value(node, -1);
            if (index < 0)
                continue;
            QMap<QString, Rise> byCounter; // sorted by counter: stable messages
            for (int i : seriesOfNode.value(index)) {
                const LinkCounterSeries &s = series[i];
                const double rise = increase(s.samples, job.startTime, now);
                if (rise <= 0)
                    continue;
                Rise &r = byCounter[s.counter];
                r.increase += rise;
                if (!s.where.isEmpty())
                    r.where << QStringLiteral("%1 +%2").arg(s.where, count(rise));
            }
            for (auto it = byCounter.cbegin(); it != byCounter.cend(); ++it) {
                Finding f = Finding::make(
                    Finding::Severity::Warning, node, -1, findingCode(),
                    QStringLiteral("job %1 (%2): %3 on %4 rose by %5 (%6%7) since the job started: a link that "
                                   "retries slows every step of a synchronous job while its GPUs look busy. "
                                   "Drain %4 when the job ends, or run a fabric test on the job's nodes")
                        .arg(job.id, job.name, description.value(it.key(), it.key()), node, count(it.value().increase), it.key())
                        .arg(it.value().where.isEmpty() ? QString() : QStringLiteral("; ") + it.value().where.join(QLatin1String(", "))));
                f.job = job.id;
                f.jobs = {job.id};
                findings << f;
            }
        }
    }
    std::sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        return std::tie(a.job, a.node, a.message) < std::tie(b.job, b.node, b.message);
    });
    return findings;
}

} // namespace strata::JobLinkErrors
