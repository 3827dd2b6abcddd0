#include "health_series_reader.h"

#include "prometheus/prometheus_response.h"

#include <QTimeZone>

#include <cmath>

namespace strata {

namespace HealthSeriesReader {

namespace {

std::optional<double> valueOf(const PrometheusSeries &s)
{
    if (s.samples.isEmpty() || !std::isfinite(s.samples.last().value))
        return std::nullopt;
    return s.samples.last().value;
}

QDateTime timeOf(double seconds)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(std::llround(seconds * 1000.0)), Qt::UTC);
}

} // namespace

QString nodeQuery()
{
    return QStringLiteral("{__name__=~\"strata_node_health_.+\",job=\"strata_repair\"}");
}

QString gpuQuery()
{
    return QStringLiteral("{__name__=~\"strata_gpu_health_.+\",job=\"strata_gpu_record\"}");
}

QHash<QString, NodeHealthRecord> nodeRecords(const QVector<PrometheusSeries> &series)
{
    QHash<QString, NodeHealthRecord> records;
    QHash<QString, int> statesAtOne;
    QHash<QString, QMap<int, QString>> gpus;
    for (const PrometheusSeries &s : series) {
        const QString node = s.label(u"node");
        const std::optional<double> value = valueOf(s);
        if (node.isEmpty() || !value)
            continue;
        const QString name = s.label(u"__name__");
        NodeHealthRecord &r = records[node];
        r.node = node;
        if (name == QLatin1String("strata_node_health_state")) {
            const std::optional<NodeHealthState> state = parseNodeHealthState(s.label(u"state"));
            if (state && *value == 1) {
                r.state = *state;
                ++statesAtOne[node];
            }
        } else if (name == QLatin1String("strata_node_health_since_timestamp_seconds")) {
            r.since = timeOf(*value);
        } else if (name == QLatin1String("strata_node_health_drained_timestamp_seconds")) {
            r.drainedAt = timeOf(*value);
        } else if (name == QLatin1String("strata_node_health_evidence_info")) {
            r.evidenceCode = s.label(u"code");
            r.evidence = s.label(u"evidence");
        } else if (name == QLatin1String("strata_node_health_gpu_info")) {
            bool ok = false;
            const int index = s.label(u"gpu").toInt(&ok);
            if (ok && index >= 0 && index < 1024)
                gpus[node].insert(index, s.label(u"uuid"));
        }
    }
    for (auto it = records.begin(); it != records.end();) {
        if (statesAtOne.value(it.key()) != 1) {
            it = records.erase(it);
            continue;
        }
        const QMap<int, QString> byIndex = gpus.value(it.key());
        if (!byIndex.isEmpty()) {
            it->gpuUuids.resize(byIndex.lastKey() + 1);
            for (auto g = byIndex.begin(); g != byIndex.end(); ++g)
                it->gpuUuids[g.key()] = g.value();
        }
        ++it;
    }
    return records;
}

QHash<QString, GpuHealthRecord> gpuRecords(const QVector<PrometheusSeries> &series)
{
    QHash<QString, GpuHealthRecord> records;
    for (const PrometheusSeries &s : series) {
        const QString uuid = s.label(u"uuid");
        const std::optional<double> value = valueOf(s);
        if (uuid.isEmpty() || !value)
            continue;
        const QString name = s.label(u"__name__");
        GpuHealthRecord &r = records[uuid];
        r.uuid = uuid;
        if (name == QLatin1String("strata_gpu_health_node_info")) {
            r.node = s.label(u"node");
            r.index = s.label(u"gpu").toInt();
        } else if (name == QLatin1String("strata_gpu_health_events") && !s.label(u"event").isEmpty()) {
            r.events[s.label(u"event")] = int(*value);
        } else if (name == QLatin1String("strata_gpu_health_last_event_timestamp_seconds") && !s.label(u"event").isEmpty()) {
            r.lastEvent[s.label(u"event")] = timeOf(*value);
        } else if (name == QLatin1String("strata_gpu_health_burnin_figure") && !s.label(u"test").isEmpty()) {
            r.burninFigures[s.label(u"test")] = *value;
        }
    }
    return records;
}

} // namespace HealthSeriesReader

} // namespace strata
