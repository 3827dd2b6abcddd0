#include "nvml_library.h"

#include "throttle_reasons.h"

#include <dlfcn.h>

namespace strata::burn {

namespace {
constexpr int nvmlSuccess = 0;
constexpr int nvmlTemperatureGpu = 0;
constexpr int nvmlClockSm = 1;
constexpr int nvmlClockMem = 2;
constexpr int nvmlErrorInsufficientSize = 7;
constexpr int nvmlMemoryErrorCorrected = 0;
constexpr int nvmlMemoryErrorUncorrected = 1;
constexpr int nvmlVolatileEcc = 0;
constexpr int nvmlAggregateEcc = 1;
constexpr int nvmlRetiredMultipleSingleBit = 0;
constexpr int nvmlRetiredDoubleBit = 1;
constexpr unsigned long long nvmlEventTypeXidCriticalError = 0x8;

// nvmlEventData_t of nvml.h (what nvmlEventSetWait_v2 fills).
struct NvmlEventData
{
    void *device;
    unsigned long long eventType;
    unsigned long long eventData;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};
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
    m_eccErrors = symbol<Ret (*)(void *, int, int, unsigned long long *)>("nvmlDeviceGetTotalEccErrors");
    m_retiredPages = symbol<Ret (*)(void *, int, unsigned *, unsigned long long *)>("nvmlDeviceGetRetiredPages");
    m_retiredPending = symbol<Ret (*)(void *, int *)>("nvmlDeviceGetRetiredPagesPendingStatus");
    m_remappedRows = symbol<Ret (*)(void *, unsigned *, unsigned *, unsigned *, unsigned *)>("nvmlDeviceGetRemappedRows");
    m_pcieGen = symbol<Ret (*)(void *, unsigned *)>("nvmlDeviceGetCurrPcieLinkGeneration");
    m_pcieMaxGen = symbol<Ret (*)(void *, unsigned *)>("nvmlDeviceGetMaxPcieLinkGeneration");
    m_pcieWidth = symbol<Ret (*)(void *, unsigned *)>("nvmlDeviceGetCurrPcieLinkWidth");
    m_pcieMaxWidth = symbol<Ret (*)(void *, unsigned *)>("nvmlDeviceGetMaxPcieLinkWidth");
    m_pcieReplays = symbol<Ret (*)(void *, unsigned *)>("nvmlDeviceGetPcieReplayCounter");
    m_maxClock = symbol<Ret (*)(void *, int, unsigned *)>("nvmlDeviceGetMaxClockInfo");
    m_eventSetCreate = symbol<Ret (*)(void **)>("nvmlEventSetCreate");
    m_eventSetFree = symbol<Ret (*)(void *)>("nvmlEventSetFree");
    m_registerEvents = symbol<Ret (*)(void *, unsigned long long, void *)>("nvmlDeviceRegisterEvents");
    m_eventSetWait = symbol<Ret (*)(void *, void *, unsigned)>("nvmlEventSetWait_v2");
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
    if (m_eventSet && m_eventSetFree)
        m_eventSetFree(m_eventSet);
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

std::optional<HealthReading> NvmlLibrary::health(void *device) const
{
    if (!m_initialised || !device)
        return std::nullopt;
    HealthReading h;
    unsigned long long count = 0;
    auto ecc = [&](int type, int counter, std::optional<std::uint64_t> &into) {
        if (m_eccErrors && m_eccErrors(device, type, counter, &count) == nvmlSuccess)
            into = count;
    };
    ecc(nvmlMemoryErrorCorrected, nvmlVolatileEcc, h.eccVolatileCorrected);
    ecc(nvmlMemoryErrorUncorrected, nvmlVolatileEcc, h.eccVolatileUncorrected);
    ecc(nvmlMemoryErrorUncorrected, nvmlAggregateEcc, h.eccAggregateUncorrected);
    auto retired = [&](int cause, std::optional<std::uint32_t> &into) {
        unsigned pages = 0; // 0 with no buffer: NVML answers the count
        if (!m_retiredPages)
            return;
        const Ret rc = m_retiredPages(device, cause, &pages, nullptr);
        if (rc == nvmlSuccess || rc == nvmlErrorInsufficientSize)
            into = pages;
    };
    retired(nvmlRetiredDoubleBit, h.retiredPagesDoubleBit);
    retired(nvmlRetiredMultipleSingleBit, h.retiredPagesMultipleSingleBit);
    int pending = 0;
    if (m_retiredPending && m_retiredPending(device, &pending) == nvmlSuccess)
        h.retirementPending = pending != 0;
    unsigned corrected = 0, uncorrected = 0, remapPending = 0, failed = 0;
    if (m_remappedRows && m_remappedRows(device, &corrected, &uncorrected, &remapPending, &failed) == nvmlSuccess) {
        h.remappedRowsCorrectable = corrected;
        h.remappedRowsUncorrectable = uncorrected;
        h.remapPending = remapPending != 0;
        h.remapFailed = failed != 0;
    }
    unsigned value = 0;
    auto one = [&](Ret (*f)(void *, unsigned *), std::optional<unsigned> &into) {
        if (f && f(device, &value) == nvmlSuccess)
            into = value;
    };
    one(m_pcieGen, h.pcieGen);
    one(m_pcieMaxGen, h.pcieMaxGen);
    one(m_pcieWidth, h.pcieWidth);
    one(m_pcieMaxWidth, h.pcieMaxWidth);
    if (m_pcieReplays && m_pcieReplays(device, &value) == nvmlSuccess)
        h.pcieReplays = value;
    if (m_clock && m_clock(device, nvmlClockSm, &value) == nvmlSuccess)
        h.smClockMHz = value;
    if (m_maxClock && m_maxClock(device, nvmlClockSm, &value) == nvmlSuccess)
        h.smMaxClockMHz = value;
    return h;
}

bool NvmlLibrary::watchXids(const std::vector<void *> &devices, std::string *why) const
{
    const std::lock_guard lock(m_eventMutex);
    if (!m_initialised || !m_eventSetCreate || !m_registerEvents || !m_eventSetWait) {
        *why = "NVML offers no event sets: XIDs during the run are not watched";
        return false;
    }
    if (!m_eventSet && m_eventSetCreate(&m_eventSet) != nvmlSuccess) {
        m_eventSet = nullptr;
        *why = "nvmlEventSetCreate failed: XIDs during the run are not watched";
        return false;
    }
    for (void *device : devices) {
        if (device && m_registerEvents(device, nvmlEventTypeXidCriticalError, m_eventSet) != nvmlSuccess) {
            *why = "nvmlDeviceRegisterEvents(XID) failed: XIDs during the run are not watched";
            return false;
        }
    }
    return true;
}

std::map<void *, std::vector<XidEvent>> NvmlLibrary::pollXids() const
{
    const std::lock_guard lock(m_eventMutex);
    std::map<void *, std::vector<XidEvent>> events;
    if (!m_eventSet)
        return events;
    NvmlEventData data{};
    // Timeout 0: take what is queued, never wait. Bounded so a storm cannot hold a GPU thread.
    for (int i = 0; i < 1024 && m_eventSetWait(m_eventSet, &data, 0) == nvmlSuccess; ++i)
        if (data.eventType == nvmlEventTypeXidCriticalError)
            events[data.device].push_back({data.eventData, 0});
    return events;
}

} // namespace strata::burn
