#include "metrics_query_plan.h"

#include "dcgm_metric_catalog.h"
#include "host_name_resolver.h"

#include <algorithm>

namespace strata {

MetricsQueryPlan::MetricsQueryPlan(Options options) : m_options(std::move(options)) {}

QStringList MetricsQueryPlan::keptLabels() const
{
    QStringList labels{QStringLiteral("__name__")};
    labels << HostNameResolver::hostLabelNames(m_options.hostLabel);
    labels << QStringLiteral("gpu") << QStringLiteral("UUID") << QStringLiteral("modelName")
           << QStringLiteral("GPU_I_ID") << QStringLiteral("GPU_I_PROFILE") << workloadLabels();
    return labels;
}

QStringList MetricsQueryPlan::workloadLabels()
{
    return {QStringLiteral("hpc_job"), QStringLiteral("pod"), QStringLiteral("namespace"),
            QStringLiteral("exported_pod"), QStringLiteral("exported_namespace")};
}

QString MetricsQueryPlan::byClause(bool withName) const
{
    QStringList labels = keptLabels();
    if (!withName)
        labels.removeFirst();
    return QStringLiteral("max by (%1) ").arg(labels.join(QStringLiteral(", ")));
}

QString MetricsQueryPlan::selector(const QString &nameMatcher) const
{
    QString s = QStringLiteral("{") + nameMatcher;
    if (!m_options.extraMatchers.isEmpty())
        s += QStringLiteral(", ") + m_options.extraMatchers;
    return s + QStringLiteral("}");
}

QString MetricsQueryPlan::gauges() const
{
    return gauges(0, 1);
}

QString MetricsQueryPlan::gauges(int part, int parts) const
{
    const QStringList all = DcgmMetricCatalog::refreshMetricNames();
    parts = std::clamp(parts, 1, int(all.size()));
    part = std::clamp(part, 0, parts - 1);
    QStringList mine;
    for (int i = part; i < all.size(); i += parts)
        mine << all[i];
    const QString names = mine.join(QLatin1Char('|'));
    return byClause(true) + QStringLiteral("(") + selector(QStringLiteral("__name__=~\"%1\"").arg(names))
        + QStringLiteral(")");
}

QString MetricsQueryPlan::pcieReplayIncrease(int windowMinutes) const
{
    return byClause(false)
        + QStringLiteral("(increase(%1[%2m]))")
              .arg(selector(QStringLiteral("__name__=\"DCGM_FI_DEV_PCIE_REPLAY_COUNTER\"")))
              .arg(windowMinutes);
}

QString MetricsQueryPlan::exporterTargets() const
{
    return QStringLiteral("up") + selector(QStringLiteral("job=~\"%1\"").arg(escapeString(m_options.exporterJobRegex)));
}

QString MetricsQueryPlan::usage() const
{
    // No UUID/modelName here: a usage series is keyed by host, GPU index, MIG instance and job.
    // MIG instances have no GPU_UTIL: their GR engine activity stands in, asked only where
    // GPU_I_ID is set, so clusters without MIG pay nothing for it. `or` matches series on
    // their labels without the metric name unless told otherwise: a plain `or` would drop an
    // instance's GR engine series for having the labels of its FB_USED one.
    QStringList labels{QStringLiteral("__name__")};
    labels << HostNameResolver::hostLabelNames(m_options.hostLabel);
    labels << QStringLiteral("gpu") << QStringLiteral("GPU_I_ID") << workloadLabels();
    const QString by = labels.join(QStringLiteral(", "));
    return QStringLiteral("max by (%1) (%2 or on(%1) %3)")
        .arg(by,
             selector(QStringLiteral("__name__=~\"DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED\"")),
             selector(QStringLiteral("__name__=\"DCGM_FI_PROF_GR_ENGINE_ACTIVE\", GPU_I_ID!=\"\"")));
}

MetricsQueryPlan::Range MetricsQueryPlan::usageRange(qint64 oldestStart, qint64 now, int maxPoints,
                                                     int minStepSeconds, qint64 maxWindowSeconds)
{
    Range r;
    if (oldestStart <= 0 || oldestStart >= now || maxPoints < 2 || minStepSeconds < 1)
        return r;
    const qint64 window = std::min(now - oldestStart, maxWindowSeconds);
    r.stepSeconds = std::max<qint64>(minStepSeconds, (window + maxPoints - 2) / (maxPoints - 1));
    r.end = now;
    r.start = now - std::max<qint64>(1, (window + r.stepSeconds - 1) / r.stepSeconds) * r.stepSeconds;
    return r;
}

QString MetricsQueryPlan::escapeString(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == QLatin1Char('\\') || c == QLatin1Char('"'))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

QString MetricsQueryPlan::escapeRegex(const QString &text)
{
    static const QString special = QStringLiteral("\\.+*?()|[]{}^$");
    QString out;
    for (const QChar c : text) {
        if (special.contains(c))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

} // namespace strata
