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

// One element's dot product in double with the sums the bounds need; decode turns an input
// element into its exact value.
template <typename T, typename Decode>
ElementCheck dotInDouble(const T *a, const T *b, float got, int i, int j, int k, Decode decode)
{
    ElementCheck e;
    const T *ai = a + static_cast<std::size_t>(i) * k;
    const T *bj = b + static_cast<std::size_t>(j) * k;
    for (int p = 0; p < k; ++p) {
        const double prod = static_cast<double>(decode(ai[p])) * static_cast<double>(decode(bj[p]));
        e.reference += prod;
        e.absSum += std::fabs(prod);
        e.partialSum += std::fabs(e.reference);
    }
    e.error = std::isfinite(got) ? std::fabs(static_cast<double>(got) - e.reference) : INFINITY;
    return e;
}

template <typename T, typename Check>
SampledCheck sampleElements(const T *a, const T *b, const float *c, int m, int n, int k, int samples,
                            std::uint64_t seed, Check check)
{
    SampledCheck result;
    for (int s = 0; s < samples; ++s) {
        const std::uint64_t r = splitMix64(seed + static_cast<std::uint64_t>(s));
        const int i = static_cast<int>(r % static_cast<std::uint64_t>(m));
        const int j = static_cast<int>((r >> 32) % static_cast<std::uint64_t>(n));
        const ElementCheck e = check(a, b, c[static_cast<std::size_t>(i) * n + j], i, j, k);
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
    ElementCheck e = dotInDouble(a, b, got, i, j, k, floatFromBf16);
    e.bound = accumulationBound(e.partialSum, e.absSum);
    return e;
}

ElementCheck checkElementFp8(const Fp8E4m3Bits *a, const Fp8E4m3Bits *b, float got, int i, int j, int k)
{
    ElementCheck e = dotInDouble(a, b, got, i, j, k, floatFromFp8E4m3);
    // The absolute floor covers elements whose products all vanish.
    e.bound = fp8RelBound(k) * e.absSum + 1e-37;
    return e;
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
