#include "burnin_fleet.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::BurninFleet {

namespace {

QString engineOf(const BurninHistoryRecord &r)
{
    if (r.figuresJson.isEmpty())
        return {};
    return QJsonDocument::fromJson(r.figuresJson).object().value(QLatin1String("engine")).toString();
}

} // namespace

QVector<double> peerFigures(const QVector<BurninHistoryRecord> &records, const QString &backend, const QString &engine,
                            const QString &excludeUuid, const QString &excludeJobId)
{
    QHash<QString, double> latest; // records come oldest first: the last one per GPU stays
    for (const BurninHistoryRecord &r : records) {
        if (!r.figure || r.verdict == QLatin1String("skip") || r.gpuUuid.isEmpty() || r.gpuUuid == excludeUuid
            || (!excludeJobId.isEmpty() && r.jobId == excludeJobId) || r.backend != backend || engineOf(r) != engine)
            continue;
        latest.insert(r.gpuUuid, *r.figure);
    }
    QVector<double> figures;
    figures.reserve(latest.size());
    for (auto it = latest.constBegin(); it != latest.constEnd(); ++it)
        figures << it.value();
    return figures;
}

QString compare(BurninVerdict &verdict, const BurninHistory &history, const QString &jobId, const FleetRule &rule)
{
    QHash<QString, QVector<BurninHistoryRecord>> byModelTest;
    for (BurninGpuVerdict &g : verdict.gpus) {
        for (BurninTestVerdict &t : g.tests) {
            if (!t.figure || t.skipped)
                continue;
            const QString key = g.model + QLatin1Char('\n') + t.test;
            auto it = byModelTest.find(key);
            if (it == byModelTest.end()) {
                QVector<BurninHistoryRecord> records;
                const QString error = history.recordsForModel(g.model, t.test, &records);
                if (!error.isEmpty())
                    return error;
                it = byModelTest.insert(key, records);
            }
            t.fleet = compareWithFleet(*t.figure, peerFigures(*it, g.backend, t.engine, g.uuid, jobId), true, rule);
            if (t.fleet->standing == FleetComparison::Standing::Outlier)
                g.notes << QStringLiteral("%1 GPU %2 %3%4: an outlier in the fleet of %5: %6")
                               .arg(g.node)
                               .arg(g.gpu)
                               .arg(t.test, t.engine.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(t.engine),
                                    g.model.isEmpty() ? QStringLiteral("%1 devices").arg(g.backend) : g.model,
                                    t.fleet->explanation);
        }
    }
    return {};
}

} // namespace strata::BurninFleet
