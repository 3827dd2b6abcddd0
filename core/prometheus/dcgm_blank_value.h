#pragma once

namespace strata {

// DCGM's "blank" codes. DCGM reports a value it could not read (not found, not supported on
// this GPU or MIG instance, not permitted) as a code at the top of the field's type, and
// dcgm-exporter (older releases especially) passes it on as a number: 9.2e18 for an int64
// field, 2147483632..2147483647 for an int32 one, 2^47 for a double. Such a value is missing,
// never a reading: shown as a dash, never judged by a health rule.
//
// Definitions (dcgm_structs.h): DCGM_INT32_BLANK 0x7ffffff0, DCGM_INT64_BLANK
// 0x7ffffffffffffff0, DCGM_FP64_BLANK 140737488355328.0 (2^47); BLANK + 1 is NOT_FOUND, + 2
// NOT_SUPPORTED, + 3 NOT_PERMISSIONED, and DCGM_*_IS_BLANK(v) is v >= BLANK. NVML's
// "not available" for unsigned 32-bit fields (4294967295) lands above the int32 band too.
class DcgmBlankValue
{
public:
    static constexpr double int32Blank = 2147483632.0;              // 0x7ffffff0
    static constexpr double fp64Blank = 140737488355328.0;          // 2^47
    static constexpr double int64Blank = 9223372036854775792.0;     // 0x7ffffffffffffff0 (as a double: 2^63)
    static constexpr double bandWidth = 16;                         // BLANK .. BLANK + 15
    // Exporters print the int64 codes in several roundings ("9.223372036854776e+18", "9.2e18");
    // no counter DCGM keeps gets near 9e18.
    static constexpr double int64Floor = 9.0e18;

    // For the fields Strata reads (percentages, ratios, C, W, MHz, MiB, XID codes, row and
    // replay counts), no real reading comes near 2^31: NaN, +/-Inf and anything at or above
    // DCGM_INT32_BLANK (which also covers the int64 and double blanks) are missing.
    static bool isMissing(double value);
    // For a field of unknown type (`strata metrics --metric DCGM_FI_...`), whose real values
    // may be large (byte counters): NaN, +/-Inf and only the blank bands themselves.
    static bool isMissingAnyField(double value);
};

} // namespace strata
