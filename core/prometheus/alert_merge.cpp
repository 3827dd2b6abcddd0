#include "alert_merge.h"

namespace strata::AlertMerge {

bool carriesLabels(const PrometheusAlert &wider, const PrometheusAlert &narrower)
{
    // Both are sorted by name (the parsers sort them): one merge-like pass.
    qsizetype w = 0;
    for (const auto &[name, value] : narrower.labels) {
        while (w < wider.labels.size() && wider.labels[w].first < name)
            ++w;
        if (w == wider.labels.size() || wider.labels[w].first != name || wider.labels[w].second != value)
            return false;
    }
    return true;
}

QVector<PrometheusAlert> merge(const QVector<PrometheusAlert> &prometheus, const QVector<PrometheusAlert> &alertmanager)
{
    QVector<PrometheusAlert> out = prometheus;
    QVector<bool> matched(alertmanager.size(), false);
    for (PrometheusAlert &a : out) {
        for (qsizetype i = 0; i < alertmanager.size(); ++i) {
            const PrometheusAlert &m = alertmanager[i];
            if (matched[i] || m.name != a.name || !carriesLabels(m, a))
                continue;
            matched[i] = true;
            a.silenced = m.silenced;
            a.silencedBy = m.silencedBy;
            a.inhibited = m.inhibited;
            a.fingerprint = m.fingerprint;
            break;
        }
    }
    for (qsizetype i = 0; i < alertmanager.size(); ++i)
        if (!matched[i])
            out << alertmanager[i];
    return out;
}

} // namespace strata::AlertMerge
