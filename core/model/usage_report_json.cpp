#include "usage_report_json.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace strata {

namespace {

QJsonValue orNull(double value)
{
    return value < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

QJsonValue timeOrNull(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODate)) : QJsonValue(QJsonValue::Null);
}

QJsonValue textOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

} // namespace

QJsonObject UsageReportJson::figuresToJson(const UsageReport::Figures &f)
{
    return {{QLatin1String("jobs"), f.jobs},
            {QLatin1String("jobsMeasured"), f.jobsMeasured},
            {QLatin1String("gpuHoursAllocated"), f.allocated},
            {QLatin1String("gpuHoursUsed"), f.used()},
            {QLatin1String("gpuHoursIdle"), f.idle},
            {QLatin1String("gpuHoursUnmeasured"), f.unmeasured()},
            {QLatin1String("idlePercent"), f.idleFraction() < 0 ? QJsonValue(QJsonValue::Null)
                                                                : QJsonValue(f.idleFraction() * 100.0)}};
}

QJsonObject UsageReportJson::jobToJson(const JobRecord &r, const HistoryPeriod &period)
{
    const JobEfficiency &e = r.efficiency;
    const bool measured = e.isMeasured();
    return {{QLatin1String("id"), r.id},
            {QLatin1String("name"), r.name},
            {QLatin1String("user"), r.user},
            {QLatin1String("account"), r.account},
            {QLatin1String("partition"), r.partition},
            {QLatin1String("instanceType"), textOrNull(r.instanceType)},
            {QLatin1String("framework"), textOrNull(r.framework)},
            {QLatin1String("state"), r.stateWord},
            {QLatin1String("exitCode"), r.exitCode < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(r.exitCode)},
            {QLatin1String("started"), timeOrNull(r.started)},
            {QLatin1String("ended"), timeOrNull(r.ended)},
            {QLatin1String("gpus"), r.gpus},
            {QLatin1String("gpuModel"), textOrNull(r.gpuModel)},
            {QLatin1String("gpuHoursAllocated"), r.gpuHours(period)},
            {QLatin1String("gpuHoursMeasured"), measured ? QJsonValue(e.gpuHoursMeasured) : QJsonValue(QJsonValue::Null)},
            {QLatin1String("gpuHoursIdle"), measured ? QJsonValue(e.gpuHoursIdle) : QJsonValue(QJsonValue::Null)},
            {QLatin1String("utilMeanPercent"), orNull(e.utilMeanPercent)},
            {QLatin1String("memPeakMiB"), orNull(e.memPeakMiB)},
            {QLatin1String("powerMeanW"), orNull(e.powerMeanW)},
            {QLatin1String("basis"), UsageReport::basisName(e.basis)},
            {QLatin1String("why"), textOrNull(e.why)}};
}

QJsonObject UsageReportJson::toJson(const UsageReport &report)
{
    QJsonArray groups;
    for (const UsageReport::Group &g : report.groups) {
        QJsonObject o = figuresToJson(g.figures);
        o.insert(QLatin1String("key"), g.key);
        groups.append(o);
    }
    QJsonArray weeks;
    for (const UsageReport::Week &w : report.weeks) {
        QJsonObject o = figuresToJson(w.figures);
        o.insert(QLatin1String("start"), timeOrNull(w.start));
        o.insert(QLatin1String("end"), timeOrNull(w.end));
        weeks.append(o);
    }
    QJsonArray wasteful;
    for (const UsageReport::WastefulJob &j : report.wasteful)
        wasteful.append(jobToJson(j.record, report.period));
    return {{QLatin1String("schema"), QStringLiteral("strata.report/1")},
            {QLatin1String("period"), QJsonObject{{QLatin1String("start"), timeOrNull(report.period.start)},
                                                  {QLatin1String("end"), timeOrNull(report.period.end)}}},
            {QLatin1String("groupedBy"), UsageReport::groupingName(report.grouping)},
            {QLatin1String("groups"), groups},
            {QLatin1String("total"), figuresToJson(report.total)},
            {QLatin1String("jobsOutsidePeriod"), report.jobsOutside},
            {QLatin1String("weeks"), weeks},
            {QLatin1String("wasteful"), wasteful}};
}

void UsageReportJson::write(const UsageReport &report, const QVector<JobRecord> *jobs,
                            const std::function<void(const QByteArray &)> &sink)
{
    QByteArray head = QJsonDocument(toJson(report)).toJson(QJsonDocument::Indented);
    if (!jobs) {
        sink(head);
        return;
    }
    // "...\n}\n": the object's last member ends before the closing brace; the jobs go after it.
    head.chop(3);
    head.append(",\n    \"jobs\": [");
    sink(head);
    QByteArray chunk;
    bool first = true;
    for (const JobRecord &r : *jobs) {
        if (r.gpuHours(report.period) <= 0)
            continue;
        chunk.append(first ? "\n        " : ",\n        ");
        first = false;
        chunk.append(QJsonDocument(jobToJson(r, report.period)).toJson(QJsonDocument::Compact));
        if (chunk.size() >= (1 << 20)) {
            sink(chunk);
            chunk.clear();
        }
    }
    chunk.append(first ? "]\n}\n" : "\n    ]\n}\n");
    sink(chunk);
}

} // namespace strata
