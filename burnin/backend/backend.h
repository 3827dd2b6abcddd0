#pragma once

#include "gemm_engine.h"
#include "test_result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace strata::burn {

struct DeviceInfo
{
    int index = 0;              // the backend's device ordinal, as --gpus names it
    std::string uuid;           // "GPU-…" on CUDA; "CPU-<host>-<index>" for simulated devices
    std::string name;           // as the driver reports it, "NVIDIA H200"
    std::string pciBusId;       // empty for simulated devices
    std::uint64_t memoryBytes = 0;
};

// A fault to plant on one device, so that a self-test proves detection works.
enum class Injection { None, Bitflip, Slow };

// Called from the device's own thread while a test runs; fraction in [0, 1].
using ProgressCallback = std::function<void(double fraction, const char *figure, double value)>;

struct TestParams
{
    std::chrono::duration<double> duration{60.0};
    Injection injection = Injection::None;
    int gemmSize = 0;   // 0: the backend's default
    // Which engine loads the GPU in the GEMM test (CUDA; the CPU backend has one).
    GemmEngineRequest gemmEngine = GemmEngineRequest::Auto;
    // Memory test: time each pattern sits in memory between its fill and its check, so cells
    // that leak charge (retention faults) read back wrong. 0: check at once.
    std::chrono::duration<double> dwell{0.0};
    ProgressCallback progress;
    // Link tests (pcie, p2p): returns once every GPU of the run has called it as often (a
    // barrier between the "alone" and the "together" phases, and between together rounds), so
    // "together" figures are every GPU copying at once. Null: no other GPU to wait for.
    std::function<void()> syncPhase;
    // Set from a signal handler (SIGTERM from scancel): end the test early with what it has.
    const std::atomic<bool> *stop = nullptr;

    bool stopRequested() const { return stop && stop->load(std::memory_order_relaxed); }
    void sync() const
    {
        if (syncPhase)
            syncPhase();
    }
};

// One compute backend (like nvtop's per-vendor struct): the runner loops over devices and
// tests and never knows which backend it talks to. Each run* method is called from one thread
// per device, concurrently for different devices, and must be safe for that. A method reports
// failures in TestResult::error and never throws.
class Backend
{
public:
    virtual ~Backend() = default;

    virtual std::string name() const = 0; // "cpu" or "cuda"
    virtual const std::vector<DeviceInfo> &devices() const = 0;

    virtual TestResult runGemm(int device, const TestParams &params) = 0;
    virtual TestResult runHbm(int device, const TestParams &params) = 0;
    virtual TestResult runPcie(int device, const TestParams &params) = 0;
    virtual TestResult runP2p(int device, const std::vector<int> &peers,
                              const TestParams &params) = 0;
};

struct CpuBackendConfig
{
    int deviceCount = 8;
    std::uint64_t memoryBytes = 8ull << 20;
    std::string host;
};

std::unique_ptr<Backend> makeCpuBackend(const CpuBackendConfig &config);

// Returns null and sets *error when the agent was built without CUDA, or no GPU is usable.
std::unique_ptr<Backend> makeCudaBackend(std::string *error);

} // namespace strata::burn
