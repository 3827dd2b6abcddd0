#include "dcgm_blank_value.h"

#include <cmath>

namespace strata {

bool DcgmBlankValue::isMissing(double value)
{
    return !std::isfinite(value) || value >= int32Blank;
}

bool DcgmBlankValue::isMissingAnyField(double value)
{
    if (!std::isfinite(value))
        return true;
    const auto inBand = [value](double blank) { return value >= blank && value < blank + bandWidth; };
    // 4294967295: NVML's "not available" for an unsigned 32-bit field, as some exporters pass it on.
    return inBand(int32Blank) || value == 4294967295.0 || inBand(fp64Blank) || value >= int64Floor;
}

} // namespace strata
