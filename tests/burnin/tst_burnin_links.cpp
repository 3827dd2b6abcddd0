// The link tests' schedule (ring rounds) and data checks, on the host; the CPU backend runs
// the same schedule, so its P2P result shows both.
#include "backend.h"
#include "link_schedule.h"
#include "result_judge.h"

#include <QTest>

#include <set>

using namespace strata::burn;

class TestBurninLinks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ringCoversEveryPairOnce_data();
    void ringCoversEveryPairOnce();
    void ringRoundsOfEightGpus();
    void ringPairOf();
    void linkDataCheck();
    void cpuBackendRunsTheRing();
    void corruptedPeerCopyFails();
};

void TestBurninLinks::ringCoversEveryPairOnce_data()
{
    QTest::addColumn<QList<int>>("gpus");
    QTest::newRow("one GPU: no rounds") << QList<int>{0};
    QTest::newRow("two") << QList<int>{0, 1};
    QTest::newRow("four") << QList<int>{0, 1, 2, 3};
    QTest::newRow("eight") << QList<int>{0, 1, 2, 3, 4, 5, 6, 7};
    QTest::newRow("a subset (--gpus 1,4,6)") << QList<int>{1, 4, 6};
}

void TestBurninLinks::ringCoversEveryPairOnce()
{
    QFETCH(QList<int>, gpus);
    const std::vector<int> g(gpus.begin(), gpus.end());
    const auto rounds = ringRounds(g);
    QCOMPARE(int(rounds.size()), std::max(0, int(g.size()) - 1));
    std::set<std::pair<int, int>> seen;
    for (const auto &round : rounds) {
        std::set<int> senders, receivers;
        for (const LinkPair &p : round) {
            QVERIFY(p.from != p.to);
            QVERIFY(seen.insert({p.from, p.to}).second); // each ordered pair once
            senders.insert(p.from);
            receivers.insert(p.to);
        }
        // In a round every GPU sends once and receives once: no GPU is the target of several.
        QCOMPARE(int(senders.size()), int(g.size()));
        QCOMPARE(int(receivers.size()), int(g.size()));
    }
    QCOMPARE(int(seen.size()), int(g.size() * (g.size() - 1)));
}

void TestBurninLinks::ringRoundsOfEightGpus()
{
    const auto rounds = ringRounds({0, 1, 2, 3, 4, 5, 6, 7});
    QCOMPARE(rounds[0][0], (LinkPair{0, 1}));
    QCOMPARE(rounds[0][7], (LinkPair{7, 0}));
    QCOMPARE(rounds[3][2], (LinkPair{2, 6})); // round 4: i -> i + 4
    QCOMPARE(rounds[6][0], (LinkPair{0, 7}));
}

void TestBurninLinks::ringPairOf()
{
    const std::vector<int> g{1, 4, 6};
    QCOMPARE(strata::burn::ringPairOf(g, 4, 1), (LinkPair{4, 6}));
    QCOMPARE(strata::burn::ringPairOf(g, 6, 1), (LinkPair{6, 1}));
    QCOMPARE(strata::burn::ringPairOf(g, 6, 2), (LinkPair{6, 4}));
    QCOMPARE(strata::burn::ringPairOf(g, 5, 1), (LinkPair{}));
    QCOMPARE(strata::burn::ringPairOf(g, 1, 3), (LinkPair{})); // only rounds 1 .. N-1
}

void TestBurninLinks::linkDataCheck()
{
    std::vector<std::uint64_t> words(4096);
    const std::uint64_t seed = linkSeed(2, 5, 3);
    fillLinkPattern(words.data(), words.size(), seed);
    QCOMPARE(countLinkMismatches(words.data(), words.size(), seed), 0ull);
    // A stale buffer from another pair or round fails everywhere.
    QCOMPARE(countLinkMismatches(words.data(), words.size(), linkSeed(2, 5, 4)), 4096ull);
    QCOMPARE(countLinkMismatches(words.data(), words.size(), linkSeed(5, 2, 3)), 4096ull);
    words[17] ^= 1ull << 63;
    words[4095] ^= 1;
    QCOMPARE(countLinkMismatches(words.data(), words.size(), seed), 2ull);
}

void TestBurninLinks::cpuBackendRunsTheRing()
{
    const auto backend = makeCpuBackend({4, 1ull << 20, "host"});
    TestParams params;
    params.duration = std::chrono::milliseconds(120);
    const TestResult r = backend->runP2p(2, {0, 1, 3}, params);
    const auto *p = std::get_if<P2pFigures>(&r.figures);
    QVERIFY(p);
    QCOMPARE(p->mismatchedWords, 0ull);
    QCOMPARE(int(p->peers.size()), 3);
    // GPU 2 of {0, 1, 2, 3}: round 1 -> 3, round 2 -> 0, round 3 -> 1.
    QCOMPARE(p->peers[0].peer, 3);
    QCOMPARE(p->peers[1].peer, 0);
    QCOMPARE(p->peers[2].peer, 1);
    for (const PeerFigure &f : p->peers) {
        QVERIFY(f.GBps > 0);
        QVERIFY(f.togetherGBps && *f.togetherGBps > 0);
    }
    QVERIFY(judgeResult(r, {}).passed);
    const TestResult pcie = backend->runPcie(1, params);
    QCOMPARE(std::get<PcieFigures>(pcie.figures).mismatchedWords, 0ull);
}

void TestBurninLinks::corruptedPeerCopyFails()
{
    const auto backend = makeCpuBackend({2, 1ull << 20, "host"});
    TestParams params;
    params.duration = std::chrono::milliseconds(40);
    params.injection = Injection::Bitflip;
    const TestResult r = backend->runP2p(0, {1}, params);
    QCOMPARE(std::get<P2pFigures>(r.figures).mismatchedWords, 1ull);
    const Judgement j = judgeResult(r, {});
    QVERIFY(!j.passed);
    QCOMPARE(QString::fromStdString(j.reasons.at(0)), QString("1 words corrupted in peer-to-peer copies"));
}

QTEST_GUILESS_MAIN(TestBurninLinks)
#include "tst_burnin_links.moc"
