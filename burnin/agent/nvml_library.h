#pragma once

#include "agent_events.h"
#include "health_judge.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

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

    // ECC, retired pages, row remapping, PCIe link and clocks; nullopt without NVML or device.
    std::optional<HealthReading> health(void *device) const;

    // Registers the devices for XID events; false (and why) where NVML cannot deliver them.
    bool watchXids(const std::vector<void *> &devices, std::string *why) const;
    // Every XID delivered since the last call, by device handle. Never blocks.
    std::map<void *, std::vector<XidEvent>> pollXids() const;

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
    Ret (*m_eccErrors)(void *, int, int, unsigned long long *) = nullptr;
    Ret (*m_retiredPages)(void *, int, unsigned *, unsigned long long *) = nullptr;
    Ret (*m_retiredPending)(void *, int *) = nullptr;
    Ret (*m_remappedRows)(void *, unsigned *, unsigned *, unsigned *, unsigned *) = nullptr;
    Ret (*m_pcieGen)(void *, unsigned *) = nullptr;
    Ret (*m_pcieMaxGen)(void *, unsigned *) = nullptr;
    Ret (*m_pcieWidth)(void *, unsigned *) = nullptr;
    Ret (*m_pcieMaxWidth)(void *, unsigned *) = nullptr;
    Ret (*m_pcieReplays)(void *, unsigned *) = nullptr;
    Ret (*m_maxClock)(void *, int, unsigned *) = nullptr;
    Ret (*m_eventSetCreate)(void **) = nullptr;
    Ret (*m_eventSetFree)(void *) = nullptr;
    Ret (*m_registerEvents)(void *, unsigned long long, void *) = nullptr;
    Ret (*m_eventSetWait)(void *, void *, unsigned) = nullptr;
    mutable std::mutex m_eventMutex;
    mutable void *m_eventSet = nullptr;
};

} // namespace strata::burn
