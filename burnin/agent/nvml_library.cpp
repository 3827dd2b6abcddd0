#include "nvml_library.h"

#include "throttle_reasons.h"

#include <dlfcn.h>

namespace strata::burn {

namespace {
constexpr int nvmlSuccess = 0;
constexpr int nvmlTemperatureGpu = 0;
constexpr int nvmlClockSm = 1;
constexpr int nvmlClockMem = 2;
} // namespace

template <typename F>
F NvmlLibrary::symbol(const char *name)
{
    return reinterpret_cast<F>(dlsym(m_library, name));
}

NvmlLibrary::NvmlLibrary()
{
    m_library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!m_library) {
        const char *why = dlerror();
        m_status = std::string("libnvidia-ml.so.1 not loaded, telemetry absent: ") + (why ? why : "unknown");
        return;
    }
    auto init = symbol<Ret (*)()>("nvmlInit_v2");
    auto errorString = symbol<const char *(*)(Ret)>("nvmlErrorString");
    auto driverVersion = symbol<Ret (*)(char *, unsigned)>("nvmlSystemGetDriverVersion");
    m_shutdown = symbol<Ret (*)()>("nvmlShutdown");
    m_byUuid = symbol<Ret (*)(const char *, void **)>("nvmlDeviceGetHandleByUUID");
    m_byPciBusId = symbol<Ret (*)(const char *, void **)>("nvmlDeviceGetHandleByPciBusId_v2");
    m_temperature = symbol<Ret (*)(void *, int, unsigned *)>("nvmlDeviceGetTemperature");
    m_power = symbol<Ret (*)(void *, unsigned *)>("nvmlDeviceGetPowerUsage");
    m_clock = symbol<Ret (*)(void *, int, unsigned *)>("nvmlDeviceGetClockInfo");
    // Renamed in newer drivers; the old name stays as an alias, so take whichever exists.
    m_reasons = symbol<Ret (*)(void *, unsigned long long *)>("nvmlDeviceGetCurrentClocksEventReasons");
    if (!m_reasons)
        m_reasons = symbol<Ret (*)(void *, unsigned long long *)>("nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !m_shutdown || !m_byUuid) {
        m_status = "libnvidia-ml.so.1 lacks nvmlInit_v2/nvmlDeviceGetHandleByUUID: telemetry absent";
        return;
    }
    const Ret rc = init();
    if (rc != nvmlSuccess) {
        m_status = std::string("nvmlInit failed, telemetry absent: ")
            + (errorString ? errorString(rc) : std::to_string(rc));
        return;
    }
    m_initialised = true;
    char version[96] = {};
    if (driverVersion && driverVersion(version, sizeof version) == nvmlSuccess)
        m_status = std::string("NVML loaded, driver ") + version;
    else
        m_status = "NVML loaded";
}

NvmlLibrary::~NvmlLibrary()
{
    if (m_initialised)
        m_shutdown();
    if (m_library)
        dlclose(m_library);
}

void *NvmlLibrary::deviceFor(const std::string &uuid, const std::string &pciBusId) const
{
    if (!m_initialised)
        return nullptr;
    void *device = nullptr;
    if (!uuid.empty() && m_byUuid(uuid.c_str(), &device) == nvmlSuccess)
        return device;
    if (!pciBusId.empty() && m_byPciBusId && m_byPciBusId(pciBusId.c_str(), &device) == nvmlSuccess)
        return device;
    return nullptr;
}

TelemetrySample NvmlLibrary::sample(void *device, int gpu) const
{
    TelemetrySample s;
    s.gpu = gpu;
    if (!m_initialised || !device)
        return s;
    unsigned value = 0;
    if (m_temperature && m_temperature(device, nvmlTemperatureGpu, &value) == nvmlSuccess)
        s.tempC = value;
    if (m_power && m_power(device, &value) == nvmlSuccess)
        s.powerW = value / 1000.0;
    if (m_clock && m_clock(device, nvmlClockSm, &value) == nvmlSuccess)
        s.smClockMHz = value;
    if (m_clock && m_clock(device, nvmlClockMem, &value) == nvmlSuccess)
        s.memClockMHz = value;
    unsigned long long mask = 0;
    if (m_reasons && m_reasons(device, &mask) == nvmlSuccess) {
        s.throttleMask = mask;
        s.throttleReasons = throttleReasonNames(mask);
    }
    return s;
}

} // namespace strata::burn
