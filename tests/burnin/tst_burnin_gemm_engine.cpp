// The GEMM engines' host side, without a GPU: which engine runs where (dispatch), the FP8
// (E4M3) inputs and their error bound, and cuBLASLt's dlopen failing with a reason a person can
// act on. The engines themselves run in burnin/gpu-check.sh.
#include "agent_options.h"
#include "cublaslt_library.h"
#include "fp8.h"
#include "gemm_check.h"
#include "gemm_engine.h"
#include "result_judge.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstdlib>

using namespace strata::burn;

Q_DECLARE_METATYPE(strata::burn::GemmEngineRequest)
Q_DECLARE_METATYPE(strata::burn::GemmEngine)

namespace {

// Rounds toward zero to `bits` significant bits: an accumulator that keeps only that many.
double truncateTo(double x, int bits)
{
    if (x == 0 || !std::isfinite(x))
        return x;
    int exponent = 0;
    std::frexp(x, &exponent);
    const double scale = std::ldexp(1.0, bits - exponent);
    return std::trunc(x * scale) / scale;
}

// The FP8 tensor-core order the bound assumes at its edge: 32 exact products per step added
// into an accumulator of 12 significant bits (truncating), promoted into fp32 every 4 steps.
float fp8TensorCoreDot(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, int k)
{
    float total = 0.0f;
    for (int chunk = 0; chunk < k; chunk += fp8Accumulation.promoteEvery) {
        double low = 0;
        for (int step = chunk; step < chunk + fp8Accumulation.promoteEvery && step < k; step += fp8Accumulation.stepK) {
            double products = 0;
            for (int p = step; p < step + fp8Accumulation.stepK; ++p)
                products += double(floatFromFp8E4m3(a[p])) * double(floatFromFp8E4m3(b[p]));
            low = truncateTo(low + truncateTo(products, 12), 12);
        }
        total += static_cast<float>(low);
    }
    return total;
}

constexpr int fp8K = 8192;

} // namespace

class TestBurninGemmEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fp8DecodesKnownValues_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<double>("value");
        QTest::newRow("one") << 0x38 << 1.0;
        QTest::newRow("max") << 0x7e << 448.0;
        QTest::newRow("min normal") << 0x08 << 1.0 / 64;
        QTest::newRow("min subnormal") << 0x01 << 1.0 / 512;
        QTest::newRow("minus half") << 0xb0 << -0.5;
        QTest::newRow("1.875") << 0x3f << 1.875;
        QTest::newRow("zero") << 0x00 << 0.0;
    }
    void fp8DecodesKnownValues()
    {
        QFETCH(int, bits);
        QFETCH(double, value);
        QCOMPARE(double(floatFromFp8E4m3(Fp8E4m3Bits(bits))), value);
        QCOMPARE(int(fp8E4m3FromFloat(float(value))), bits);
    }

    void fp8RoundTripsEveryByte()
    {
        for (int v = 0; v < 256; ++v) {
            const float f = floatFromFp8E4m3(Fp8E4m3Bits(v));
            if ((v & 0x7f) == 0x7f) {
                QVERIFY2(std::isnan(f), qPrintable(QString::number(v, 16)));
                continue;
            }
            QCOMPARE(int(fp8E4m3FromFloat(f)), v == 0x80 ? 0x80 : v);
        }
    }

    void fp8RoundsToNearestEvenAndSaturates_data()
    {
        QTest::addColumn<double>("input");
        QTest::addColumn<double>("expected");
        QTest::newRow("tie down to even") << 1.0625 << 1.0;   // halfway 1.0 / 1.125
        QTest::newRow("tie up to even") << 1.1875 << 1.25;    // halfway 1.125 / 1.25
        QTest::newRow("above half") << 1.07 << 1.125;
        QTest::newRow("saturates") << 1e6 << 448.0;
        QTest::newRow("saturates negative") << -500.0 << -448.0;
        QTest::newRow("subnormal tie") << 3.0 / 1024 << 2.0 / 512; // 1.5 steps -> 2
        QTest::newRow("underflow") << 1e-4 << 0.0;
    }
    void fp8RoundsToNearestEvenAndSaturates()
    {
        QFETCH(double, input);
        QFETCH(double, expected);
        QCOMPARE(double(floatFromFp8E4m3(fp8E4m3FromFloat(float(input)))), expected);
    }

    void dispatch_data()
    {
        QTest::addColumn<GemmEngineRequest>("request");
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::addColumn<bool>("loaded");
        QTest::addColumn<GemmEngine>("stress");
        QTest::addColumn<QString>("error");
        const auto A = GemmEngineRequest::Auto, O = GemmEngineRequest::Own, L = GemmEngineRequest::CublasLt,
                   F = GemmEngineRequest::Fp8;
        QTest::newRow("auto H100") << A << 9 << 0 << true << GemmEngine::CublasLtBf16 << QString();
        QTest::newRow("auto without cuBLASLt") << A << 9 << 0 << false << GemmEngine::Own << QString();
        QTest::newRow("own with cuBLASLt") << O << 10 << 0 << true << GemmEngine::Own << QString();
        QTest::newRow("cublaslt missing") << L << 9 << 0 << false << GemmEngine::CublasLtBf16 << "not loadable";
        QTest::newRow("fp8 H200") << F << 9 << 0 << true << GemmEngine::CublasLtFp8 << QString();
        QTest::newRow("fp8 B200") << F << 10 << 0 << true << GemmEngine::CublasLtFp8 << QString();
        QTest::newRow("fp8 L40S") << F << 8 << 9 << true << GemmEngine::CublasLtFp8 << QString();
        QTest::newRow("fp8 A100") << F << 8 << 0 << true << GemmEngine::CublasLtFp8 << "8.9 or newer; this GPU has 8.0";
        QTest::newRow("fp8 without cuBLASLt") << F << 9 << 0 << false << GemmEngine::CublasLtFp8 << "not loadable";
        QTest::newRow("V100") << A << 7 << 0 << true << GemmEngine::Own << "no BF16 tensor cores";
    }
    void dispatch()
    {
        QFETCH(GemmEngineRequest, request);
        QFETCH(int, major);
        QFETCH(int, minor);
        QFETCH(bool, loaded);
        QFETCH(GemmEngine, stress);
        QFETCH(QString, error);
        const GemmEnginePlan plan = planGemmEngine(request, major, minor, loaded, "cuBLASLt is not loadable (tried x)");
        QCOMPARE(QString::fromStdString(plan.error).contains(error), true);
        QCOMPARE(plan.error.empty(), error.isEmpty());
        if (!error.isEmpty())
            return;
        QCOMPARE(plan.stress, stress);
        // auto's fallback says why; nothing else carries a note.
        QCOMPARE(plan.note.empty(), !(request == GemmEngineRequest::Auto && !loaded));
    }

    void engineNamesAndOption()
    {
        QCOMPARE(gemmEngineName(GemmEngine::CublasLtFp8), "cublaslt-fp8-e4m3");
        QCOMPARE(gemmEngineName(GemmEngine::Own), "own-bf16");
        const ParsedOptions fp8 = parseAgentOptions({"--gemm-engine", "fp8"});
        QVERIFY(fp8.error.empty());
        QCOMPARE(fp8.options.gemmEngine, GemmEngineRequest::Fp8);
        QCOMPARE(parseAgentOptions({}).options.gemmEngine, GemmEngineRequest::Auto);
        QVERIFY(QString::fromStdString(parseAgentOptions({"--gemm-engine", "tf32"}).error).contains("auto, own, cublaslt or fp8"));
    }

    void cublasLtAbsentSaysWhyAndWhatToDo()
    {
        std::string error;
        const auto lib = CublasLtLibrary::load(&error, {"/nonexistent/libcublasLt.so.99", "libcublasLt-not-here.so"});
        QVERIFY(!lib);
        const QString text = QString::fromStdString(error);
        QVERIFY2(text.contains("tried /nonexistent/libcublasLt.so.99, libcublasLt-not-here.so"), qPrintable(text));
        QVERIFY2(text.contains("libcublasLt-not-here.so: cannot open shared object file"), qPrintable(text));
        QVERIFY2(text.contains("--gemm-engine own"), qPrintable(text));
        // The engine plan carries it into the GEMM test's failure when cuBLASLt was demanded.
        QCOMPARE(planGemmEngine(GemmEngineRequest::CublasLt, 9, 0, false, error).error, error);
    }

    void cublasLtOfTheToolkitLoadsWhereInstalled()
    {
        // This machine has the CUDA toolkit: the real library must resolve every entry point.
        const QString path = QStringLiteral("/usr/local/cuda/lib64/libcublasLt.so.13");
        if (!QFile::exists(path))
            QSKIP("no CUDA 13 toolkit here");
        std::string error;
        const auto lib = CublasLtLibrary::load(&error, {path.toStdString()});
        QVERIFY2(lib, error.c_str());
        QVERIFY(lib->version() >= 130000);
    }

    void cublasLtWithoutItsEntryPointsIsRefused()
    {
        std::string error;
        const auto lib = CublasLtLibrary::load(&error, {"libc.so.6"});
        QVERIFY(!lib);
        QVERIFY2(QString::fromStdString(error).contains("libc.so.6 lacks cublasLtCreate"), error.c_str());
    }

    void cublasLtPathFromTheEnvironment()
    {
        qputenv("STRATA_BURN_CUBLASLT", "/nonexistent/forced-libcublasLt.so");
        std::string error;
        const auto lib = CublasLtLibrary::load(&error);
        qunsetenv("STRATA_BURN_CUBLASLT");
        QVERIFY(!lib);
        QVERIFY2(QString::fromStdString(error).contains("tried /nonexistent/forced-libcublasLt.so:"), error.c_str());
    }

    void fp8BoundCoversTheTensorCoreOrder()
    {
        // The bound's assumption at its edge (12-bit truncating accumulator, promotion every 4
        // steps) must stay inside it for every element; a healthy GPU keeps more bits.
        const std::vector<Fp8E4m3Bits> a = makeGemmInputFp8(std::size_t(8) * fp8K, 0xa11ce);
        const std::vector<Fp8E4m3Bits> b = makeGemmInputFp8(std::size_t(8) * fp8K, 0xb0b);
        double worst = 0, relBound = 0;
        for (int i = 0; i < 8; ++i) {
            for (int j = 0; j < 8; ++j) {
                const float c = fp8TensorCoreDot(a.data() + std::size_t(i) * fp8K, b.data() + std::size_t(j) * fp8K, fp8K);
                const ElementCheck e = checkElementFp8(a.data(), b.data(), c, i, j, fp8K);
                QVERIFY2(e.withinBound(), qPrintable(QStringLiteral("C[%1][%2] off by %3, bound %4").arg(i).arg(j).arg(e.error).arg(e.bound)));
                worst = std::max(worst, e.error / e.bound);
                relBound = std::max(relBound, e.bound / e.absSum);
            }
        }
        qInfo("FP8 at K=%d: bound up to %.3g of sum|ab|; worst element at %.3g of it under the 12-bit model", fp8K,
              relBound, worst);
        // The model does lose bits (the test is not vacuous); that its worst stays far below the
        // bound (~0.8 % here) is the price of a bound that holds in the worst case.
        QVERIFY(worst > 0);
    }

    void fp8OutputBitFlipsCaught()
    {
        const std::vector<Fp8E4m3Bits> a = makeGemmInputFp8(std::size_t(4) * fp8K, 0xa11ce);
        const std::vector<Fp8E4m3Bits> b = makeGemmInputFp8(std::size_t(4) * fp8K, 0xb0b);
        const int i = 1, j = 2;
        const float c = fp8TensorCoreDot(a.data() + std::size_t(i) * fp8K, b.data() + std::size_t(j) * fp8K, fp8K);
        const ElementCheck clean = checkElementFp8(a.data(), b.data(), c, i, j, fp8K);
        QVERIFY(clean.withinBound());
        qInfo("FP8 element C[%d][%d] = %.9g at K=%d: error %.3g, bound %.3g", i, j, double(c), fp8K, clean.error, clean.bound);
        QList<int> caught;
        for (int bit = 0; bit < 32; ++bit) {
            const float flipped = floatFromBits(bitsFromFloat(c) ^ (1u << bit));
            const bool reference = !checkElementFp8(a.data(), b.data(), flipped, i, j, fp8K).withinBound();
            QCOMPARE(reference, !(std::fabs(double(flipped) - clean.reference) <= clean.bound));
            if (reference)
                caught << bit;
        }
        qInfo("FP8 reference check catches bits %d-31 (the repeat check: all 32)", caught.value(0));
        // A contiguous run up to the sign: every exponent bit and the upper mantissa bits.
        QVERIFY(!caught.isEmpty());
        for (int k = 0; k < caught.size(); ++k)
            QCOMPARE(caught[k], caught.first() + k);
        QCOMPARE(caught.last(), 31);
        // At K = 8192 the FP8 bound (reference_dot.h's fp8Accumulation, ~1.2 on this element of
        // ~14; the earlier sum|ab| bound was ~5) leaves the two lowest mantissa bytes to the
        // repeat check: the reference check catches bits 21 and up.
        QCOMPARE(caught.first(), 21);
    }

    void fp8SampledCheckFindsACorruptedElement()
    {
        const int m = 32, n = 32, k = 256;
        const std::vector<Fp8E4m3Bits> a = makeGemmInputFp8(std::size_t(m) * k, 1);
        const std::vector<Fp8E4m3Bits> b = makeGemmInputFp8(std::size_t(n) * k, 2);
        std::vector<float> c(std::size_t(m) * n);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j)
                c[std::size_t(i) * n + j] = fp8TensorCoreDot(a.data() + std::size_t(i) * k, b.data() + std::size_t(j) * k, k);
        const SampledCheck healthy = checkSampledElementsFp8(a.data(), b.data(), c.data(), m, n, k, m * n * 4, 7);
        QCOMPARE(healthy.outOfBounds, 0);
        // A dropped or doubled k32 step moves an element by about one (products of inputs in
        // [-1, 1)); the bound at K = 256 is ~0.16.
        for (float &v : c)
            v += 1.0f;
        const SampledCheck corrupted = checkSampledElementsFp8(a.data(), b.data(), c.data(), m, n, k, 64, 7);
        QCOMPARE(corrupted.outOfBounds, 64);
        QVERIFY(corrupted.worstBoundRatio > 1);
    }

    void referenceCheckDisagreementFails()
    {
        GemmFigures g;
        g.engine = "cublaslt-bf16";
        g.referenceCheckedElements = 67108864;
        g.referenceOutOfBounds = 3;
        g.referenceWorstRatio = 41;
        g.sliceCheckedElements = 8388608;
        g.sliceOutOfBounds = 1;
        g.sliceWorstRatio = 7;
        TestResult r;
        r.test = "gemm";
        r.figures = g;
        const Judgement j = judgeResult(r, JudgeLimits{});
        QVERIFY(!j.passed);
        QCOMPARE(j.reasons.size(), std::size_t(2));
        QVERIFY2(QString::fromStdString(j.reasons.at(0)).contains("3 of 67108864 elements of the first product"), j.reasons.at(0).c_str());
        QVERIFY2(QString::fromStdString(j.reasons.at(1)).contains("stress loop's row slices"), j.reasons.at(1).c_str());
    }
};

QTEST_GUILESS_MAIN(TestBurninGemmEngine)
#include "tst_burnin_gemm_engine.moc"
