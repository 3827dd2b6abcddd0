#pragma once

#include "host_device.h"

#include <cstdint>
#include <cstring>

namespace strata::burn {

// bfloat16 kept as its raw 16 bits: the CPU backend and the host reference must round exactly
// like the tensor cores' inputs, so no compiler-specific __bf16 type is involved.
using Bf16Bits = std::uint16_t;

STRATA_HD float floatFromBits(std::uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

STRATA_HD std::uint32_t bitsFromFloat(float f)
{
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

// Round to nearest, ties to even, the rounding cuda_bf16.h's __float2bfloat16 uses.
STRATA_HD Bf16Bits bf16FromFloat(float f)
{
    const std::uint32_t bits = bitsFromFloat(f);
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0)
        return static_cast<Bf16Bits>((bits >> 16) | 0x0040u); // NaN stays NaN (quiet)
    const std::uint32_t roundingBias = 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<Bf16Bits>((bits + roundingBias) >> 16);
}

STRATA_HD float floatFromBf16(Bf16Bits b)
{
    return floatFromBits(static_cast<std::uint32_t>(b) << 16);
}

} // namespace strata::burn
