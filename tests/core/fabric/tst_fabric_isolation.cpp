// FabricIsolation: node sets with planted slow nodes, slow links and noise, run round by round
// as the runner runs them (a group measures at the pace of its slowest node); the round count
// bound ceil(log2 n) + 1 for one bad node; the floor from the catalog.
#include "fabric/fabric_expectation.h"
#include "fabric/fabric_isolation.h"
#include "model/gpu_catalog.h"

#include <QTest>

#include <cmath>

using namespace strata;

Q_DECLARE_METATYPE(strata::FabricVerdictKind)

namespace {

struct Plant
{
    QHash<QString, double> speed;      // GB/s a node reaches alone; absent: 100
    QList<QPair<QString, QString>> slowLinks; // a group holding both measures 30 %
    QSet<QString> failing;             // a group holding one measures nothing
    double noise = 0;                  // +- this fraction, by group, deterministic
    QList<double> loadByRound;         // every group of round r measures x loadByRound[r-1]
};

FabricGroupResult measure(const Plant &plant, const QStringList &group, int round, int index)
{
    FabricGroupResult r;
    r.nodes = group;
    r.tool = FabricTool::TorchProbe;
    double figure = 1e9;
    for (const QString &n : group) {
        if (plant.failing.contains(n)) {
            r.error = QStringLiteral("job ended FAILED");
            return r;
        }
        figure = qMin(figure, plant.speed.value(n, 100));
    }
    for (const auto &link : plant.slowLinks)
        if (group.contains(link.first) && group.contains(link.second))
            figure *= 0.3;
    figure *= 1 + plant.noise * std::sin(round * 7.0 + index * 3.0 + group.size());
    figure *= plant.loadByRound.value(round - 1, 1.0);
    FabricSample s;
    s.bytes = 8 << 20;
    s.seconds = 0.01;
    s.algbwGBps = figure / 1.5;
    s.busbwGBps = figure;
    s.ranks = int(group.size());
    r.samples << s;
    return r;
}

QStringList nodes(int n)
{
    QStringList list;
    for (int i = 1; i <= n; ++i)
        list << QStringLiteral("n%1").arg(i, 2, 10, QLatin1Char('0'));
    return list;
}

FabricIsolation run(const QStringList &set, const Plant &plant, double floor = 0, bool isolate = true)
{
    FabricIsolation iso(set, floor, 0.75, isolate);
    for (int round = 1; !iso.done() && round < 50; ++round) {
        const QList<QStringList> groups = iso.nextRound();
        // The groups of a round run at once: they must never share a node.
        QSet<QString> seen;
        for (const QStringList &g : groups) {
            if (g.size() < 2)
                qFatal("round %d has a group of %d node(s)", round, int(g.size()));
            for (const QString &n : g) {
                if (seen.contains(n))
                    qFatal("round %d uses %s twice", round, qPrintable(n));
                seen.insert(n);
            }
        }
        QList<FabricGroupResult> results;
        for (int i = 0; i < groups.size(); ++i)
            results << measure(plant, groups.at(i), round, i);
        iso.record(results);
    }
    return iso;
}

} // namespace

class TestFabricIsolation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // One slow node anywhere in sets of 3 to 16: found, within ceil(log2 n) + 1 rounds.
    void oneSlowNode_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("slow");
        QTest::addColumn<double>("noise");
        for (int n : {4, 5, 6, 7, 8, 16})
            for (int slow = 1; slow <= n; ++slow)
                QTest::addRow("%d nodes, n%02d slow", n, slow) << n << slow << (n == 16 ? 0.1 : 0.0);
        // Three nodes and no floor: round 2 can test only the pair n01,n02 (a one-node half has
        // no cleared node to pair with yet), so only a slow n03 stands out against it.
        QTest::addRow("3 nodes, n03 slow") << 3 << 3 << 0.0;
    }

    void oneSlowNode()
    {
        QFETCH(int, count);
        QFETCH(int, slow);
        QFETCH(double, noise);
        Plant plant;
        const QString bad = QStringLiteral("n%1").arg(slow, 2, 10, QLatin1Char('0'));
        plant.speed.insert(bad, 30);
        plant.noise = noise;
        const FabricIsolation iso = run(nodes(count), plant);
        QCOMPARE(iso.verdict().kind, FabricVerdictKind::NodeFound);
        QCOMPARE(iso.verdict().node, bad);
        QVERIFY(iso.verdict().figureGBps < 40);
        QVERIFY(iso.verdict().referenceGBps > 80);
        const int bound = int(std::ceil(std::log2(double(count)))) + 1;
        QVERIFY2(iso.rounds().size() <= bound, qPrintable(QStringLiteral("%1 rounds, bound %2").arg(iso.rounds().size()).arg(bound)));
        QVERIFY(iso.verdict().explanation.contains(bad));
    }

    void fourNodesInThreeRounds()
    {
        Plant plant;
        plant.speed.insert(QStringLiteral("n03"), 10);
        const FabricIsolation iso = run(nodes(4), plant);
        QCOMPARE(iso.rounds().size(), 3);
        QCOMPARE(iso.rounds().at(0).groups.size(), 1);
        QCOMPARE(iso.rounds().at(1).groups.size(), 2);
        QCOMPARE(iso.rounds().at(1).groups.at(1).result.nodes, (QStringList{QStringLiteral("n03"), QStringLiteral("n04")}));
        QVERIFY(iso.rounds().at(1).groups.at(1).shortOfReference);
        QVERIFY(!iso.rounds().at(1).groups.at(0).shortOfReference);
        // Last round: each candidate paired with a node cleared in round 2.
        QCOMPARE(iso.rounds().at(2).groups.at(0).result.nodes, (QStringList{QStringLiteral("n03"), QStringLiteral("n01")}));
        QCOMPARE(iso.verdict().node, QStringLiteral("n03"));
        QCOMPARE(iso.verdict().figureGBps, 10.0);
        QCOMPARE(iso.verdict().referenceGBps, 100.0);
    }

    void verdicts_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<QStringList>("slow");
        QTest::addColumn<QStringList>("link");
        QTest::addColumn<double>("floor");
        QTest::addColumn<double>("noise");
        QTest::addColumn<bool>("isolate");
        QTest::addColumn<FabricVerdictKind>("kind");
        QTest::addColumn<int>("rounds");
        QTest::newRow("a tight fleet: no outlier") << 8 << QStringList{} << QStringList{} << 0.0 << 0.1 << true << FabricVerdictKind::NoOutlier << 2;
        QTest::newRow("two slow nodes, one quarter") << 8 << QStringList{QStringLiteral("n01"), QStringLiteral("n02")} << QStringList{} << 0.0 << 0.0 << true
                                                     << FabricVerdictKind::SeveralShort << 4;
        QTest::newRow("two slow nodes in both halves, floor") << 4 << QStringList{QStringLiteral("n01"), QStringLiteral("n04")} << QStringList{} << 60.0 << 0.0 << true
                                                              << FabricVerdictKind::SeveralShort << 2;
        // Without a floor every group holds a slow node: nothing to compare with (said as such).
        QTest::newRow("two slow nodes in both halves, no floor") << 4 << QStringList{QStringLiteral("n01"), QStringLiteral("n04")} << QStringList{} << 0.0 << 0.0 << true
                                                                 << FabricVerdictKind::NoOutlier << 2;
        QTest::newRow("a slow link between the halves") << 4 << QStringList{} << QStringList{QStringLiteral("n02"), QStringLiteral("n03")} << 0.0 << 0.0 << true
                                                        << FabricVerdictKind::LinksBetween << 2;
        QTest::newRow("a slow link inside a half") << 4 << QStringList{} << QStringList{QStringLiteral("n03"), QStringLiteral("n04")} << 0.0 << 0.0 << true
                                                   << FabricVerdictKind::LinksBetween << 3;
        QTest::newRow("meets the floor: one round") << 8 << QStringList{} << QStringList{} << 60.0 << 0.0 << true << FabricVerdictKind::MeetsExpectation << 1;
        QTest::newRow("below the floor, slow node found") << 8 << QStringList{QStringLiteral("n06")} << QStringList{} << 60.0 << 0.0 << true
                                                         << FabricVerdictKind::NodeFound << 4;
        QTest::newRow("whole fabric below the floor") << 8 << QStringList{} << QStringList{} << 150.0 << 0.0 << true << FabricVerdictKind::SeveralShort << 2;
        QTest::newRow("two nodes below the floor") << 2 << QStringList{QStringLiteral("n02")} << QStringList{} << 60.0 << 0.0 << true
                                                   << FabricVerdictKind::TooFewNodes << 1;
        QTest::newRow("two nodes, no floor") << 2 << QStringList{} << QStringList{} << 0.0 << 0.0 << true << FabricVerdictKind::Measured << 1;
        QTest::newRow("no isolation asked, below floor") << 4 << QStringList{QStringLiteral("n02")} << QStringList{} << 60.0 << 0.0 << false
                                                         << FabricVerdictKind::BelowExpectation << 1;
        QTest::newRow("no isolation asked, no floor") << 4 << QStringList{QStringLiteral("n02")} << QStringList{} << 0.0 << 0.0 << false
                                                      << FabricVerdictKind::Measured << 1;
    }

    void verdicts()
    {
        QFETCH(int, count);
        QFETCH(QStringList, slow);
        QFETCH(QStringList, link);
        QFETCH(double, floor);
        QFETCH(double, noise);
        QFETCH(bool, isolate);
        QFETCH(FabricVerdictKind, kind);
        QFETCH(int, rounds);
        Plant plant;
        for (const QString &n : slow)
            plant.speed.insert(n, 30);
        if (!link.isEmpty())
            plant.slowLinks << qMakePair(link.at(0), link.at(1));
        plant.noise = noise;
        const FabricIsolation iso = run(nodes(count), plant, floor, isolate);
        QCOMPARE(fabricVerdictName(iso.verdict().kind), fabricVerdictName(kind));
        QCOMPARE(iso.rounds().size(), rounds);
        QVERIFY(!iso.verdict().explanation.isEmpty());
    }

    // The host got busier before the last round (another cluster's tests on the same cores):
    // both pairs measure half of what earlier rounds did. Judged against each other they still
    // name the slow node; against the best of earlier rounds both would look short.
    void loadChangesBetweenRounds()
    {
        Plant plant;
        plant.speed.insert(QStringLiteral("n03"), 30);
        plant.loadByRound = {1.0, 1.0, 0.5};
        const FabricIsolation iso = run(nodes(4), plant);
        QCOMPARE(fabricVerdictName(iso.verdict().kind), QStringLiteral("node-found"));
        QCOMPARE(iso.verdict().node, QStringLiteral("n03"));
        QVERIFY(iso.rounds().at(2).groups.at(0).shortOfReference);
        QVERIFY(!iso.rounds().at(2).groups.at(1).shortOfReference);
    }

    void aFailedGroupEndsTheTest()
    {
        Plant plant;
        plant.failing.insert(QStringLiteral("n02"));
        const FabricIsolation iso = run(nodes(4), plant);
        QCOMPARE(iso.verdict().kind, FabricVerdictKind::Failed);
        QVERIFY(iso.verdict().explanation.contains(QStringLiteral("job ended FAILED")));
        QCOMPARE(iso.rounds().size(), 1);
    }

    void tooFewNodes()
    {
        FabricIsolation iso({QStringLiteral("n01"), QStringLiteral("n01")}, 0, 0.75, true);
        QVERIFY(iso.done());
        QCOMPARE(iso.verdict().kind, FabricVerdictKind::TooFewNodes);
        QVERIFY(iso.nextRound().isEmpty());
    }

    void floorFromTheCatalog()
    {
        const GpuCatalog &catalog = GpuCatalog::builtIn();
        const FabricExpectation p5 = fabricExpectation(catalog, {QStringLiteral("p5.48xlarge"), QStringLiteral("p5.48xlarge")});
        QCOMPARE(p5.lineGBps, 400.0);
        QCOMPARE(p5.floorGBps, 240.0);
        QVERIFY(p5.explanation.contains(QStringLiteral("3200 Gbps")));
        QCOMPARE(fabricExpectation(catalog, {QStringLiteral("p6-b300.48xlarge")}).floorGBps, 480.0);
        QCOMPARE(fabricExpectation(catalog, {QStringLiteral("p4d.24xlarge")}).floorGBps, 30.0);
        const FabricExpectation mixed = fabricExpectation(catalog, {QStringLiteral("p5.48xlarge"), QStringLiteral("p5en.48xlarge")});
        QCOMPARE(mixed.floorGBps, 0.0);
        QVERIFY(mixed.explanation.contains(QStringLiteral("2 instance types")));
        QCOMPARE(fabricExpectation(catalog, {QString()}).floorGBps, 0.0);
        QCOMPARE(fabricExpectation(catalog, {QStringLiteral("g5.xlarge")}).floorGBps, 0.0);
    }
};

QTEST_APPLESS_MAIN(TestFabricIsolation)
#include "tst_fabric_isolation.moc"
