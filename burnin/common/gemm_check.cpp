#include "gemm_check.h"

#include "pattern.h"

#include <cmath>
#include <cstring>

namespace strata::burn {

namespace {

// 24 random bits mapped to [-1, 1): exact in float.
float gemmInputValue(std::uint64_t seed, std::size_t i)
{
    const std::uint64_t r = splitMix64(seed ^ (i * 0x9e3779b97f4a7c15ull)) >> 40;
    return static_cast<float>(r) / static_cast<float>(1u << 23) - 1.0f;
}

// One element's exact dot product and its bound under `model`; decode turns an input element
// into its exact value. The same ReferenceDot the device's reference kernel runs.
template <typename T, typename Decode>
ElementCheck dotInDouble(const T *a, const T *b, float got, int i, int j, int k, Decode decode,
                         const AccumulationModel &model)
{
    ElementCheck e;
    ReferenceDot dot;
    const T *ai = a + static_cast<std::size_t>(i) * k;
    const T *bj = b + static_cast<std::size_t>(j) * k;
    for (int p = 0; p < k; ++p) {
        dot.add(static_cast<double>(decode(ai[p])) * static_cast<double>(decode(bj[p])), model);
        e.partialSum += std::fabs(dot.sum);
    }
    e.reference = dot.sum;
    e.absSum = dot.absSum;
    e.bound = dot.bound(model);
    e.error = std::isfinite(got) ? std::fabs(static_cast<double>(got) - e.reference) : INFINITY;
    return e;
}

template <typename T, typename Decode>
std::vector<StoredReference> referencesOf(const T *a, const T *b, int n, int k, int rowBegin, int rowEnd,
                                          Decode decode, const AccumulationModel &model)
{
    std::vector<StoredReference> out;
    out.reserve(static_cast<std::size_t>(rowEnd - rowBegin) * n);
    for (int i = rowBegin; i < rowEnd; ++i) {
        const T *ai = a + static_cast<std::size_t>(i) * k;
        for (int j = 0; j < n; ++j) {
            const T *bj = b + static_cast<std::size_t>(j) * k;
            ReferenceDot dot;
            for (int p = 0; p < k; ++p)
                dot.add(static_cast<double>(decode(ai[p])) * static_cast<double>(decode(bj[p])), model);
            out.push_back(storeReference(dot, model));
        }
    }
    return out;
}

template <typename T, typename Check>
SampledCheck sampleElements(const T *a, const T *b, const float *c, int m, int n, int k, int samples,
                            std::uint64_t seed, Check check)
{
    SampledCheck result;
    for (int s = 0; s < samples; ++s) {
        const MatrixPosition at = sampledPosition(seed, s, m, n);
        const ElementCheck e = check(a, b, c[static_cast<std::size_t>(at.row) * n + at.column], at.row, at.column, k);
        const double rel = e.error / (e.absSum > 0 ? e.absSum : 1.0);
        const double ratio = e.error / e.bound;
        ++result.elements;
        if (!e.withinBound())
            ++result.outOfBounds;
        if (!(rel <= result.worstRelError))
            result.worstRelError = rel;
        if (!(ratio <= result.worstBoundRatio))
            result.worstBoundRatio = ratio;
    }
    return result;
}

} // namespace

Bf16Bits gemmInputAt(std::uint64_t seed, std::size_t index)
{
    return bf16FromFloat(gemmInputValue(seed, index));
}

Fp8E4m3Bits gemmInputFp8At(std::uint64_t seed, std::size_t index)
{
    return fp8E4m3FromFloat(gemmInputValue(seed, index));
}

MatrixPosition sampledPosition(std::uint64_t seed, int s, int m, int n)
{
    const std::uint64_t r = splitMix64(seed + static_cast<std::uint64_t>(s));
    return {static_cast<int>(r % static_cast<std::uint64_t>(m)), static_cast<int>((r >> 32) % static_cast<std::uint64_t>(n))};
}

std::size_t stuckBitElement(int m, int n)
{
    const MatrixPosition at = sampledPosition(sampledSeed, 0, m, n);
    return static_cast<std::size_t>(at.row) * n + at.column;
}

std::vector<Bf16Bits> makeGemmInput(std::size_t count, std::uint64_t seed)
{
    std::vector<Bf16Bits> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = bf16FromFloat(gemmInputValue(seed, i));
    return values;
}

std::vector<Fp8E4m3Bits> makeGemmInputFp8(std::size_t count, std::uint64_t seed)
{
    std::vector<Fp8E4m3Bits> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = fp8E4m3FromFloat(gemmInputValue(seed, i));
    return values;
}

void gemmBf16Reference(const Bf16Bits *a, const Bf16Bits *b, float *c, int m, int n, int k)
{
    std::vector<float> fa(static_cast<std::size_t>(m) * k);
    std::vector<float> fb(static_cast<std::size_t>(n) * k);
    for (std::size_t i = 0; i < fa.size(); ++i)
        fa[i] = floatFromBf16(a[i]);
    for (std::size_t i = 0; i < fb.size(); ++i)
        fb[i] = floatFromBf16(b[i]);
    for (int i = 0; i < m; ++i) {
        const float *ai = fa.data() + static_cast<std::size_t>(i) * k;
        for (int j = 0; j < n; ++j) {
            const float *bj = fb.data() + static_cast<std::size_t>(j) * k;
            float sum = 0.0f;
            for (int p = 0; p < k; ++p)
                sum += ai[p] * bj[p];
            c[static_cast<std::size_t>(i) * n + j] = sum;
        }
    }
}

std::int64_t countMismatches(const float *first, const float *other, std::size_t count)
{
    std::int64_t mismatches = 0;
    for (std::size_t i = 0; i < count; ++i) {
        mismatches += wordMismatch(bitsFromFloat(first[i]), bitsFromFloat(other[i]));
    }
    return mismatches;
}

ElementCheck checkElement(const Bf16Bits *a, const Bf16Bits *b, float got, int i, int j, int k)
{
    return dotInDouble(a, b, got, i, j, k, floatFromBf16, bf16Accumulation);
}

ElementCheck checkElementFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, float got, int i, int j, int k)
{
    return dotInDouble(a, b, got, i, j, k, floatFromFp8E4m3, fp8Accumulation);
}

int noiseFloorBit(float value, double bound)
{
    const std::uint32_t bits = bitsFromFloat(value);
    int floor = 32;
    for (int bit = 31; bit >= 0; --bit) {
        const float flipped = floatFromBits(bits ^ (1u << bit));
        const double change = std::fabs(static_cast<double>(flipped) - static_cast<double>(value));
        // Exponent flips that make the value infinite or NaN are caught as not finite.
        if (std::isfinite(flipped) && change < 2.0 * bound)
            break;
        floor = bit;
    }
    return floor;
}

std::vector<StoredReference> storedReferences(const Bf16Bits *a, const Bf16Bits *b, int n, int k, int rowBegin,
                                              int rowEnd)
{
    return referencesOf(a, b, n, k, rowBegin, rowEnd, floatFromBf16, bf16Accumulation);
}

std::vector<StoredReference> storedReferencesFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, int n, int k,
                                                 int rowBegin, int rowEnd)
{
    return referencesOf(a, b, n, k, rowBegin, rowEnd, floatFromFp8E4m3, fp8Accumulation);
}

RegionCheck checkRegion(const float *c, const StoredReference *references, int referenceRow0, int n,
                        int rowBegin, int rowEnd)
{
    RegionCheck r;
    for (int i = rowBegin; i < rowEnd; ++i) {
        for (int j = 0; j < n; ++j) {
            const float got = c[static_cast<std::size_t>(i) * n + j];
            const StoredReference &s = references[static_cast<std::size_t>(i - referenceRow0) * n + j];
            ++r.elements;
            if (outOfBounds(got, s.reference, s.bound))
                ++r.outOfBounds;
            const double ratio = boundRatio(got, s.reference, s.bound);
            if (!(ratio <= r.worstRatio))
                r.worstRatio = ratio;
        }
    }
    return r;
}

SampledCheck checkSampledElements(const Bf16Bits *a, const Bf16Bits *b, const float *c, int m,
                                  int n, int k, int samples, std::uint64_t seed)
{
    return sampleElements(a, b, c, m, n, k, samples, seed, checkElement);
}

SampledCheck checkSampledElementsFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, const float *c, int m,
                                     int n, int k, int samples, std::uint64_t seed)
{
    return sampleElements(a, b, c, m, n, k, samples, seed, checkElementFp8);
}

} // namespace strata::burn
