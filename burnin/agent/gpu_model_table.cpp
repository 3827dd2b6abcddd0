#include "gpu_model_table.h"

#include <algorithm>
#include <cctype>

namespace strata::burn {

std::optional<GpuModelSpec> gpuModelForName(std::string_view name)
{
    // Longer or more specific tokens first: "GH200" must not read as "H200".
    static const GpuModelSpec table[] = {
        {"GH200", 989, 4.9},
        {"H200", 989, 4.8},
        {"H100", 989, 3.35},
        {"B300", 2250, 8.0},
        {"B200", 2250, 8.0},
        {"A100", 312, 2.039},
    };
    std::string upper(name);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (const GpuModelSpec &spec : table)
        if (upper.find(spec.model) != std::string::npos)
            return spec;
    return std::nullopt;
}

} // namespace strata::burn
