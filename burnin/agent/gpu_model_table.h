#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace strata::burn {

// The few figures the agent needs to say "% of spec" on its own. The table is generated at
// configure time from resources/gpu_catalog.json (the console judges with the catalog itself),
// and names are matched the catalog's way: by whole tokens, never substrings.
struct GpuModelSpec
{
    std::string model;     // the catalog's model key, e.g. "A100-SXM4-80GB"
    double bf16Tflops = 0; // dense tensor peak (FP16 on chips without BF16); 0 = unknown
    double hbmTBps = 0;    // 0 = unknown
};

// Maps a driver name such as "NVIDIA H200" or "NVIDIA A100-SXM4-80GB" to a model.
std::optional<GpuModelSpec> gpuModelForName(std::string_view name);

} // namespace strata::burn
