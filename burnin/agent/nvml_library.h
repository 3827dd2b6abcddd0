#pragma once

#include "agent_events.h"

#include <optional>
#include <string>

namespace strata::burn {

// NVML, loaded at run time with dlopen("libnvidia-ml.so.1") so the agent starts (and says so)
// on a machine without the driver. Owned by main; its methods are safe from any thread because
// NVML's are.
class NvmlLibrary
{
public:
    NvmlLibrary();
    ~NvmlLibrary();
    NvmlLibrary(const NvmlLibrary &) = delete;
    NvmlLibrary &operator=(const NvmlLibrary &) = delete;

    bool available() const { return m_initialised; }
    // Why NVML is absent, or which driver it talks to: shown in the start event.
    const std::string &status() const { return m_status; }

    // An NVML device handle for a CUDA device, found by UUID, else by PCI bus id.
    void *deviceFor(const std::string &uuid, const std::string &pciBusId) const;

    TelemetrySample sample(void *device, int gpu) const;

private:
    template <typename F>
    F symbol(const char *name);

    void *m_library = nullptr;
    bool m_initialised = false;
    std::string m_status;

    using Ret = int;
    Ret (*m_shutdown)() = nullptr;
    Ret (*m_byUuid)(const char *, void **) = nullptr;
    Ret (*m_byPciBusId)(const char *, void **) = nullptr;
    Ret (*m_temperature)(void *, int, unsigned *) = nullptr;
    Ret (*m_power)(void *, unsigned *) = nullptr;
    Ret (*m_clock)(void *, int, unsigned *) = nullptr;
    Ret (*m_reasons)(void *, unsigned long long *) = nullptr;
};

} // namespace strata::burn
