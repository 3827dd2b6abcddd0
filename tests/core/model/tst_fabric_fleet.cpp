// FabricFleet: a fabric group's all-reduce figure against earlier groups of the same instance
// type, node count, tool, backend, collective and message size: an outlier named with its
// robust-z distance, a tight fleet, too few peers, and peers of another kind left out.
#include "model/fabric_fleet.h"

#include <QTest>

Q_DECLARE_METATYPE(strata::FleetComparison::Standing)

using namespace strata;

namespace {

// "run type nodes busbw [tool backend bytes]" per earlier group.
FabricHistoryRecord row(const QString &spec)
{
    const QStringList f = spec.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    FabricHistoryRecord r;
    r.runId = f.value(0);
    r.instanceType = f.value(1) == QLatin1String("-") ? QString() : f.value(1);
    r.nodeCount = f.value(2).toInt();
    r.busbwGBps = f.value(3).toDouble();
    r.tool = f.value(4, QStringLiteral("nccl-tests"));
    r.backend = f.value(5, QStringLiteral("nccl"));
    r.largestMessageBytes = f.value(6, QStringLiteral("1073741824")).toLongLong();
    r.op = QStringLiteral("all_reduce");
    return r;
}

QVector<FabricHistoryRecord> rows(const QStringList &specs)
{
    QVector<FabricHistoryRecord> out;
    for (const QString &s : specs)
        out << row(s);
    return out;
}

const QStringList kFleet{"r1 p5.48xlarge 4 320", "r2 p5.48xlarge 4 318", "r3 p5.48xlarge 4 325",
                         "r4 p5.48xlarge 4 322", "r5 p5.48xlarge 4 316", "r6 p5.48xlarge 4 321"};

} // namespace

class TestFabricFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compare_data();
    void compare();
};

void TestFabricFleet::compare_data()
{
    QTest::addColumn<QStringList>("history");
    QTest::addColumn<QString>("record");
    QTest::addColumn<FleetComparison::Standing>("standing");
    QTest::addColumn<int>("peers");
    QTest::addColumn<double>("median");
    QTest::addColumn<QString>("explanation"); // a part of it

    QTest::newRow("outlier, named with its distance") << kFleet << "now p5.48xlarge 4 240"
        << FleetComparison::Standing::Outlier << 6 << 320.5 << "outlier, robust z -";
    QTest::newRow("within the fleet") << kFleet << "now p5.48xlarge 4 317"
        << FleetComparison::Standing::Within << 6 << 320.5 << "below the fleet's median 320.5";
    QTest::newRow("faster than the fleet is not an outlier") << kFleet << "now p5.48xlarge 4 400"
        << FleetComparison::Standing::Within << 6 << 320.5 << "above the fleet's median";
    // Six equal figures: MAD 0, the scale floor (1 % of the median) keeps 1 % from being an outlier.
    QTest::newRow("tight fleet, a rounding difference")
        << QStringList{"a p5.48xlarge 4 300", "b p5.48xlarge 4 300", "c p5.48xlarge 4 300", "d p5.48xlarge 4 300", "e p5.48xlarge 4 300"}
        << "now p5.48xlarge 4 298" << FleetComparison::Standing::Within << 5 << 300.0 << "5 peers";
    QTest::newRow("tight fleet, 10 % short")
        << QStringList{"a p5.48xlarge 4 300", "b p5.48xlarge 4 300", "c p5.48xlarge 4 300", "d p5.48xlarge 4 300", "e p5.48xlarge 4 300"}
        << "now p5.48xlarge 4 270" << FleetComparison::Standing::Outlier << 5 << 300.0 << "robust z -10.0";
    QTest::newRow("too few peers") << QStringList{"r1 p5.48xlarge 4 320", "r2 p5.48xlarge 4 318", "r3 p5.48xlarge 4 325", "r4 p5.48xlarge 4 322"}
        << "now p5.48xlarge 4 100" << FleetComparison::Standing::TooFewPeers << 4 << 0.0 << "at least 5 needed";
    QTest::newRow("other types and node counts left out")
        << (QStringList{"x p4d.24xlarge 4 90", "y p4d.24xlarge 4 91", "z p5.48xlarge 2 380", "w p5.48xlarge 8 300", "v p4d.24xlarge 4 92",
                        "u p5.48xlarge 2 381", "t p5.48xlarge 2 379"} + kFleet.mid(0, 4))
        << "now p5.48xlarge 4 240" << FleetComparison::Standing::TooFewPeers << 4 << 0.0 << "4 earlier result(s)";
    QTest::newRow("other tool, backend, size left out")
        << (kFleet + QStringList{"g1 p5.48xlarge 4 1.5 torch.distributed gloo", "g2 p5.48xlarge 4 1.4 nccl-tests gloo",
                                 "g3 p5.48xlarge 4 150 nccl-tests nccl 134217728", "g4 p5.48xlarge 4 150 torch.distributed nccl"})
        << "now p5.48xlarge 4 317" << FleetComparison::Standing::Within << 6 << 320.5 << "6 peers";
    QTest::newRow("the run's own groups are no peers")
        << QStringList{"now p5.48xlarge 4 320", "now p5.48xlarge 4 318", "now p5.48xlarge 4 325", "now p5.48xlarge 4 322", "now p5.48xlarge 4 316"}
        << "now p5.48xlarge 4 240" << FleetComparison::Standing::TooFewPeers << 0 << 0.0 << "0 earlier result(s)";
    QTest::newRow("unknown instance type: no fleet")
        << QStringList{"a - 4 300", "b - 4 300", "c - 4 300", "d - 4 300", "e - 4 300"}
        << "now - 4 100" << FleetComparison::Standing::TooFewPeers << 0 << 0.0 << "instance type is unknown or mixed";
}

void TestFabricFleet::compare()
{
    QFETCH(QStringList, history);
    QFETCH(QString, record);
    QFETCH(FleetComparison::Standing, standing);
    QFETCH(int, peers);
    QFETCH(double, median);
    QFETCH(QString, explanation);
    const FleetComparison c = FabricFleet::compare(row(record), rows(history));
    QVERIFY2(c.explanation.contains(explanation), qPrintable(c.explanation));
    QCOMPARE(c.standing, standing);
    QCOMPARE(c.peers, peers);
    QCOMPARE(c.median, median);
    if (standing == FleetComparison::Standing::Outlier)
        QVERIFY(c.robustZ <= -3.5);
}

QTEST_GUILESS_MAIN(TestFabricFleet)
#include "tst_fabric_fleet.moc"
