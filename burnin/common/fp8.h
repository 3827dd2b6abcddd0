#pragma once

#include "bf16.h"
#include "host_device.h"

#include <cmath>
#include <cstdint>

namespace strata::burn {

// FP8 E4M3 as NVIDIA's tensor cores and cuBLASLt's CUDA_R_8F_E4M3 read it (the OCP "E4M3FN"
// variant): 1 sign, 4 exponent bits (bias 7), 3 mantissa bits, no infinities, S.1111.111 the
// only NaN, 448 the largest finite value, subnormals down to 2^-9. Kept as its raw byte so the
// host reference decodes exactly what the GPU multiplies.
using Fp8E4m3Bits = std::uint8_t;

// Built from bits (no libm) so the device's reference kernel decodes with the same code.
STRATA_HD float floatFromFp8E4m3(Fp8E4m3Bits v)
{
    const std::uint32_t exponent = (v >> 3) & 0xfu;
    const std::uint32_t mantissa = v & 0x7u;
    const std::uint32_t sign = static_cast<std::uint32_t>(v & 0x80u) << 24;
    if (exponent == 0xf && mantissa == 0x7)
        return floatFromBits(sign | 0x7fc00000u);
    if (exponent == 0) { // subnormal: mantissa * 2^-9, exact
        const float magnitude = static_cast<float>(mantissa) * (1.0f / 512.0f);
        return sign ? -magnitude : magnitude;
    }
    return floatFromBits(sign | ((exponent - 7u + 127u) << 23) | (mantissa << 20));
}

// Round to nearest, ties to even, saturating to +-448 (cuda_fp8.h's __NV_SATFINITE), NaN to NaN.
inline Fp8E4m3Bits fp8E4m3FromFloat(float f)
{
    const Fp8E4m3Bits sign = std::signbit(f) ? 0x80 : 0x00;
    if (std::isnan(f))
        return static_cast<Fp8E4m3Bits>(sign | 0x7f);
    const float magnitude = std::fabs(f);
    if (magnitude >= 464.0f) // halfway between 448 and the next step (480) rounds up: saturate
        return static_cast<Fp8E4m3Bits>(sign | 0x7e);
    if (magnitude < std::ldexp(1.0f, -6)) {
        // Subnormal steps of 2^-9; a result of 8 steps is the smallest normal (bits 0x08).
        const int steps = static_cast<int>(std::nearbyint(std::ldexp(magnitude, 9)));
        return static_cast<Fp8E4m3Bits>(sign | steps);
    }
    int exponent = 0;
    const float fraction = std::frexp(magnitude, &exponent); // [0.5, 1)
    int e = exponent - 1;                                      // magnitude = (2 * fraction) * 2^e
    int mantissa = static_cast<int>(std::nearbyint((2.0f * fraction - 1.0f) * 8.0f));
    if (mantissa == 8) {
        mantissa = 0;
        ++e;
    }
    if (e + 7 > 15 || (e + 7 == 15 && mantissa == 7))
        return static_cast<Fp8E4m3Bits>(sign | 0x7e);
    return static_cast<Fp8E4m3Bits>(sign | ((e + 7) << 3) | mantissa);
}

} // namespace strata::burn
