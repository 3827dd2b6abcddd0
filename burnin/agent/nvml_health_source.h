#pragma once

#include "health_judge.h"
#include "nvml_library.h"

#include <map>
#include <mutex>

namespace strata::burn {

// Health readings and XID events of the run's GPUs from NVML. XIDs arrive on one event set for
// all GPUs; whichever GPU thread asks first sorts them into per-GPU queues.
class NvmlHealthSource final : public HealthSource
{
public:
    // devices: the run's GPU index -> NVML handle (null where NVML does not know the GPU).
    NvmlHealthSource(const NvmlLibrary &nvml, std::map<int, void *> devices);

    // Empty when XIDs are watched, else why not (shown in the start event's NVML status).
    const std::string &xidStatus() const { return m_xidStatus; }

    std::optional<HealthReading> read(int gpu) override;
    std::vector<XidEvent> takeXids(int gpu) override;

private:
    const NvmlLibrary &m_nvml;
    std::map<int, void *> m_devices;
    std::string m_xidStatus;
    std::mutex m_mutex;
    std::map<int, std::vector<XidEvent>> m_pending;
};

} // namespace strata::burn
