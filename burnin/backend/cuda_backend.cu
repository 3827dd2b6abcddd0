#include "backend.h"
#include "progress_throttle.h"

#include "cublaslt_gemm.h"
#include "cublaslt_library.h"
#include "cuda_check.h"
#include "gemm_check.h"
#include "gemm_kernel.h"
#include "hbm_kernels.h"
#include "link_schedule.h"
#include "reference_kernels.h"
#include "pattern_check.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

namespace strata::burn {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Device memory released on every path out of a test, errors included.
template <typename T>
class DeviceBuffer
{
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    ~DeviceBuffer() { reset(); }
    cudaError_t allocate(std::size_t count)
    {
        reset();
        void *p = nullptr;
        const cudaError_t rc = cudaMalloc(&p, count * sizeof(T));
        m_ptr = static_cast<T *>(p);
        return rc;
    }
    void reset()
    {
        if (m_ptr)
            cudaFree(m_ptr);
        m_ptr = nullptr;
    }
    T *get() const { return m_ptr; }

private:
    T *m_ptr = nullptr;
};

class PinnedBuffer
{
public:
    PinnedBuffer() = default;
    PinnedBuffer(const PinnedBuffer &) = delete;
    PinnedBuffer &operator=(const PinnedBuffer &) = delete;
    ~PinnedBuffer()
    {
        if (m_ptr)
            cudaFreeHost(m_ptr);
    }
    cudaError_t allocate(std::size_t bytes) { return cudaHostAlloc(&m_ptr, bytes, cudaHostAllocDefault); }
    void *get() const { return m_ptr; }

private:
    void *m_ptr = nullptr;
};

class Stream
{
public:
    Stream() = default;
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    ~Stream()
    {
        if (m_stream)
            cudaStreamDestroy(m_stream);
    }
    cudaError_t create() { return cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking); }
    cudaStream_t get() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

class Event
{
public:
    Event() = default;
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
    ~Event()
    {
        if (m_event)
            cudaEventDestroy(m_event);
    }
    cudaError_t create() { return cudaEventCreate(&m_event); }
    cudaEvent_t get() const { return m_event; }

private:
    cudaEvent_t m_event = nullptr;
};

// Times one enqueued piece of work with a pair of events.
struct Timer
{
    Event start, stop;
    cudaError_t create()
    {
        const cudaError_t rc = start.create();
        return rc != cudaSuccess ? rc : stop.create();
    }
};

cudaError_t elapsedSeconds(const Timer &t, double *seconds)
{
    cudaError_t rc = cudaEventSynchronize(t.stop.get());
    if (rc != cudaSuccess)
        return rc;
    float ms = 0;
    rc = cudaEventElapsedTime(&ms, t.start.get(), t.stop.get());
    *seconds = ms / 1000.0;
    return rc;
}

struct CudaDevice
{
    DeviceInfo info;
    int major = 0, minor = 0;
    int multiprocessors = 0;
};

std::string formatUuid(const cudaUUID_t &uuid)
{
    const auto *b = reinterpret_cast<const unsigned char *>(uuid.bytes);
    char text[64];
    std::snprintf(text, sizeof text,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                  b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                  b[13], b[14], b[15]);
    return text;
}

TestResult failed(const char *test, std::string error, Clock::time_point started)
{
    TestResult r;
    r.test = test;
    r.error = std::move(error);
    r.seconds = secondsSince(started);
    return r;
}

class CudaBackend final : public Backend
{
public:
    CudaBackend(std::vector<CudaDevice> devices, std::unique_ptr<CublasLtLibrary> cublasLt, std::string cublasLtStatus)
        : m_devices(std::move(devices)), m_cublasLt(std::move(cublasLt)), m_cublasLtStatus(std::move(cublasLtStatus))
    {
        for (const CudaDevice &d : m_devices)
            m_infos.push_back(d.info);
    }

    std::string name() const override { return "cuda"; }
    const std::vector<DeviceInfo> &devices() const override { return m_infos; }

    TestResult runGemm(int device, const TestParams &params) override;
    TestResult runHbm(int device, const TestParams &params) override;
    TestResult runPcie(int device, const TestParams &params) override;
    TestResult runP2p(int device, const std::vector<int> &peers, const TestParams &params) override;

private:
    bool gemm(int device, const TestParams &params, GemmFigures &figures, std::string &error);
    bool bandwidth(int device, const TestParams &params, double budget, HbmFigures &figures,
                   std::string &error);
    bool patterns(int device, const TestParams &params, Clock::time_point deadline,
                  HbmFigures &figures, std::string &error);
    bool pcie(int device, const TestParams &params, PcieFigures &figures, std::string &error);
    bool p2p(int device, const std::vector<int> &peers, const TestParams &params,
             P2pFigures &figures, std::vector<int> &unreachable, std::string &error);

    int blocksFor(int device) const { return m_devices[device].multiprocessors * 8; }

    std::vector<CudaDevice> m_devices;
    std::vector<DeviceInfo> m_infos;
    std::unique_ptr<CublasLtLibrary> m_cublasLt; // null where libcublasLt did not load
    std::string m_cublasLtStatus;                // why not, or which library loaded
    // Held while one GPU measures a link alone (a P2P pair, a PCIe direction): the other GPU
    // threads wait, so the figure is the link's own, not a share of the switch.
    std::mutex m_linkAlone;
};

bool CudaBackend::gemm(int device, const TestParams &params, GemmFigures &figures, std::string &error)
{
    const CudaDevice &dev = m_devices[device];
    const GemmEnginePlan plan = planGemmEngine(params.gemmEngine, dev.major, dev.minor, m_cublasLt != nullptr, m_cublasLtStatus);
    if (!plan.error.empty()) {
        error = plan.error;
        return false;
    }
    figures.engine = gemmEngineName(plan.stress);
    figures.engineNote = plan.note;
    const bool fp8 = plan.stress == GemmEngine::CublasLtFp8;
    STRATA_CUDA_TRY(cudaSetDevice(device), error, false);
    const int requested = params.gemmSize > 0 ? params.gemmSize : 8192;
    const int size = (requested + gemmTileM - 1) / gemmTileM * gemmTileM;
    const int m = size, n = size, k = size;
    const std::size_t elementsA = std::size_t(m) * k, elementsB = std::size_t(n) * k;
    const std::size_t elementsC = std::size_t(m) * n;
    figures.m = m;
    figures.n = n;
    figures.k = k;

    // Same seeds as the CPU backend: the inputs of one size are identical everywhere.
    const std::vector<Bf16Bits> a = makeGemmInput(elementsA, 0xa11ce);
    const std::vector<Bf16Bits> b = makeGemmInput(elementsB, 0xb0b);
    DeviceBuffer<std::uint16_t> dA, dB;
    DeviceBuffer<std::uint8_t> dA8, dB8;
    DeviceBuffer<float> dFirst, dAgain;
    DeviceBuffer<unsigned long long> dMismatches;
    Stream stream;
    STRATA_CUDA_TRY(stream.create(), error, false);
    STRATA_CUDA_TRY(dA.allocate(elementsA), error, false);
    STRATA_CUDA_TRY(dB.allocate(elementsB), error, false);
    STRATA_CUDA_TRY(dMismatches.allocate(1), error, false);
    STRATA_CUDA_TRY(cudaMemcpy(dA.get(), a.data(), elementsA * 2, cudaMemcpyHostToDevice), error, false);
    STRATA_CUDA_TRY(cudaMemcpy(dB.get(), b.data(), elementsB * 2, cudaMemcpyHostToDevice), error, false);
    STRATA_CUDA_TRY(cudaMemset(dMismatches.get(), 0, sizeof(unsigned long long)), error, false);

    std::vector<Fp8E4m3Bits> a8, b8;
    if (fp8) {
        a8 = makeGemmInputFp8(elementsA, 0xa11ce);
        b8 = makeGemmInputFp8(elementsB, 0xb0b);
        STRATA_CUDA_TRY(dA8.allocate(elementsA), error, false);
        STRATA_CUDA_TRY(dB8.allocate(elementsB), error, false);
        STRATA_CUDA_TRY(cudaMemcpy(dA8.get(), a8.data(), elementsA, cudaMemcpyHostToDevice), error, false);
        STRATA_CUDA_TRY(cudaMemcpy(dB8.get(), b8.data(), elementsB, cudaMemcpyHostToDevice), error, false);
    }
    // The independent reference of every element (fp64 on the CUDA cores, reference_dot.h's
    // bound), kept for the full-matrix check of the first product and the stress loop's slices.
    DeviceBuffer<StoredReference> dReferences;
    DeviceBuffer<unsigned long long> dOutOfBounds; // [0]: first product, [1]: stress-loop slices
    DeviceBuffer<unsigned> dWorstBits;             // the same two
    STRATA_CUDA_TRY(dReferences.allocate(elementsC), error, false);
    STRATA_CUDA_TRY(dOutOfBounds.allocate(2), error, false);
    STRATA_CUDA_TRY(dWorstBits.allocate(2), error, false);
    STRATA_CUDA_TRY(cudaMemsetAsync(dOutOfBounds.get(), 0, 2 * sizeof(unsigned long long), stream.get()), error, false);
    STRATA_CUDA_TRY(cudaMemsetAsync(dWorstBits.get(), 0, 2 * sizeof(unsigned), stream.get()), error, false);
    STRATA_CUDA_TRY(fp8 ? launchReferenceFp8(dA8.get(), dB8.get(), dReferences.get(), m, n, k, stream.get())
                        : launchReferenceBf16(dA.get(), dB.get(), dReferences.get(), m, n, k, stream.get()),
                    error, false);
    // --inject bitflip: a stuck bit (bit 20 of the first sampled element in every product),
    // which the sampled, full-matrix and slice checks must report and the repeat check cannot,
    // and a transient flip in the first repeat, which only the repeat check sees.
    const bool plant = params.injection == Injection::Bitflip;
    const std::size_t stuck = stuckBitElement(m, n);

    STRATA_CUDA_TRY(dFirst.allocate(elementsC), error, false);
    STRATA_CUDA_TRY(dAgain.allocate(elementsC), error, false);
    std::unique_ptr<CublasLtGemm> lt;
    if (plan.stress != GemmEngine::Own) {
        lt = std::make_unique<CublasLtGemm>(*m_cublasLt);
        if (!lt->prepare(plan.stress, m, n, k, &error))
            return false;
    }
    // One product of the stress engine into out, enqueued on the stream.
    auto product = [&](float *out) -> bool {
        if (!lt) {
            STRATA_CUDA_TRY(launchBf16Gemm(dA.get(), dB.get(), out, m, n, k, stream.get()), error, false);
            return true;
        }
        return fp8 ? lt->run(dA8.get(), dB8.get(), out, stream.get(), &error)
                   : lt->run(dA.get(), dB.get(), out, stream.get(), &error);
    };

    Timer first;
    STRATA_CUDA_TRY(first.create(), error, false);
    STRATA_CUDA_TRY(cudaEventRecord(first.start.get(), stream.get()), error, false);
    if (!product(dFirst.get()))
        return false;
    STRATA_CUDA_TRY(cudaEventRecord(first.stop.get(), stream.get()), error, false);
    double firstSeconds = 0;
    STRATA_CUDA_TRY(elapsedSeconds(first, &firstSeconds), error, false);

    if (plant)
        STRATA_CUDA_TRY(launchFlipBit(dFirst.get(), stuck, 20, stream.get()), error, false);
    STRATA_CUDA_TRY(launchCompareWithReference(dFirst.get(), dReferences.get(), 0, elementsC, dOutOfBounds.get(),
                                               dWorstBits.get(), stream.get()),
                    error, false);
    STRATA_CUDA_TRY(cudaStreamSynchronize(stream.get()), error, false);
    std::vector<float> c(elementsC);
    STRATA_CUDA_TRY(cudaMemcpy(c.data(), dFirst.get(), elementsC * 4, cudaMemcpyDeviceToHost), error, false);
    const SampledCheck sampled = fp8 ? checkSampledElementsFp8(a8.data(), b8.data(), c.data(), m, n, k, sampledCount, sampledSeed)
                                     : checkSampledElements(a.data(), b.data(), c.data(), m, n, k, sampledCount, sampledSeed);
    figures.sampledElements = sampled.elements;
    figures.sampledOutOfBounds = sampled.outOfBounds;
    figures.sampledRelError = sampled.worstRelError;
    figures.sampledBoundRatio = sampled.worstBoundRatio;
    figures.iterations = 1;

    // Two timers in flight: the next product is queued before the previous one is read, so
    // the GPU does not idle while the host waits.
    Timer timers[2];
    STRATA_CUDA_TRY(timers[0].create(), error, false);
    STRATA_CUDA_TRY(timers[1].create(), error, false);
    const unsigned long long slowNs = static_cast<unsigned long long>(3.0 * firstSeconds * 1e9);
    const double flops = 2.0 * m * n * k;
    ProgressThrottle progress(params, 1.0);
    double timedSeconds = 0;
    std::int64_t repeats = 0;
    const Clock::time_point loopStart = Clock::now();
    bool more = true;
    while (more) {
        Timer &t = timers[repeats % 2];
        STRATA_CUDA_TRY(cudaEventRecord(t.start.get(), stream.get()), error, false);
        if (!product(dAgain.get()))
            return false;
        if (params.injection == Injection::Slow)
            STRATA_CUDA_TRY(launchSpin(slowNs, stream.get()), error, false);
        STRATA_CUDA_TRY(cudaEventRecord(t.stop.get(), stream.get()), error, false);
        if (plant)
            STRATA_CUDA_TRY(launchFlipBit(dAgain.get(), stuck, 20, stream.get()), error, false);
        if (plant && repeats == 0)
            STRATA_CUDA_TRY(launchFlipBit(dAgain.get(), elementsC / 3, 20, stream.get()), error, false);
        STRATA_CUDA_TRY(launchCountMismatches(dFirst.get(), dAgain.get(), elementsC, dMismatches.get(), stream.get()),
                        error, false);
        // A persistent error repeats bit for bit, so the repeat check cannot see it: a rotating
        // slice of rows is checked against the reference every iteration (every element once
        // every stressSlices iterations), outside the timed window.
        const RowSlice slice = stressSliceRows(repeats, m);
        STRATA_CUDA_TRY(launchCompareWithReference(dAgain.get(), dReferences.get(), std::size_t(slice.begin) * n,
                                                   std::size_t(slice.end) * n, dOutOfBounds.get() + 1,
                                                   dWorstBits.get() + 1, stream.get()),
                        error, false);
        figures.sliceCheckedElements += static_cast<std::int64_t>(slice.end - slice.begin) * n;
        ++repeats;
        more = secondsSince(loopStart) < params.duration.count() && !params.stopRequested();
        if (repeats >= 2) {
            double s = 0;
            STRATA_CUDA_TRY(elapsedSeconds(timers[repeats % 2], &s), error, false);
            timedSeconds += s;
            figures.tflops = flops * static_cast<double>(repeats - 1) / timedSeconds / 1e12;
            progress.report(secondsSince(loopStart) / params.duration.count(), "tflops", figures.tflops);
        }
    }
    double last = 0;
    STRATA_CUDA_TRY(elapsedSeconds(timers[(repeats - 1) % 2], &last), error, false);
    timedSeconds += last;
    figures.tflops = flops * static_cast<double>(repeats) / timedSeconds / 1e12;
    unsigned long long mismatches = 0;
    STRATA_CUDA_TRY(cudaMemcpy(&mismatches, dMismatches.get(), sizeof mismatches, cudaMemcpyDeviceToHost),
                    error, false);
    figures.mismatches = static_cast<std::int64_t>(mismatches);
    unsigned long long outOfBounds[2] = {};
    unsigned worstBits[2] = {};
    STRATA_CUDA_TRY(cudaMemcpy(outOfBounds, dOutOfBounds.get(), sizeof outOfBounds, cudaMemcpyDeviceToHost), error, false);
    STRATA_CUDA_TRY(cudaMemcpy(worstBits, dWorstBits.get(), sizeof worstBits, cudaMemcpyDeviceToHost), error, false);
    figures.referenceCheckedElements = static_cast<std::int64_t>(elementsC);
    figures.referenceOutOfBounds = static_cast<std::int64_t>(outOfBounds[0]);
    figures.referenceWorstRatio = floatFromBits(worstBits[0]);
    figures.sliceOutOfBounds = static_cast<std::int64_t>(outOfBounds[1]);
    figures.sliceWorstRatio = floatFromBits(worstBits[1]);
    figures.iterations += repeats;
    return true;
}

TestResult CudaBackend::runGemm(int device, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    GemmFigures figures;
    std::string error;
    if (!gemm(device, params, figures, error))
        return failed("gemm", error, started);
    TestResult r;
    r.test = "gemm";
    r.figures = figures;
    r.seconds = secondsSince(started);
    return r;
}

bool CudaBackend::bandwidth(int device, const TestParams &params, double budget, HbmFigures &figures,
                            std::string &error)
{
    std::size_t freeBytes = 0, totalBytes = 0;
    STRATA_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), error, false);
    // Far past the L2 (tens of MiB) so the figures are HBM's, small next to the memory.
    const std::size_t bytes = std::min<std::size_t>(4ull << 30, freeBytes / 4) / 4096 * 4096;
    figures.bandwidthBytes = bytes;
    DeviceBuffer<unsigned char> src, dst;
    DeviceBuffer<unsigned long long> sink;
    Stream stream;
    Timer timer;
    STRATA_CUDA_TRY(stream.create(), error, false);
    STRATA_CUDA_TRY(timer.create(), error, false);
    STRATA_CUDA_TRY(src.allocate(bytes), error, false);
    STRATA_CUDA_TRY(dst.allocate(bytes), error, false);
    STRATA_CUDA_TRY(sink.allocate(1), error, false);
    STRATA_CUDA_TRY(cudaMemset(src.get(), 0x3c, bytes), error, false);
    const int blocks = blocksFor(device);
    double readS = 0, writeS = 0, copyS = 0;
    std::int64_t reps = 0;
    ProgressThrottle progress(params, 1.0);
    const Clock::time_point begin = Clock::now();
    auto timed = [&](auto launch, double &total) -> bool {
        STRATA_CUDA_TRY(cudaEventRecord(timer.start.get(), stream.get()), error, false);
        STRATA_CUDA_TRY(launch(), error, false);
        STRATA_CUDA_TRY(cudaEventRecord(timer.stop.get(), stream.get()), error, false);
        double s = 0;
        STRATA_CUDA_TRY(elapsedSeconds(timer, &s), error, false);
        if (params.injection == Injection::Slow) {
            STRATA_CUDA_TRY(cudaEventRecord(timer.start.get(), stream.get()), error, false);
            STRATA_CUDA_TRY(launchSpin(static_cast<unsigned long long>(3e9 * s), stream.get()), error, false);
            STRATA_CUDA_TRY(cudaEventRecord(timer.stop.get(), stream.get()), error, false);
            double spun = 0;
            STRATA_CUDA_TRY(elapsedSeconds(timer, &spun), error, false);
            s += spun;
        }
        total += s;
        return true;
    };
    do {
        if (!timed([&] { return launchReadBandwidth(src.get(), bytes, sink.get(), blocks, stream.get()); }, readS)
            || !timed([&] { return launchWriteBandwidth(dst.get(), bytes, blocks, stream.get()); }, writeS)
            || !timed([&] { return launchCopyBandwidth(src.get(), dst.get(), bytes, blocks, stream.get()); }, copyS))
            return false;
        ++reps;
        figures.copyTBps = 2.0 * bytes * reps / copyS / 1e12;
        progress.report(secondsSince(begin) / params.duration.count(), "copyTBps", figures.copyTBps);
    } while ((secondsSince(begin) < budget || reps < 3) && !params.stopRequested());
    figures.readTBps = static_cast<double>(bytes) * reps / readS / 1e12;
    figures.writeTBps = static_cast<double>(bytes) * reps / writeS / 1e12;
    return true;
}

bool CudaBackend::patterns(int device, const TestParams &params, Clock::time_point deadline,
                           HbmFigures &figures, std::string &error)
{
    std::size_t freeBytes = 0, totalBytes = 0;
    STRATA_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), error, false);
    // Most of free memory; leave room for the driver and other processes' small allocations.
    const std::size_t reserve = std::max<std::size_t>(512ull << 20, freeBytes / 20);
    std::size_t bytes = freeBytes > 2 * reserve ? (freeBytes - reserve) / 4096 * 4096 : freeBytes / 2 / 4096 * 4096;
    DeviceBuffer<std::uint64_t> region;
    for (;;) {
        const cudaError_t rc = region.allocate(bytes / 8);
        if (rc == cudaSuccess)
            break;
        cudaGetLastError();
        if (rc != cudaErrorMemoryAllocation || bytes < (64ull << 20)) {
            error = cudaErrorText(rc, "cudaMalloc(pattern region)");
            return false;
        }
        bytes = bytes / 10 * 9 / 4096 * 4096; // fragmented: take a little less
    }
    figures.patternBytes = bytes;
    const std::size_t words = bytes / 8;
    DeviceBuffer<DevicePatternCounters> counters;
    DeviceBuffer<DevicePatternError> errors;
    const int blocks = blocksFor(device);
    DeviceBuffer<PatternTally> blockTallies;
    std::vector<PatternTally> tallies(static_cast<std::size_t>(blocks));
    Stream stream;
    STRATA_CUDA_TRY(stream.create(), error, false);
    STRATA_CUDA_TRY(counters.allocate(1), error, false);
    STRATA_CUDA_TRY(errors.allocate(maxReportedErrors), error, false);
    STRATA_CUDA_TRY(blockTallies.allocate(tallies.size()), error, false);
    bool seen[patternKindCount] = {};
    ProgressThrottle progress(params, 1.0);
    do {
        const auto kind = static_cast<PatternKind>(figures.patternPasses % patternKindCount);
        const std::uint64_t seed = static_cast<std::uint64_t>(figures.patternPasses);
        STRATA_CUDA_TRY(cudaMemsetAsync(counters.get(), 0, sizeof(DevicePatternCounters), stream.get()), error, false);
        STRATA_CUDA_TRY(launchFillPattern(region.get(), words, kind, seed, blocks, stream.get()), error, false);
        if (params.injection == Injection::Bitflip && figures.patternPasses == 0)
            STRATA_CUDA_TRY(launchFlipBit(region.get(), (words / 3) * 2, 17, stream.get()), error, false);
        if (params.dwell.count() > 0) {
            STRATA_CUDA_TRY(cudaStreamSynchronize(stream.get()), error, false);
            const auto dwellEnd = Clock::now() + std::chrono::duration_cast<Clock::duration>(params.dwell);
            while (Clock::now() < dwellEnd && !params.stopRequested())
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        PatternTally pass;
        auto collect = [&]() -> bool {
            STRATA_CUDA_TRY(cudaMemcpyAsync(tallies.data(), blockTallies.get(), tallies.size() * sizeof(PatternTally),
                                            cudaMemcpyDeviceToHost, stream.get()),
                            error, false);
            STRATA_CUDA_TRY(cudaStreamSynchronize(stream.get()), error, false);
            for (const PatternTally &t : tallies)
                mergeTally(pass, t);
            return true;
        };
        if (kind == PatternKind::MovingInversions) {
            const std::uint64_t p = patternWord(kind, seed, 0);
            struct Phase { std::uint64_t expected, replacement; bool descending; };
            for (const Phase &phase : {Phase{p, ~p, false}, Phase{~p, p, true}, Phase{p, p, false}}) {
                STRATA_CUDA_TRY(launchMarchPhase(region.get(), words, phase.expected, phase.replacement,
                                                 phase.descending, blockTallies.get(), counters.get(),
                                                 errors.get(), maxReportedErrors, blocks, stream.get()),
                                error, false);
                if (!collect())
                    return false;
            }
        } else {
            STRATA_CUDA_TRY(launchCheckPattern(region.get(), words, kind, seed, blockTallies.get(), counters.get(),
                                               errors.get(), maxReportedErrors, blocks, stream.get()),
                            error, false);
            if (!collect())
                return false;
        }
        DevicePatternCounters c{};
        STRATA_CUDA_TRY(cudaMemcpyAsync(&c, counters.get(), sizeof c, cudaMemcpyDeviceToHost, stream.get()), error, false);
        STRATA_CUDA_TRY(cudaStreamSynchronize(stream.get()), error, false);
        if (pass.wordErrors) {
            const unsigned stored = std::min<unsigned>(c.recorded, maxReportedErrors);
            std::vector<DevicePatternError> found(stored);
            STRATA_CUDA_TRY(cudaMemcpy(found.data(), errors.get(), stored * sizeof(DevicePatternError),
                                       cudaMemcpyDeviceToHost),
                            error, false);
            std::sort(found.begin(), found.end(),
                      [](const DevicePatternError &x, const DevicePatternError &y) { return x.offset < y.offset; });
            for (const DevicePatternError &e : found)
                if (figures.errors.size() < maxReportedErrors)
                    figures.errors.push_back({e.offset, e.expected, e.actual});
        }
        figures.bitErrors = saturatingAdd(figures.bitErrors, pass.bitErrors);
        figures.wordErrors = saturatingAdd(figures.wordErrors, pass.wordErrors);
        if (!seen[static_cast<int>(kind)]) {
            seen[static_cast<int>(kind)] = true;
            figures.patterns.push_back(patternName(kind));
        }
        ++figures.patternPasses;
        progress.report(1.0 - std::chrono::duration<double>(deadline - Clock::now()).count()
                                  / params.duration.count(),
                        "bitErrors", static_cast<double>(figures.bitErrors));
    } while ((Clock::now() < deadline || figures.patternPasses < patternKindCount) && !params.stopRequested());
    return true;
}

TestResult CudaBackend::runHbm(int device, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    const auto deadline = started + std::chrono::duration_cast<Clock::duration>(params.duration);
    HbmFigures figures;
    std::string error;
    if (cudaSetDevice(device) != cudaSuccess)
        return failed("hbm", "cudaSetDevice failed", started);
    // A third of the time for bandwidth, the rest for patterns over most of the memory.
    if (!bandwidth(device, params, params.duration.count() / 3.0, figures, error)
        || !patterns(device, params, deadline, figures, error))
        return failed("hbm", error, started);
    TestResult r;
    r.test = "hbm";
    r.figures = figures;
    r.seconds = secondsSince(started);
    return r;
}

bool CudaBackend::pcie(int device, const TestParams &params, PcieFigures &figures, std::string &error)
{
    STRATA_CUDA_TRY(cudaSetDevice(device), error, false);
    const std::size_t bytes = 256ull << 20;
    figures.bytes = bytes;
    PinnedBuffer host, back;
    DeviceBuffer<unsigned char> dev;
    Stream stream;
    Timer timer;
    STRATA_CUDA_TRY(host.allocate(bytes), error, false);
    STRATA_CUDA_TRY(back.allocate(bytes), error, false);
    STRATA_CUDA_TRY(dev.allocate(bytes), error, false);
    STRATA_CUDA_TRY(stream.create(), error, false);
    STRATA_CUDA_TRY(timer.create(), error, false);
    // Data check: a seeded pattern goes host -> GPU -> host and is compared on arrival.
    const std::uint64_t seed = linkSeed(device, -1, 0);
    fillLinkPattern(static_cast<std::uint64_t *>(host.get()), bytes / 8, seed);
    auto measure = [&](cudaMemcpyKind kind, double budget, double *gbps) -> bool {
        void *to = kind == cudaMemcpyHostToDevice ? dev.get() : back.get();
        void *from = kind == cudaMemcpyHostToDevice ? host.get() : dev.get();
        const Clock::time_point begin = Clock::now();
        double seconds = 0;
        std::int64_t reps = 0;
        do {
            STRATA_CUDA_TRY(cudaEventRecord(timer.start.get(), stream.get()), error, false);
            STRATA_CUDA_TRY(cudaMemcpyAsync(to, from, bytes, kind, stream.get()), error, false);
            STRATA_CUDA_TRY(cudaEventRecord(timer.stop.get(), stream.get()), error, false);
            double s = 0;
            STRATA_CUDA_TRY(elapsedSeconds(timer, &s), error, false);
            seconds += s;
            ++reps;
        } while ((secondsSince(begin) < budget || reps < 3) && !params.stopRequested());
        *gbps = static_cast<double>(bytes) * reps / seconds / 1e9;
        return true;
    };
    // Each GPU alone (the others wait on m_linkAlone), then all GPUs' threads at once.
    const double quarter = params.duration.count() / 4.0;
    {
        const std::lock_guard lock(m_linkAlone);
        if (!measure(cudaMemcpyHostToDevice, quarter, &figures.hostToDeviceGBps)
            || !measure(cudaMemcpyDeviceToHost, quarter, &figures.deviceToHostGBps))
            return false;
    }
    figures.mismatchedWords = countLinkMismatches(static_cast<const std::uint64_t *>(back.get()), bytes / 8, seed);
    params.sync(); // every GPU has measured alone: the together phase starts on all at once
    double h2d = 0, d2h = 0;
    if (!measure(cudaMemcpyHostToDevice, quarter, &h2d) || !measure(cudaMemcpyDeviceToHost, quarter, &d2h))
        return false;
    figures.hostToDeviceTogetherGBps = h2d;
    figures.deviceToHostTogetherGBps = d2h;
    figures.mismatchedWords = saturatingAdd(figures.mismatchedWords,
        countLinkMismatches(static_cast<const std::uint64_t *>(back.get()), bytes / 8, seed));
    return true;
}

TestResult CudaBackend::runPcie(int device, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    PcieFigures figures;
    std::string error;
    if (!pcie(device, params, figures, error))
        return failed("pcie", error, started);
    TestResult r;
    r.test = "pcie";
    r.figures = figures;
    r.seconds = secondsSince(started);
    return r;
}

bool CudaBackend::p2p(int device, const std::vector<int> &peers, const TestParams &params,
                      P2pFigures &figures, std::vector<int> &unreachable, std::string &error)
{
    STRATA_CUDA_TRY(cudaSetDevice(device), error, false);
    std::vector<int> reachable{device};
    for (int peer : peers) {
        int can = 0;
        STRATA_CUDA_TRY(cudaDeviceCanAccessPeer(&can, device, peer), error, false);
        if (can)
            reachable.push_back(peer);
        else
            unreachable.push_back(peer);
    }
    std::sort(reachable.begin(), reachable.end());
    reachable.erase(std::unique(reachable.begin(), reachable.end()), reachable.end());
    const int rounds = static_cast<int>(reachable.size()) - 1;
    if (rounds < 1)
        return true;
    const std::size_t bytes = 256ull << 20;
    const std::size_t words = bytes / 8;
    figures.bytes = bytes;
    DeviceBuffer<std::uint64_t> src;
    DeviceBuffer<PatternTally> tallies;
    DeviceBuffer<DevicePatternCounters> counters;
    DeviceBuffer<DevicePatternError> slots;
    const int blocks = blocksFor(device);
    std::vector<PatternTally> hostTallies(static_cast<std::size_t>(blocks));
    Stream stream;
    Timer timer;
    STRATA_CUDA_TRY(src.allocate(words), error, false);
    STRATA_CUDA_TRY(tallies.allocate(hostTallies.size()), error, false);
    STRATA_CUDA_TRY(counters.allocate(1), error, false);
    STRATA_CUDA_TRY(slots.allocate(maxReportedErrors), error, false);
    STRATA_CUDA_TRY(stream.create(), error, false);
    STRATA_CUDA_TRY(timer.create(), error, false);
    const double perCopy = params.duration.count() / (2.0 * rounds);
    // One ring pair: fill with the pair's seeded pattern, copy for perCopy, then read the peer's
    // copy back through peer access with the memory test's check kernel.
    auto copy = [&](int peer, int round, bool alone, double *gbps) -> bool {
        const cudaError_t enable = cudaDeviceEnablePeerAccess(peer, 0);
        if (enable != cudaSuccess && enable != cudaErrorPeerAccessAlreadyEnabled) {
            error = cudaErrorText(enable, "cudaDeviceEnablePeerAccess");
            return false;
        }
        cudaGetLastError(); // clears the sticky "already enabled" the call above may leave
        const std::uint64_t seed = linkSeed(device, peer, round);
        STRATA_CUDA_TRY(launchFillPattern(src.get(), words, PatternKind::Random, seed, blocks, stream.get()), error, false);
        DeviceBuffer<std::uint64_t> dst;
        STRATA_CUDA_TRY(cudaSetDevice(peer), error, false);
        const cudaError_t rc = dst.allocate(words);
        STRATA_CUDA_TRY(cudaSetDevice(device), error, false);
        STRATA_CUDA_TRY(rc, error, false);
        std::unique_lock lock(m_linkAlone, std::defer_lock);
        if (alone)
            lock.lock(); // no other GPU of this node copies meanwhile: the pair's own bandwidth
        const Clock::time_point begin = Clock::now();
        double seconds = 0;
        std::int64_t reps = 0;
        do {
            STRATA_CUDA_TRY(cudaEventRecord(timer.start.get(), stream.get()), error, false);
            STRATA_CUDA_TRY(cudaMemcpyPeerAsync(dst.get(), peer, src.get(), device, bytes, stream.get()), error, false);
            STRATA_CUDA_TRY(cudaEventRecord(timer.stop.get(), stream.get()), error, false);
            double s = 0;
            STRATA_CUDA_TRY(elapsedSeconds(timer, &s), error, false);
            seconds += s;
            ++reps;
        } while ((secondsSince(begin) < perCopy || reps < 3) && !params.stopRequested());
        if (lock.owns_lock())
            lock.unlock();
        *gbps = static_cast<double>(bytes) * reps / seconds / 1e9;
        if (params.injection == Injection::Bitflip && round == 1 && alone)
            STRATA_CUDA_TRY(launchFlipBit(dst.get(), words, 9, stream.get()), error, false);
        STRATA_CUDA_TRY(cudaMemsetAsync(counters.get(), 0, sizeof(DevicePatternCounters), stream.get()), error, false);
        STRATA_CUDA_TRY(launchCheckPattern(dst.get(), words, PatternKind::Random, seed, tallies.get(), counters.get(),
                                           slots.get(), maxReportedErrors, blocks, stream.get()),
                        error, false);
        STRATA_CUDA_TRY(cudaMemcpyAsync(hostTallies.data(), tallies.get(), hostTallies.size() * sizeof(PatternTally),
                                        cudaMemcpyDeviceToHost, stream.get()),
                        error, false);
        STRATA_CUDA_TRY(cudaStreamSynchronize(stream.get()), error, false);
        for (const PatternTally &t : hostTallies)
            figures.mismatchedWords = saturatingAdd(figures.mismatchedWords, t.wordErrors);
        // dst lives on the peer: free it with the peer current, as cudaFree wants.
        STRATA_CUDA_TRY(cudaSetDevice(peer), error, false);
        dst.reset();
        STRATA_CUDA_TRY(cudaSetDevice(device), error, false);
        return true;
    };
    // The ring schedule (link_schedule.h): every pair alone, then round by round with every
    // GPU of the run copying to its own round peer at the same time.
    for (int r = 1; r <= rounds; ++r) {
        PeerFigure f;
        f.peer = ringPairOf(reachable, device, r).to;
        f.round = r;
        if (!copy(f.peer, r, true, &f.GBps))
            return false;
        figures.peers.push_back(f);
    }
    for (PeerFigure &f : figures.peers) {
        params.sync(); // each together round starts on every GPU at once
        double together = 0;
        if (!copy(f.peer, f.round, false, &together))
            return false;
        f.togetherGBps = together;
    }
    return true;
}

TestResult CudaBackend::runP2p(int device, const std::vector<int> &peers, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    TestResult r;
    r.test = "p2p";
    if (peers.empty()) {
        r.skipReason = "no peer GPU in this run";
        return r;
    }
    P2pFigures figures;
    std::vector<int> unreachable;
    std::string error;
    if (!p2p(device, peers, params, figures, unreachable, error))
        return failed("p2p", error, started);
    if (figures.peers.empty()) {
        r.skipReason = "no peer access from GPU " + std::to_string(device) + " to any other GPU of this run";
        return r;
    }
    figures.unreachable = unreachable;
    r.figures = figures;
    r.seconds = secondsSince(started);
    return r;
}

} // namespace

std::unique_ptr<Backend> makeCudaBackend(std::string *error)
{
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess) {
        *error = cudaErrorText(rc, "cudaGetDeviceCount");
        return nullptr;
    }
    if (count == 0) {
        *error = "the CUDA runtime sees no GPU";
        return nullptr;
    }
    std::vector<CudaDevice> devices;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        const cudaError_t p = cudaGetDeviceProperties(&prop, i);
        if (p != cudaSuccess) {
            *error = cudaErrorText(p, "cudaGetDeviceProperties");
            return nullptr;
        }
        CudaDevice d;
        d.info.index = i;
        d.info.uuid = formatUuid(prop.uuid);
        d.info.name = prop.name;
        d.info.memoryBytes = prop.totalGlobalMem;
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess)
            d.info.pciBusId = bus;
        d.major = prop.major;
        d.minor = prop.minor;
        d.multiprocessors = prop.multiProcessorCount;
        devices.push_back(d);
    }
    std::string cublasLtStatus;
    std::unique_ptr<CublasLtLibrary> cublasLt = CublasLtLibrary::load(&cublasLtStatus);
    if (cublasLt)
        cublasLtStatus = cublasLt->path() + " " + std::to_string(cublasLt->version());
    return std::make_unique<CudaBackend>(std::move(devices), std::move(cublasLt), std::move(cublasLtStatus));
}

} // namespace strata::burn
