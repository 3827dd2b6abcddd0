#include "gemm_check.h"

#include "pattern.h"

#include <cmath>
#include <cstring>

namespace strata::burn {

std::vector<Bf16Bits> makeGemmInput(std::size_t count, std::uint64_t seed)
{
    std::vector<Bf16Bits> values(count);
    for (std::size_t i = 0; i < count; ++i) {
        // 24 random bits mapped to [-1, 1): exact in float, then rounded to bf16.
        const std::uint64_t r = splitMix64(seed ^ (i * 0x9e3779b97f4a7c15ull)) >> 40;
        const float f = static_cast<float>(r) / static_cast<float>(1u << 23) - 1.0f;
        values[i] = bf16FromFloat(f);
    }
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
    ElementCheck e;
    const Bf16Bits *ai = a + static_cast<std::size_t>(i) * k;
    const Bf16Bits *bj = b + static_cast<std::size_t>(j) * k;
    for (int p = 0; p < k; ++p) {
        const double prod = static_cast<double>(floatFromBf16(ai[p])) * static_cast<double>(floatFromBf16(bj[p]));
        e.reference += prod;
        e.absSum += std::fabs(prod);
        e.partialSum += std::fabs(e.reference);
    }
    e.bound = accumulationBound(e.partialSum, e.absSum);
    e.error = std::isfinite(got) ? std::fabs(static_cast<double>(got) - e.reference) : INFINITY;
    return e;
}

SampledCheck checkSampledElements(const Bf16Bits *a, const Bf16Bits *b, const float *c, int m,
                                  int n, int k, int samples, std::uint64_t seed)
{
    SampledCheck check;
    for (int s = 0; s < samples; ++s) {
        const std::uint64_t r = splitMix64(seed + static_cast<std::uint64_t>(s));
        const int i = static_cast<int>(r % static_cast<std::uint64_t>(m));
        const int j = static_cast<int>((r >> 32) % static_cast<std::uint64_t>(n));
        const ElementCheck e = checkElement(a, b, c[static_cast<std::size_t>(i) * n + j], i, j, k);
        const double rel = e.error / (e.absSum > 0 ? e.absSum : 1.0);
        const double ratio = e.error / e.bound;
        ++check.elements;
        if (!e.withinBound())
            ++check.outOfBounds;
        if (!(rel <= check.worstRelError))
            check.worstRelError = rel;
        if (!(ratio <= check.worstBoundRatio))
            check.worstBoundRatio = ratio;
    }
    return check;
}

} // namespace strata::burn
