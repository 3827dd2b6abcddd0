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
    int migInstance = -1;   // GPU_I_ID; -1: the whole GPU
    std::string migProfile; // GPU_I_PROFILE
    std::string uuid;
    std::string pciBusId;
    std::string device;
    std::vector<std::pair<std::string, std::string>> holderLabels;
    DcgmValues values{}; // NaN: the field is not exported for this GPU (GPU_UTIL of a MIG instance)
};

} // namespace strata::lab
