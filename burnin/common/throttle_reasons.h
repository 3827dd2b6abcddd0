#pragma once

#include <optional>
#include <string>
#include <vector>

namespace strata::burn {

// Names of NVML's clocks-event (throttle) reason bits, nvmlClocksEventReason* in nvml.h.
// Unknown bits come out as "bit_N" so a newer driver's reason is reported, not dropped.
std::vector<std::string> throttleReasonNames(unsigned long long mask);

// Reasons that mean the GPU ran slower than it could while under load. gpu_idle and
// applications_clocks are not faults.
bool isPerformanceThrottle(unsigned long long mask);

// The agent's own verdict on a test's throttling: the reason that fails it when the GPU was
// slowed by heat or a hardware signal (hw_slowdown, sw_thermal, hw_thermal, hw_power_brake, the
// console's fault set too), nothing otherwise; power_cap under a full load is normal.
std::optional<std::string> throttleFault(unsigned long long mask);

} // namespace strata::burn
