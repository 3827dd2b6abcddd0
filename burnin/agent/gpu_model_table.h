#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace strata::burn {

// The few figures the agent needs to say "% of spec" on its own; mirrors
// resources/gpu_catalog.json (the console judges with the catalog itself). Dense BF16 peak.
struct GpuModelSpec
{
    std::string model;
    double bf16Tflops = 0;
    double hbmTBps = 0;
};

// Maps a driver name such as "NVIDIA H200" or "NVIDIA H100 80GB HBM3" to a model.
std::optional<GpuModelSpec> gpuModelForName(std::string_view name);

} // namespace strata::burn
