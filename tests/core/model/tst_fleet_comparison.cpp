// compareWithFleet: a figure against its peers' by median and MAD: an outlier named with its
// distance, a tight fleet that does not call a rounding difference an outlier, too few peers,
// the side that is bad (throughput low, latency high), one broken peer that does not move the
// reference, and figures that are not numbers.
#include "model/fleet_comparison.h"

#include <QTest>

#include <limits>

using namespace strata;

Q_DECLARE_METATYPE(strata::FleetComparison::Standing)

class TestFleetComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void standing_data()
    {
        using S = FleetComparison::Standing;
        QTest::addColumn<double>("value");
        QTest::addColumn<QVector<double>>("peers");
        QTest::addColumn<bool>("higherIsBetter");
        QTest::addColumn<S>("standing");
        QTest::addColumn<double>("robustZ");
        const QVector<double> h200{780, 790, 795, 800, 805, 810, 770, 785, 798, 802}; // median 796.5, MAD 7.5
        QTest::newRow("an outlier: 700 TFLOPS among ~800") << 700.0 << h200 << true << S::Outlier << (700 - 796.5) / (1.4826 * 7.5);
        QTest::newRow("a good GPU: 790") << 790.0 << h200 << true << S::Within << (790 - 796.5) / (1.4826 * 7.5);
        QTest::newRow("fast is never an outlier of throughput") << 900.0 << h200 << true << S::Within << (900 - 796.5) / (1.4826 * 7.5);
        QTest::newRow("latency: slow is high") << 40.0 << QVector<double>{10, 11, 10, 12, 10, 11} << false << S::Outlier
                                               << (40 - 10.5) / (1.4826 * 0.5);
        const QVector<double> tight{400, 400, 400, 400, 400, 400, 400, 400};
        QTest::newRow("a tight fleet, 1 % lower: within") << 396.0 << tight << true << S::Within << -1.0;
        QTest::newRow("a tight fleet, 5 % lower: outlier") << 380.0 << tight << true << S::Outlier << -5.0;
        QTest::newRow("too few peers") << 100.0 << QVector<double>{800, 800, 800, 800} << true << S::TooFewPeers << 0.0;
        QTest::newRow("a broken peer does not move the median") << 700.0 << (h200 + QVector<double>{5.0}) << true << S::Outlier
                                                                << (700 - 795) / (1.4826 * 10.0);
        QTest::newRow("peers that are not numbers are left out")
            << 700.0 << QVector<double>{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 800, 800, 800, 800} << true
            << S::TooFewPeers << 0.0;
        QTest::newRow("a value that is not a number") << std::numeric_limits<double>::quiet_NaN() << h200 << true << S::TooFewPeers << 0.0;
    }

    void standing()
    {
        QFETCH(double, value);
        QFETCH(QVector<double>, peers);
        QFETCH(bool, higherIsBetter);
        QFETCH(FleetComparison::Standing, standing);
        QFETCH(double, robustZ);
        const FleetComparison c = compareWithFleet(value, peers, higherIsBetter);
        QCOMPARE(fleetStandingName(c.standing), fleetStandingName(standing));
        QVERIFY2(std::abs(c.robustZ - robustZ) < 1e-9, qPrintable(QStringLiteral("z %1, expected %2").arg(c.robustZ).arg(robustZ)));
        QVERIFY(!c.explanation.isEmpty());
    }

    void explanationNamesTheDistance()
    {
        const FleetComparison c = compareWithFleet(700, {780, 790, 795, 800, 805, 810, 770, 785, 798, 802}, true);
        QCOMPARE(c.peers, 10);
        QCOMPARE(c.median, 796.5);
        QCOMPARE(c.mad, 7.5);
        QCOMPARE(c.explanation, QStringLiteral("700.0 is 8.7 scaled MADs below the fleet's median 796.5 (88 %, 10 peers)"));
    }
};

QTEST_APPLESS_MAIN(TestFleetComparison)
#include "tst_fleet_comparison.moc"
