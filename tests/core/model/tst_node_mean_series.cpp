#include "model/node_mean_series.h"

#include <QTest>

#include <cmath>

using namespace strata;

Q_DECLARE_METATYPE(QVector<strata::TimeSeries>)

namespace {

const double kGap = std::nan("");

TimeSeries series(const QString &label, const QVector<QPointF> &points)
{
    return TimeSeries{label, points};
}

// "node: y@x y@x ..." with "-" for a NaN, for readable expectations.
QString render(const QVector<TimeSeries> &lines)
{
    QStringList out;
    for (const TimeSeries &line : lines) {
        QStringList points;
        for (const QPointF &p : line.points)
            points << (std::isnan(p.y()) ? QStringLiteral("-@%1").arg(p.x()) : QStringLiteral("%1@%2").arg(p.y()).arg(p.x()));
        out << line.label + QStringLiteral(": ") + points.join(QLatin1Char(' '));
    }
    return out.join(QStringLiteral(" | "));
}

} // namespace

class TestNodeMeanSeries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void meanPerNode_data();
    void meanPerNode();
    void nodeCount();
};

void TestNodeMeanSeries::meanPerNode_data()
{
    QTest::addColumn<QVector<TimeSeries>>("perGpu");
    QTest::addColumn<QString>("expected");

    QTest::newRow("two nodes of two GPUs: the straggler's mean stands apart")
        << QVector<TimeSeries>{series("gpu-node01:0", {{1000, 90}, {2000, 94}}),
                               series("gpu-node01:1", {{1000, 96}, {2000, 98}}),
                               series("gpu-node03:0", {{1000, 40}, {2000, 30}}),
                               series("gpu-node03:1", {{1000, 50}, {2000, 34}})}
        << "gpu-node01: 93@1000 96@2000 | gpu-node03: 45@1000 32@2000";
    QTest::newRow("a GPU's gap: the mean of those with a value")
        << QVector<TimeSeries>{series("n1:0", {{1000, 80}, {2000, kGap}}), series("n1:1", {{1000, 60}, {2000, 70}})}
        << "n1: 70@1000 70@2000";
    QTest::newRow("every GPU of the node silent: the gap stays a gap")
        << QVector<TimeSeries>{series("n1:0", {{1000, 80}, {2000, kGap}, {3000, 10}}),
                               series("n1:1", {{1000, 60}, {2000, kGap}, {3000, 30}})}
        << "n1: 70@1000 -@2000 20@3000";
    QTest::newRow("times differ between GPUs: their union, ascending")
        << QVector<TimeSeries>{series("n1:0", {{1000, 10}, {3000, 30}}), series("n1:1", {{2000, 20}})}
        << "n1: 10@1000 20@2000 30@3000";
    QTest::newRow("one node's chart (labels are GPU indices): one line named by the label")
        << QVector<TimeSeries>{series("3", {{1000, 10}})} << "3: 10@1000";
    QTest::newRow("nodes keep the order of their first GPU")
        << QVector<TimeSeries>{series("b:0", {{1000, 1}}), series("a:0", {{1000, 2}}), series("b:1", {{1000, 3}})}
        << "b: 2@1000 | a: 2@1000";
    QTest::newRow("a node name with a colon: only the last one splits")
        << QVector<TimeSeries>{series("rack1:n7:2", {{1000, 5}})} << "rack1:n7: 5@1000";
    QTest::newRow("no series: no lines") << QVector<TimeSeries>{} << "";
}

void TestNodeMeanSeries::meanPerNode()
{
    QFETCH(QVector<TimeSeries>, perGpu);
    QFETCH(QString, expected);
    QCOMPARE(render(NodeMeanSeries::meanPerNode(perGpu)), expected);
}

void TestNodeMeanSeries::nodeCount()
{
    QCOMPARE(NodeMeanSeries::nodeCount({series("a:0", {}), series("a:1", {}), series("b:0", {})}), 2);
    QCOMPARE(NodeMeanSeries::nodeCount({series("0", {}), series("1", {})}), 0); // one node's chart: names none
    QCOMPARE(NodeMeanSeries::nodeCount({}), 0);
}

QTEST_GUILESS_MAIN(TestNodeMeanSeries)
#include "tst_node_mean_series.moc"
