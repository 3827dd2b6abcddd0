#pragma once

#include "dcgm_field.h"

#include <string>
#include <utility>
#include <vector>

namespace strata::lab {

// Everything one GPU exports at one moment: identity labels, holder labels and the values.
struct GpuSample
{
    int index = 0;
    std::string uuid;
    std::string pciBusId;
    std::string device;
    std::vector<std::pair<std::string, std::string>> holderLabels;
    DcgmValues values{};
};

} // namespace strata::lab
