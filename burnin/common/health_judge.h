#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::burn {

// What NVML says about one GPU's health at one moment. Every field is optional: a driver or
// GPU that does not support a query (no ECC on a GeForce, no row remapping before A100)
// leaves it empty, and an empty field is never judged.
struct HealthReading
{
    // ECC error counts (nvmlDeviceGetTotalEccErrors): volatile since the driver loaded,
    // aggregate over the GPU's life.
    std::optional<std::uint64_t> eccVolatileCorrected;
    std::optional<std::uint64_t> eccVolatileUncorrected;
    std::optional<std::uint64_t> eccAggregateUncorrected;
    // Page retirement (pre-A100; nvmlDeviceGetRetiredPages, ...PendingStatus).
    std::optional<std::uint32_t> retiredPagesDoubleBit;
    std::optional<std::uint32_t> retiredPagesMultipleSingleBit;
    std::optional<bool> retirementPending;
    // Row remapping (A100 and newer; nvmlDeviceGetRemappedRows).
    std::optional<std::uint32_t> remappedRowsCorrectable;
    std::optional<std::uint32_t> remappedRowsUncorrectable;
    std::optional<bool> remapPending;
    std::optional<bool> remapFailed;
    // PCIe link (nvmlDeviceGetCurr/MaxPcieLinkGeneration, ...Width; ...PcieReplayCounter).
    std::optional<unsigned> pcieGen, pcieMaxGen, pcieWidth, pcieMaxWidth;
    std::optional<std::uint64_t> pcieReplays;
    // Clocks (nvmlDeviceGetClockInfo / GetMaxClockInfo, SM), reported with the findings.
    std::optional<unsigned> smClockMHz, smMaxClockMHz;
};

// An XID event NVML delivered for a GPU (nvmlEventTypeXidCriticalError).
struct XidEvent
{
    unsigned long long xid = 0;
    std::uint64_t timestampUs = 0;
};

// Where readings come from: NVML on a GPU node (NvmlHealthSource in the agent), a stand-in in
// the tests. Called from the GPU threads, concurrently for different GPUs.
class HealthSource
{
public:
    virtual ~HealthSource() = default;
    virtual std::optional<HealthReading> read(int gpu) = 0;
    // XID events for this GPU since the last call (or since the source started watching).
    virtual std::vector<XidEvent> takeXids(int gpu) = 0;
};

// Typed, so callers decide on the kind and never on the text.
enum class HealthIssue {
    EccUncorrected,      // volatile uncorrectable ECC errors grew during the test
    EccCorrectedBurst,   // correctable errors grew by more than correctedEccLimit
    RetirementPending,   // a page waits for retirement: the GPU needs a reset
    RetiredPagesGrew,    // pages were retired during the test
    RemapPending,        // a row waits for remapping: the GPU needs a reset
    RemapFailed,         // remapping failed: the GPU has run out of spare rows
    RemappedRowsGrew,    // uncorrectable errors remapped rows during the test
    Xid,                 // the driver logged an XID during the test
    PcieLinkDegraded,    // link generation or width below the device's maximum
    PcieReplays,         // PCIe replays grew by more than pcieReplayLimit
    PcieBandwidthLow,    // host <-> GPU copies below pcieBandwidthFraction of the link's rate
};

struct HealthFinding
{
    HealthIssue issue;
    std::string reason; // a full sentence for the verdict and the drain reason
};

constexpr std::uint64_t correctedEccLimit = 100;  // per test; a few are normal on HBM
constexpr std::uint64_t pcieReplayLimit = 100;    // per test

struct HealthContext
{
    // The PCIe link trains down when idle: judge generation only where the reading was taken
    // under load (right after the pcie test's copies).
    bool linkUnderLoad = false;
    // The pcie test's figures, each GPU alone on its link: judged against the rate of the link
    // the device supports (pcieMaxGen, pcieMaxWidth), so a link that trained down, a bad riser
    // or a slow root port fails even where NVML reports the full width.
    std::optional<double> hostToDeviceGBps;
    std::optional<double> deviceToHostGBps;
};

// One direction of a PCIe link after line encoding, GB/s (PCI-SIG: 2.5, 5, 8, 16, 32, 64 GT/s
// a lane for Gen1-6; 8b/10b for Gen1-2, 128b/130b for Gen3-5, Gen6's FLIT mode 242/256);
// 0 for an unknown generation.
double pcieLinkGBps(unsigned generation, unsigned width);

// The fraction of the link's rate pinned cudaMemcpy must reach: healthy GPUs measure 0.8-0.85
// (A100 on Gen4 x16: ~25 of 31.5 GB/s; H100 on Gen5 x16: ~53-55 of 63); a link at half its
// width or one generation down reaches at most 0.5.
constexpr double pcieBandwidthFraction = 0.7;

// Compares the readings taken before and after one test and the XIDs delivered during it.
std::vector<HealthFinding> judgeHealth(const std::optional<HealthReading> &before,
                                       const std::optional<HealthReading> &after,
                                       const std::vector<XidEvent> &xids, const HealthContext &context);

// One test between two readings, as the runner does it per GPU and test: begin() reads and
// drops XIDs from before the test, end() reads again and judges. A null source judges nothing.
class HealthWatch
{
public:
    HealthWatch(HealthSource *source, int gpu) : m_source(source), m_gpu(gpu) {}
    void begin();
    std::vector<HealthFinding> end(const HealthContext &context);

private:
    HealthSource *m_source;
    int m_gpu;
    std::optional<HealthReading> m_before;
};

// "79 (GPU has fallen off the bus)"; the number alone for XIDs without a known meaning.
std::string xidDescription(unsigned long long xid);

} // namespace strata::burn
