#include "throttle_reasons.h"

namespace strata::burn {

namespace {

struct ReasonBit
{
    unsigned long long bit;
    const char *name;
};

constexpr ReasonBit reasonBits[] = {
    {0x1ull, "gpu_idle"},
    {0x2ull, "applications_clocks"},
    {0x4ull, "power_cap"},
    {0x8ull, "hw_slowdown"},
    {0x10ull, "sync_boost"},
    {0x20ull, "sw_thermal"},
    {0x40ull, "hw_thermal"},
    {0x80ull, "hw_power_brake"},
    {0x100ull, "display_clocks"},
};

} // namespace

std::vector<std::string> throttleReasonNames(unsigned long long mask)
{
    std::vector<std::string> names;
    unsigned long long known = 0;
    for (const ReasonBit &r : reasonBits) {
        known |= r.bit;
        if (mask & r.bit)
            names.emplace_back(r.name);
    }
    for (int bit = 0; bit < 64; ++bit)
        if ((mask & ~known) & (1ull << bit))
            names.push_back("bit_" + std::to_string(bit));
    return names;
}

std::optional<std::string> throttleFault(unsigned long long mask)
{
    constexpr unsigned long long faults = 0x8ull | 0x20ull | 0x40ull | 0x80ull;
    if (!(mask & faults))
        return std::nullopt;
    std::string names;
    for (const std::string &name : throttleReasonNames(mask & faults))
        names += (names.empty() ? "" : ", ") + name;
    return "throttled by heat or a hardware signal (" + names + "): the figures are not the GPU's own";
}

bool isPerformanceThrottle(unsigned long long mask)
{
    return (mask & (0x4ull | 0x8ull | 0x20ull | 0x40ull | 0x80ull)) != 0;
}

} // namespace strata::burn
