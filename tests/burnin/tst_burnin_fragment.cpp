// The own GEMM kernel's fragment mapping (gemm_fragment.h, the same functions the .cu runs)
// executed on the host with PTX ldmatrix / mma.sync m16n8k16 semantics: a layout change that
// breaks the kernel fails here, on a machine without a GPU.
#include "gemm_check.h"
#include "gemm_fragment.h"
#include "mma_emulation.h"

#include <QTest>

#include <cmath>

using namespace strata::burn;

Q_DECLARE_METATYPE(strata::burn::FragmentFault)

class TestBurninFragment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void emulationMatchesReference_data();
    void emulationMatchesReference();
    void swappedFragmentIsCaught_data();
    void swappedFragmentIsCaught();
    void everyElementOwnedOnce();
    void rejectsShapesTheKernelRejects();
};

namespace {

struct Outcome
{
    EmulationOutcome emulation;
    std::int64_t outOfBounds = 0;
    double worstRatio = 0;
};

Outcome run(int m, int n, int k, FragmentFault fault)
{
    const auto a = makeGemmInput(std::size_t(m) * k, 0xa11ce);
    const auto b = makeGemmInput(std::size_t(n) * k, 0xb0b);
    std::vector<float> c(std::size_t(m) * n, 0.0f);
    Outcome o;
    o.emulation = emulateBf16Gemm(a.data(), b.data(), c.data(), m, n, k, fault);
    // Every element, not a sample: the emulation is cheap and a mapping error may hit few.
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            const ElementCheck e = checkElement(a.data(), b.data(), c[std::size_t(i) * n + j], i, j, k);
            o.outOfBounds += e.withinBound() ? 0 : 1;
            o.worstRatio = std::max(o.worstRatio, e.error / e.bound);
        }
    }
    return o;
}

} // namespace

void TestBurninFragment::emulationMatchesReference_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::newRow("one block, one k tile") << 128 << 128 << 32;
    QTest::newRow("2 x 2 blocks, 4 k tiles") << 256 << 256 << 128;
    QTest::newRow("non-square, 1 x 3 blocks") << 128 << 384 << 96;
    QTest::newRow("the ring wraps twice (7 k tiles)") << 128 << 128 << 224;
}

void TestBurninFragment::emulationMatchesReference()
{
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, k);
    const Outcome o = run(m, n, k, FragmentFault::None);
    QVERIFY2(o.emulation.ok, o.emulation.error.c_str());
    QCOMPARE(o.outOfBounds, qint64(0));
    // Exact 16-product steps rounded to fp32: far inside the bound.
    QVERIFY2(o.worstRatio < 0.05, qPrintable(QString::number(o.worstRatio)));
}

void TestBurninFragment::swappedFragmentIsCaught_data()
{
    QTest::addColumn<FragmentFault>("fault");
    QTest::addColumn<bool>("addressingOk");
    QTest::newRow("B registers q1 and q2 swapped") << FragmentFault::SwapBRegisters << true;
    QTest::newRow("A registers a1 and a2 swapped") << FragmentFault::SwapARegisters << true;
    QTest::newRow("epilogue rows of c2, c3 off by 8") << FragmentFault::StoreRowsOverlap << false;
    QTest::newRow("ring refills the stage being read") << FragmentFault::RingPrefetchTooFar << true;
    QTest::newRow("ring computes from the previous stage") << FragmentFault::RingStaleStage << true;
}

void TestBurninFragment::swappedFragmentIsCaught()
{
    // The negative test: each mistake makes (nearly) every element wrong, so the emulation
    // plus the error bound can tell a broken layout from a working one.
    QFETCH(FragmentFault, fault);
    QFETCH(bool, addressingOk);
    // K of 4 tiles: the 3-stage ring wraps around, so a stage is reused.
    const int m = 128, n = 128, k = 128;
    const Outcome o = run(m, n, k, fault);
    QCOMPARE(o.emulation.ok, addressingOk);
    qInfo("%lld of %d elements out of bounds (%s)", static_cast<long long>(o.outOfBounds), m * n,
          o.emulation.error.empty() ? "addressing valid" : o.emulation.error.c_str());
    QVERIFY(o.outOfBounds >= m * n / 2);
}

void TestBurninFragment::everyElementOwnedOnce()
{
    // The epilogue mapping alone: every (row, col) of a 128 x 128 block tile belongs to exactly
    // one (warp, mt, nt, lane, register), and columns pair up for the float2 stores.
    using namespace fragment;
    std::vector<int> owners(tileM * tileN, 0);
    for (int warp = 0; warp < threads / 32; ++warp)
        for (int mt = 0; mt < mmaTilesM; ++mt)
            for (int nt = 0; nt < mmaTilesN; ++nt)
                for (int lane = 0; lane < 32; ++lane)
                    for (int r = 0; r < 4; ++r) {
                        const int row = storeRow(warpRow(warp), mt, lane, r);
                        const int col = storeCol(warpCol(warp), nt, lane, r);
                        QVERIFY(row >= 0 && row < tileM && col >= 0 && col < tileN);
                        ++owners[row * tileN + col];
                        if (r % 2 == 0) {
                            QCOMPARE(col % 2, 0); // float2 stores need 8-byte alignment
                            QCOMPARE(storeCol(warpCol(warp), nt, lane, r + 1), col + 1);
                            QCOMPARE(storeRow(warpRow(warp), mt, lane, r + 1), row);
                        }
                    }
    for (int o : owners)
        QCOMPARE(o, 1);
    // Each tile chunk is copied by exactly one (thread, i).
    std::vector<int> chunks(tileM * tileK / 8, 0);
    for (int t = 0; t < threads; ++t)
        for (int i = 0; i < chunksPerThread; ++i)
            ++chunks[chunkRow(chunkIndex(t, i)) * (tileK / 8) + chunkCol(chunkIndex(t, i)) / 8];
    for (int c : chunks)
        QCOMPARE(c, 1);
}

void TestBurninFragment::rejectsShapesTheKernelRejects()
{
    std::vector<Bf16Bits> a(128 * 40), b(128 * 40);
    std::vector<float> c(128 * 128);
    const EmulationOutcome o = emulateBf16Gemm(a.data(), b.data(), c.data(), 128, 128, 40);
    QVERIFY(!o.ok);
    QCOMPARE(QString::fromStdString(o.error), QString("M and N must be multiples of 128 and K of 32"));
}

QTEST_GUILESS_MAIN(TestBurninFragment)
#include "tst_burnin_fragment.moc"
