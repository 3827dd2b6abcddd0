#include "charts/gpu_history_loader.h"
#include "charts/gpu_time_series_chart.h"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QFuture>
#include <QLineSeries>
#include <QPromise>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace strata;

namespace {

// Answers range() with what the test prepared, immediately or when told to.
class FakeHistory : public MetricHistory
{
public:
    QFuture<Result> range(const MetricHistoryRequest &request) override
    {
        requests << request;
        auto promise = std::make_shared<QPromise<Result>>();
        promise->start();
        pending << promise;
        return promise->future();
    }
    void answer(int index, const Result &result)
    {
        pending[index]->addResult(result);
        pending[index]->finish();
    }
    QVector<MetricHistoryRequest> requests;
    QVector<std::shared_ptr<QPromise<Result>>> pending;
};

TimeSeries series(const QString &label, const QVector<double> &values)
{
    TimeSeries ts;
    ts.label = label;
    for (int i = 0; i < values.size(); ++i)
        ts.points << QPointF(1.7e12 + i * 15000.0, values[i]);
    return ts;
}

} // namespace

class TestGpuTimeSeriesChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gapsSplitALineButKeepOneLegendEntry()
    {
        GpuTimeSeriesChart chart;
        chart.setSeries(ChartMetric::Utilisation,
                        {series(QStringLiteral("0"), {10, 20, std::nan(""), 40, 50}),
                         series(QStringLiteral("1"), {90, 91, 92, 93, 94})});
        QVERIFY(chart.message().isEmpty());
        QCOMPARE(chart.seriesCount(), 2); // named lines: one per GPU
        QCOMPARE(chart.chart()->series().size(), 3); // GPU 0 drawn in two pieces around the gap
        const auto *first = static_cast<QLineSeries *>(chart.chart()->series().at(0));
        const auto *second = static_cast<QLineSeries *>(chart.chart()->series().at(1));
        QCOMPARE(first->count(), 2);
        QCOMPARE(second->count(), 2);
        QCOMPARE(first->color(), second->color());
    }

    // Issue 27: a job's chart over several nodes offers one line per node (the mean of its
    // GPUs), and the straggler's node is drawn apart.
    void perNodeLinesSetTheStragglerApart()
    {
        GpuTimeSeriesChart chart;
        auto *perNode = chart.findChild<QCheckBox *>(QStringLiteral("chartPerNode"));
        QVERIFY(perNode);
        chart.setSeries(ChartMetric::Utilisation, {series(QStringLiteral("0"), {10}), series(QStringLiteral("1"), {20})});
        QVERIFY(perNode->isHidden()); // one node's chart: nothing to group
        const QVector<TimeSeries> job = {series(QStringLiteral("gpu-node01:0"), {90, 92}),
                                         series(QStringLiteral("gpu-node01:1"), {94, 96}),
                                         series(QStringLiteral("gpu-node03:0"), {30, 40}),
                                         series(QStringLiteral("gpu-node03:1"), {50, 60})};
        chart.setEmphasis({QStringLiteral("gpu-node03")}, QStringLiteral("straggler"));
        chart.setSeries(ChartMetric::Utilisation, job);
        QVERIFY(!perNode->isHidden());
        QCOMPARE(chart.seriesCount(), 4); // per GPU until asked
        const auto lineNamed = [&chart](const QString &name) -> QLineSeries * {
            for (QAbstractSeries *s : chart.chart()->series())
                if (s->name() == name)
                    return static_cast<QLineSeries *>(s);
            return nullptr;
        };
        QVERIFY(lineNamed(QStringLiteral("gpu-node03:1")));
        QCOMPARE(lineNamed(QStringLiteral("gpu-node03:1"))->pen().widthF(), 3.0); // its GPUs heavier
        QCOMPARE(lineNamed(QStringLiteral("gpu-node01:0"))->pen().widthF(), 1.2);

        perNode->setChecked(true);
        QCOMPARE(chart.seriesCount(), 2);
        QLineSeries *slow = lineNamed(QStringLiteral("gpu-node03 (straggler)"));
        QLineSeries *fast = lineNamed(QStringLiteral("gpu-node01"));
        QVERIFY(slow);
        QVERIFY(fast);
        QCOMPARE(slow->count(), 2);
        QCOMPARE(slow->at(0).y(), 40.0); // mean of 30 and 50
        QCOMPARE(slow->at(1).y(), 50.0);
        QCOMPARE(fast->at(1).y(), 94.0);
        QCOMPARE(slow->pen().widthF(), 3.0);
        QCOMPARE(slow->color(), QColor(0xd6, 0x27, 0x28));
        QVERIFY(fast->color() != slow->color());

        chart.setSeries(ChartMetric::Utilisation, job); // a reload keeps the choice
        QCOMPARE(chart.seriesCount(), 2);
        chart.setEmphasis({}, QString());
        QVERIFY(lineNamed(QStringLiteral("gpu-node03")));
        QCOMPARE(lineNamed(QStringLiteral("gpu-node03"))->pen().widthF(), 2.0);
    }

    void nothingToDrawIsSaid()
    {
        GpuTimeSeriesChart chart;
        chart.setSeries(ChartMetric::Temperature, {});
        QVERIFY(chart.message().contains(QStringLiteral("No Temperature")));
        chart.setSeries(ChartMetric::Power, {series(QStringLiteral("0"), {std::nan(""), std::nan("")})});
        QVERIFY(chart.message().contains(QStringLiteral("No Power")));
        chart.setUnavailable(QStringLiteral("Metrics unavailable: no Prometheus"));
        QCOMPARE(chart.message(), QStringLiteral("Metrics unavailable: no Prometheus"));
    }

    void loaderAsksAgainAndDropsStaleAnswers()
    {
        GpuTimeSeriesChart chart;
        GpuHistoryLoader loader(&chart);
        FakeHistory history;
        loader.setHistory(nullptr, QStringLiteral("Metrics unavailable: test"));
        QCOMPARE(chart.message(), QStringLiteral("Metrics unavailable: test"));
        loader.setHistory(&history, {});
        loader.setTargets({{QStringLiteral("gpu-node01"), {}}});
        QCOMPARE(history.requests.size(), 1);
        QCOMPARE(history.requests[0].node, QStringLiteral("gpu-node01"));
        QCOMPARE(history.requests[0].metric, ChartMetric::Utilisation);
        QCOMPARE(history.requests[0].start.secsTo(history.requests[0].end), chart.windowSeconds());
        QVERIFY(chart.message().startsWith(QStringLiteral("Loading")));

        // Another metric picked before the first answer: the first answer must not show.
        chart.findChild<QComboBox *>(QStringLiteral("chartMetric"))->setCurrentIndex(1);
        QCOMPARE(history.requests.size(), 2);
        QCOMPARE(history.requests[1].metric, ChartMetric::Temperature);
        history.answer(0, {{series(QStringLiteral("0"), {1, 2, 3})}, {}});
        QTest::qWait(10);
        QVERIFY(chart.message().startsWith(QStringLiteral("Loading")));
        history.answer(1, {{series(QStringLiteral("0"), {40, 41}), series(QStringLiteral("1"), {50, 51})}, {}});
        QTRY_COMPARE(chart.seriesCount(), 2);

        // A failed query says why.
        chart.findChild<QComboBox *>(QStringLiteral("chartWindow"))->setCurrentIndex(0);
        history.answer(2, {{}, QStringLiteral("Prometheus at http://x not reachable")});
        QTRY_VERIFY(chart.message().contains(QStringLiteral("not reachable")));
    }

    // A job's chart offers the application's figures: one request for the job (not per GPU),
    // one line, and a plain note when its application reports nothing.
    void jobChartShowsTheApplicationsFigures()
    {
        GpuTimeSeriesChart chart;
        GpuHistoryLoader loader(&chart);
        FakeHistory history;
        auto *picker = chart.findChild<QComboBox *>(QStringLiteral("chartMetric"));
        QCOMPARE(picker->count(), ChartMetric::all().size()); // a node's chart: GPU figures only
        chart.setMetrics(ChartMetric::forJobs());
        QCOMPARE(picker->count(), ChartMetric::all().size() + 3);
        loader.setHistory(&history, {});
        loader.setJob(QStringLiteral("4242"));
        loader.setTargets({{QStringLiteral("gpu-node01"), {0, 1}}, {QStringLiteral("gpu-node02"), {0, 1}}});
        QCOMPARE(history.requests.size(), 2); // utilisation: one per node
        picker->setCurrentIndex(picker->findData(int(ChartMetric::AppTokens)));
        QCOMPARE(history.requests.size(), 3);
        QCOMPARE(history.requests[2].metric, ChartMetric::AppTokens);
        QCOMPARE(history.requests[2].jobId, QStringLiteral("4242"));
        history.answer(2, {{series(QStringLiteral("tokens"), {470, 480, 300})}, {}});
        QTRY_COMPARE(chart.seriesCount(), 1);

        picker->setCurrentIndex(picker->findData(int(ChartMetric::AppStep)));
        QCOMPARE(history.requests.last().metric, ChartMetric::AppStep);
        history.answer(int(history.requests.size()) - 1, {{}, {}});
        QTRY_VERIFY2(chart.message().contains(QStringLiteral("reports no Application: step time")), qPrintable(chart.message()));
    }
};

QTEST_MAIN(TestGpuTimeSeriesChart)
#include "tst_gpu_time_series_chart.moc"
