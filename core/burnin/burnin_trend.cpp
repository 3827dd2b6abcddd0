#include "burnin_trend.h"

#include "burnin_report.h"

#include <QHash>
#include <QJsonObject>

#include <algorithm>

namespace strata {

namespace {

QJsonValue optional(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

std::optional<double> changeOf(const QVector<BurninTrendPoint> &points, std::optional<double> BurninTrendPoint::*member)
{
    QVector<double> values;
    for (const BurninTrendPoint &p : points)
        if (p.*member)
            values << *(p.*member);
    return BurninTrend::fittedChangePct(values);
}

} // namespace

int BurninGpuTrend::failedRuns() const
{
    return int(std::count_if(points.begin(), points.end(), [](const BurninTrendPoint &p) { return !p.passed; }));
}

std::optional<double> BurninTrend::fittedChangePct(const QVector<double> &values)
{
    const qsizetype n = values.size();
    if (n < 2)
        return std::nullopt;
    double sumX = 0, sumY = 0, sumXX = 0, sumXY = 0;
    for (qsizetype i = 0; i < n; ++i) {
        sumX += double(i);
        sumY += values[i];
        sumXX += double(i) * double(i);
        sumXY += double(i) * values[i];
    }
    const double slope = (double(n) * sumXY - sumX * sumY) / (double(n) * sumXX - sumX * sumX);
    const double intercept = (sumY - slope * sumX) / double(n);
    if (intercept <= 0)
        return std::nullopt;
    return 100.0 * slope * double(n - 1) / intercept;
}

QVector<BurninGpuTrend> BurninTrend::build(const QVector<BurninHistoryRecord> &records)
{
    QVector<BurninGpuTrend> trends;
    QHash<QString, qsizetype> byGpu;                 // key -> index in trends
    QHash<QString, qsizetype> byRun;                 // key + run -> index in its points
    for (const BurninHistoryRecord &r : records) {
        const QString key = r.gpuUuid.isEmpty() ? QStringLiteral("%1/%2").arg(r.node).arg(r.gpuIndex) : r.gpuUuid;
        auto g = byGpu.constFind(key);
        if (g == byGpu.constEnd()) {
            BurninGpuTrend t;
            t.node = r.node;
            t.gpu = r.gpuIndex;
            t.uuid = r.gpuUuid;
            t.model = r.model;
            trends.append(t);
            g = byGpu.insert(key, trends.size() - 1);
        }
        BurninGpuTrend &trend = trends[*g];
        const QString runKey = key + QLatin1Char('\n') + r.runId;
        auto p = byRun.constFind(runKey);
        if (p == byRun.constEnd()) {
            BurninTrendPoint point;
            point.runId = r.runId;
            point.jobId = r.jobId;
            point.time = r.time;
            point.backend = r.backend;
            trend.points.append(point);
            p = byRun.insert(runKey, trend.points.size() - 1);
        }
        BurninTrendPoint &point = trend.points[*p];
        if (r.time.isValid() && (!point.time.isValid() || r.time < point.time))
            point.time = r.time;
        if (r.verdict == QLatin1String("fail"))
            point.passed = false;
        if (r.figure && r.test == QLatin1String("gemm"))
            point.tflops = *r.figure * BurninReport::scaleOf(r.test);
        else if (r.figure && r.test == QLatin1String("hbm"))
            point.bandwidthGBps = *r.figure * BurninReport::scaleOf(r.test);
    }
    for (BurninGpuTrend &t : trends) {
        std::stable_sort(t.points.begin(), t.points.end(),
                         [](const BurninTrendPoint &a, const BurninTrendPoint &b) { return a.time < b.time; });
        t.tflopsChangePct = changeOf(t.points, &BurninTrendPoint::tflops);
        t.bandwidthChangePct = changeOf(t.points, &BurninTrendPoint::bandwidthGBps);
    }
    std::sort(trends.begin(), trends.end(), [](const BurninGpuTrend &a, const BurninGpuTrend &b) {
        return a.node != b.node ? a.node < b.node : a.gpu != b.gpu ? a.gpu < b.gpu : a.uuid < b.uuid;
    });
    return trends;
}

QJsonArray BurninTrend::toJson(const QVector<BurninGpuTrend> &trends)
{
    QJsonArray gpus;
    for (const BurninGpuTrend &t : trends) {
        QJsonArray runs;
        for (const BurninTrendPoint &p : t.points)
            runs.append(QJsonObject{{QLatin1String("runId"), p.runId},
                                    {QLatin1String("jobId"), p.jobId},
                                    {QLatin1String("time"), p.time.toUTC().toString(Qt::ISODate)},
                                    {QLatin1String("backend"), p.backend},
                                    {QLatin1String("passed"), p.passed},
                                    {QLatin1String("tflops"), optional(p.tflops)},
                                    {QLatin1String("bandwidthGBps"), optional(p.bandwidthGBps)}});
        gpus.append(QJsonObject{{QLatin1String("node"), t.node},
                                {QLatin1String("gpu"), t.gpu},
                                {QLatin1String("uuid"), t.uuid},
                                {QLatin1String("model"), t.model},
                                {QLatin1String("failedRuns"), t.failedRuns()},
                                {QLatin1String("tflopsChangePct"), optional(t.tflopsChangePct)},
                                {QLatin1String("bandwidthChangePct"), optional(t.bandwidthChangePct)},
                                {QLatin1String("runs"), runs}});
    }
    return gpus;
}

} // namespace strata
