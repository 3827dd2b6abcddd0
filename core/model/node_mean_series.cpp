#include "node_mean_series.h"

#include <QHash>
#include <QMap>
#include <QSet>
#include <QStringList>

#include <cmath>

namespace strata::NodeMeanSeries {

QString nodeOf(const TimeSeries &series)
{
    const qsizetype colon = series.label.lastIndexOf(QLatin1Char(':'));
    return colon > 0 ? series.label.left(colon) : series.label;
}

int nodeCount(const QVector<TimeSeries> &perGpu)
{
    QSet<QString> nodes;
    for (const TimeSeries &s : perGpu)
        if (s.label.lastIndexOf(QLatin1Char(':')) > 0)
            nodes.insert(nodeOf(s));
    return int(nodes.size());
}

QVector<TimeSeries> meanPerNode(const QVector<TimeSeries> &perGpu)
{
    struct Sum
    {
        double total = 0;
        int count = 0;
    };
    QStringList order;
    QHash<QString, QMap<double, Sum>> byNode; // node -> time -> sum of its GPUs' values there
    for (const TimeSeries &s : perGpu) {
        const QString node = nodeOf(s);
        auto it = byNode.find(node);
        if (it == byNode.end()) {
            order << node;
            it = byNode.insert(node, {});
        }
        for (const QPointF &p : s.points) {
            Sum &sum = (*it)[p.x()];
            if (!std::isnan(p.y())) {
                sum.total += p.y();
                ++sum.count;
            }
        }
    }
    QVector<TimeSeries> out;
    out.reserve(order.size());
    for (const QString &node : std::as_const(order)) {
        TimeSeries line;
        line.label = node;
        const QMap<double, Sum> &times = byNode[node];
        line.points.reserve(times.size());
        for (auto t = times.cbegin(); t != times.cend(); ++t)
            line.points.append(QPointF(t.key(), t->count ? t->total / t->count : std::nan("")));
        out.append(line);
    }
    return out;
}

} // namespace strata::NodeMeanSeries
