// The GEMM checks' plants table: every fp32 bit 0-31 flipped in random elements of a product
// at the agent's size (M = N = K = 8192, its seeded inputs), judged by the same code each check
// runs on the GPU (reference_dot.h through the host entry points of gemm_check.h). The GPU's
// product is emulated by a truncating tensor-core model, so the table measures what the checks
// catch above the noise a correct GPU makes. burnin/VERIFICATION.md quotes the table.

#include "gemm_check.h"
#include "reference_dot.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

using namespace strata::burn;

namespace {

constexpr int agentSize = 8192; // M = N = K of the agent's default GEMM
constexpr std::uint64_t seedA = 0xa11ce, seedB = 0xb0b;
constexpr int elementsPerCheck = 256;

// Rounding toward zero to fp32, as the tensor cores normalise their sum.
float truncateToFloat(double d)
{
    float f = static_cast<float>(d);
    if (std::fabs(double(f)) > std::fabs(d))
        f = std::nextafter(f, 0.0f);
    return f;
}

// To `bits` significant bits, toward zero: the FP8 tensor cores' narrow accumulator.
double truncateTo(double x, int bits)
{
    if (x == 0 || !std::isfinite(x))
        return x;
    int e = 0;
    std::frexp(x, &e);
    const double q = std::ldexp(1.0, e - bits);
    return std::trunc(x / q) * q;
}

struct Row
{
    std::vector<Bf16Bits> a, b;
    std::vector<Fp8E4m3Bits> a8, b8;
};

Row rowsOf(int i, int j, bool fp8)
{
    Row r;
    r.a.resize(agentSize);
    r.b.resize(agentSize);
    for (int p = 0; p < agentSize; ++p) {
        r.a[p] = gemmInputAt(seedA, std::size_t(i) * agentSize + p);
        r.b[p] = gemmInputAt(seedB, std::size_t(j) * agentSize + p);
    }
    if (fp8) {
        r.a8.resize(agentSize);
        r.b8.resize(agentSize);
        for (int p = 0; p < agentSize; ++p) {
            r.a8[p] = gemmInputFp8At(seedA, std::size_t(i) * agentSize + p);
            r.b8[p] = gemmInputFp8At(seedB, std::size_t(j) * agentSize + p);
        }
    }
    return r;
}

// A correct GPU's BF16 result under the harshest truncating model: 16 exact products and the
// accumulator summed, the sum truncated to fp32 (the bias a real tensor core can at most have
// coherently; it measured 4x the error of a model that also truncates the aligned terms).
float tensorCoreBf16(const Row &r)
{
    float acc = 0;
    for (int p0 = 0; p0 < agentSize; p0 += 16) {
        double step = acc;
        for (int p = p0; p < p0 + 16; ++p)
            step += double(floatFromBf16(r.a[p])) * double(floatFromBf16(r.b[p]));
        acc = truncateToFloat(step);
    }
    return acc;
}

// FP8: wgmma steps of 32 into a 12-bit truncating accumulator, promoted into fp32 every 128.
float tensorCoreFp8(const Row &r)
{
    float total = 0;
    for (int chunk = 0; chunk < agentSize; chunk += fp8Accumulation.promoteEvery) {
        double low = 0;
        for (int s = chunk; s < chunk + fp8Accumulation.promoteEvery; s += fp8Accumulation.stepK) {
            double products = 0;
            for (int p = s; p < s + fp8Accumulation.stepK; ++p)
                products += double(floatFromFp8E4m3(r.a8[p])) * double(floatFromFp8E4m3(r.b8[p]));
            low = truncateTo(low + products, 12);
        }
        total += static_cast<float>(low);
    }
    return total;
}

float flipped(float v, int bit) { return floatFromBits(bitsFromFloat(v) ^ (1u << bit)); }

// One check's tally: per bit, plants and catches; those above the element's noise floor apart.
struct Tally
{
    std::array<int, 32> planted{}, caught{}, aboveFloor{}, aboveFloorCaught{};
    std::vector<int> floors;
    double worstCleanRatio = 0;
    std::int64_t cleanOutOfBounds = 0;
    int worstDetectionDelay = 0; // stress loop: iterations from the plant to its detection

    void plant(int bit, bool isCaught, int floor)
    {
        ++planted[bit];
        caught[bit] += isCaught;
        if (bit >= floor) {
            ++aboveFloor[bit];
            aboveFloorCaught[bit] += isCaught;
        }
    }
    double percent(int bit) const { return planted[bit] ? 100.0 * caught[bit] / planted[bit] : 0; }
    int medianFloor() const
    {
        std::vector<int> f = floors;
        std::sort(f.begin(), f.end());
        return f[f.size() / 2];
    }
};

// The full-matrix and slice checks judge an element as the device does: the stored reference
// (the reference kernel's ReferenceDot and storeReference) and checkRegion (outOfBounds()).
StoredReference storedOf(const Row &r, bool fp8)
{
    return fp8 ? storedReferencesFp8(r.a8.data(), r.b8.data(), 1, agentSize, 0, 1).at(0)
               : storedReferences(r.a.data(), r.b.data(), 1, agentSize, 0, 1).at(0);
}

bool regionCatches(float value, const StoredReference &s)
{
    return checkRegion(&value, &s, 0, 1, 0, 1).outOfBounds == 1;
}

} // namespace

class TestBurninPlants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plantsTable();
};

void TestBurninPlants::plantsTable()
{
    enum Check { Sampled, Full, Slices, Fp8Sampled, Fp8Full, checks };
    const char *names[checks] = {"sampled", "full", "slices", "fp8-sampled", "fp8-full"};
    std::array<Tally, checks> tally;
    for (int s = 0; s < elementsPerCheck; ++s) {
        // Sampled: exactly the elements the agent's sampled check recomputes. Full, slices and
        // FP8: random elements anywhere in the product (the full check looks at all of them).
        const MatrixPosition sampled = sampledPosition(sampledSeed, s, agentSize, agentSize);
        const MatrixPosition anywhere = sampledPosition(0xfeed, s, agentSize, agentSize);
        {
            const Row r = rowsOf(sampled.row, sampled.column, false);
            const float c = tensorCoreBf16(r);
            // checkElement() takes the whole matrices; row 0 of one-row matrices is the element.
            const ElementCheck clean = checkElement(r.a.data(), r.b.data(), c, 0, 0, agentSize);
            Tally &t = tally[Sampled];
            t.cleanOutOfBounds += !clean.withinBound();
            t.worstCleanRatio = std::max(t.worstCleanRatio, clean.error / clean.bound);
            const int floor = noiseFloorBit(c, clean.bound);
            t.floors.push_back(floor);
            for (int bit = 0; bit < 32; ++bit)
                t.plant(bit, !checkElement(r.a.data(), r.b.data(), flipped(c, bit), 0, 0, agentSize).withinBound(), floor);
        }
        {
            const Row r = rowsOf(anywhere.row, anywhere.column, true);
            for (const bool fp8 : {false, true}) {
                const float c = fp8 ? tensorCoreFp8(r) : tensorCoreBf16(r);
                const StoredReference ref = storedOf(r, fp8);
                Tally &t = tally[fp8 ? Fp8Full : Full];
                t.cleanOutOfBounds += regionCatches(c, ref);
                t.worstCleanRatio = std::max(t.worstCleanRatio, boundRatio(c, ref.reference, ref.bound));
                const int floor = noiseFloorBit(c, ref.bound);
                t.floors.push_back(floor);
                for (int bit = 0; bit < 32; ++bit)
                    t.plant(bit, regionCatches(flipped(c, bit), ref), floor);
                if (fp8) {
                    // The FP8 sampled check: the host's double reference of the same element.
                    const ElementCheck clean = checkElementFp8(r.a8.data(), r.b8.data(), c, 0, 0, agentSize);
                    Tally &u = tally[Fp8Sampled];
                    u.cleanOutOfBounds += !clean.withinBound();
                    u.worstCleanRatio = std::max(u.worstCleanRatio, clean.error / clean.bound);
                    const int f = noiseFloorBit(c, clean.bound);
                    u.floors.push_back(f);
                    for (int bit = 0; bit < 32; ++bit)
                        u.plant(bit, !checkElementFp8(r.a8.data(), r.b8.data(), flipped(c, bit), 0, 0, agentSize).withinBound(), f);
                    continue;
                }
                // The stress loop: the flip sticks from a random iteration on; each iteration
                // checks stressSliceRows() of the product; the plant counts as caught when a
                // slice holding its row judges it out of bounds within stressSlices iterations.
                Tally &l = tally[Slices];
                l.floors.push_back(floor);
                l.cleanOutOfBounds += regionCatches(c, ref);
                l.worstCleanRatio = t.worstCleanRatio;
                const long long plantedAt = static_cast<long long>(anywhere.column % 97);
                for (int bit = 0; bit < 32; ++bit) {
                    bool seen = false;
                    for (long long it = plantedAt; it < plantedAt + stressSlices && !seen; ++it) {
                        const RowSlice slice = stressSliceRows(it, agentSize);
                        if (anywhere.row < slice.begin || anywhere.row >= slice.end)
                            continue;
                        seen = regionCatches(flipped(c, bit), ref);
                        if (seen)
                            l.worstDetectionDelay = std::max(l.worstDetectionDelay, int(it - plantedAt) + 1);
                    }
                    l.plant(bit, seen, floor);
                }
            }
        }
    }

    qInfo("plants at M = N = K = %d, %d elements per check, every bit of each: %% of all plants caught, and "
          "caught / planted among the elements whose noise floor is at or below the bit", agentSize, elementsPerCheck);
    qInfo("bit | sampled           | full              | slices            | fp8-sampled       | fp8-full");
    for (int bit = 0; bit < 32; ++bit) {
        QString line = QStringLiteral("%1 ").arg(bit, 3);
        for (int check = 0; check < checks; ++check)
            line += QStringLiteral("| %1% (%2/%3) ")
                        .arg(tally[check].percent(bit), 5, 'f', 1)
                        .arg(tally[check].aboveFloorCaught[bit], 3)
                        .arg(tally[check].aboveFloor[bit], 3);
        qInfo("%s", qPrintable(line));
    }
    for (int check = 0; check < checks; ++check) {
        const Tally &t = tally[check];
        int above = 0, aboveCaught = 0;
        for (int bit = 0; bit < 32; ++bit) {
            above += t.aboveFloor[bit];
            aboveCaught += t.aboveFloorCaught[bit];
        }
        qInfo("%-11s: noise floor bit median %d (min %d, max %d); above it %d of %d plants caught; "
              "healthy elements out of bounds %lld, worst at %.3g of the bound",
              names[check], t.medianFloor(), *std::min_element(t.floors.begin(), t.floors.end()),
              *std::max_element(t.floors.begin(), t.floors.end()), aboveCaught, above,
              static_cast<long long>(t.cleanOutOfBounds), t.worstCleanRatio);
        // No false alarm on a correct GPU's output.
        QCOMPARE(t.cleanOutOfBounds, 0);
        // The goal: every flip above the element's noise floor is caught, by every check.
        for (int bit = 0; bit < 32; ++bit)
            QVERIFY2(t.aboveFloorCaught[bit] == t.aboveFloor[bit],
                     qPrintable(QStringLiteral("%1: bit %2 caught %3 of %4 above the floor")
                                    .arg(names[check]).arg(bit).arg(t.aboveFloorCaught[bit]).arg(t.aboveFloor[bit])));
        // Every mantissa bit from the median floor up is above it in most elements: the floor
        // is what keeps a bit from 100 %, not a gap in the check.
        QVERIFY(above > 32 * elementsPerCheck / 4);
    }
    qInfo("stress loop: a stuck flip found within %d iterations (stressSlices %d)", tally[Slices].worstDetectionDelay,
          stressSlices);
    QVERIFY(tally[Slices].worstDetectionDelay >= 1 && tally[Slices].worstDetectionDelay <= stressSlices);
    // The derived floors (burnin/VERIFICATION.md): BF16 bit 12 for the median element (|c| ~ 22),
    // FP8 bit 20; a looser bound would raise them.
    QVERIFY(tally[Sampled].medianFloor() <= 12 && tally[Full].medianFloor() <= 12);
    QVERIFY(tally[Fp8Full].medianFloor() <= 21);
    // Exponent bits and the sign: caught in (nearly) every element; bits 0-5 never (below the
    // fp32 noise of any element this size).
    for (int check = 0; check < checks; ++check) {
        // FP8's bound is ~500x BF16's, so more small elements sit under it.
        const double exponentCaught = check == Fp8Sampled || check == Fp8Full ? 95.0 : 99.0;
        for (int bit = 24; bit < 31; ++bit)
            QVERIFY(tally[check].percent(bit) >= exponentCaught);
        for (int bit = 0; bit < 6; ++bit)
            QCOMPARE(tally[check].caught[bit], 0);
    }
}

QTEST_GUILESS_MAIN(TestBurninPlants)
#include "tst_burnin_plants.moc"
