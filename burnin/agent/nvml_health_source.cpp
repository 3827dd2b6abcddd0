#include "nvml_health_source.h"

namespace strata::burn {

NvmlHealthSource::NvmlHealthSource(const NvmlLibrary &nvml, std::map<int, void *> devices)
    : m_nvml(nvml), m_devices(std::move(devices))
{
    std::vector<void *> handles;
    for (const auto &[gpu, device] : m_devices)
        if (device)
            handles.push_back(device);
    if (!m_nvml.watchXids(handles, &m_xidStatus) && m_xidStatus.empty())
        m_xidStatus = "XIDs during the run are not watched";
}

std::optional<HealthReading> NvmlHealthSource::read(int gpu)
{
    const auto it = m_devices.find(gpu);
    return it == m_devices.end() ? std::nullopt : m_nvml.health(it->second);
}

std::vector<XidEvent> NvmlHealthSource::takeXids(int gpu)
{
    const std::lock_guard lock(m_mutex);
    for (auto &[device, events] : m_nvml.pollXids())
        for (const auto &[g, handle] : m_devices)
            if (handle == device)
                m_pending[g].insert(m_pending[g].end(), events.begin(), events.end());
    std::vector<XidEvent> mine;
    mine.swap(m_pending[gpu]);
    return mine;
}

} // namespace strata::burn
