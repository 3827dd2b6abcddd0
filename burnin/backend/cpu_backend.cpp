#include "backend.h"
#include "progress_throttle.h"

#include "gemm_check.h"
#include "link_schedule.h"
#include "pattern_check.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>

namespace strata::burn {

namespace {

using Clock = std::chrono::steady_clock;

// Enough repetitions that the best one is the device's own figure even on a busy host.
constexpr std::int64_t bandwidthReps = 128;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// "Slow" self-test: the device idles five times as long as it worked, inside the timed window,
// so its figures drop to about a sixth of its peers', well under the judge's cpu peer fraction
// (30 %) even when the host's load makes healthy peers uneven.
void slowDown(const TestParams &params, double workedSeconds)
{
    if (params.injection == Injection::Slow)
        std::this_thread::sleep_for(std::chrono::duration<double>(5.0 * workedSeconds));
}

// A host buffer standing in for one device's memory. Simulated devices share no memory, so
// the per-device threads never race on it.
struct CpuDevice
{
    DeviceInfo info;
    std::vector<std::uint64_t> memory;
    volatile std::uint64_t sink = 0; // keeps the read-bandwidth loop from being optimised away
};

class CpuBackend final : public Backend
{
public:
    explicit CpuBackend(const CpuBackendConfig &config)
    {
        for (int i = 0; i < config.deviceCount; ++i) {
            auto device = std::make_unique<CpuDevice>();
            device->info.index = i;
            device->info.uuid = "CPU-" + config.host + "-" + std::to_string(i);
            device->info.name = "CPU simulated device";
            device->info.memoryBytes = config.memoryBytes;
            device->memory.resize(std::max<std::uint64_t>(config.memoryBytes / 8, 1024));
            m_infos.push_back(device->info);
            m_devices.push_back(std::move(device));
        }
    }

    std::string name() const override { return "cpu"; }
    const std::vector<DeviceInfo> &devices() const override { return m_infos; }

    TestResult runGemm(int device, const TestParams &params) override;
    TestResult runHbm(int device, const TestParams &params) override;
    TestResult runPcie(int device, const TestParams &params) override;
    TestResult runP2p(int device, const std::vector<int> &peers, const TestParams &params) override;

private:
    // Simulated devices share the host's few cores and memory bus. Work runs one device at a
    // time so each device's figure is its own, not a share of contended cores, and peers
    // compare like the GPUs of one node would.
    std::mutex m_timedWork;
    std::vector<std::unique_ptr<CpuDevice>> m_devices;
    std::vector<DeviceInfo> m_infos;
};

TestResult CpuBackend::runGemm(int, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    const int size = params.gemmSize > 0 ? params.gemmSize : 128;
    const int m = size, n = size, k = size;
    const std::vector<Bf16Bits> a = makeGemmInput(static_cast<std::size_t>(m) * k, 0xa11ce);
    const std::vector<Bf16Bits> b = makeGemmInput(static_cast<std::size_t>(n) * k, 0xb0b);
    std::vector<float> first(static_cast<std::size_t>(m) * n);
    std::vector<float> again(first.size());

    gemmBf16Reference(a.data(), b.data(), first.data(), m, n, k);
    // --inject bitflip: a stuck bit in every product (the first sampled element, bit 20), which
    // the sampled, full-matrix and slice checks must see and the repeat check cannot, and one
    // transient flip in the first repeat, which only the repeat check sees.
    const bool plant = params.injection == Injection::Bitflip;
    const std::size_t stuck = stuckBitElement(m, n);
    if (plant)
        first[stuck] = floatFromBits(bitsFromFloat(first[stuck]) ^ (1u << 20));
    // The same checks, with the same per-element code, as the CUDA backend: 256 elements against
    // the host's double reference, then every element of the first product against the stored
    // references (the device's reference kernel), then a rotating row slice each iteration.
    const SampledCheck sampled =
        checkSampledElements(a.data(), b.data(), first.data(), m, n, k, sampledCount, sampledSeed);
    const std::vector<StoredReference> references = storedReferences(a.data(), b.data(), n, k, 0, m);
    const RegionCheck whole = checkRegion(first.data(), references.data(), 0, n, 0, m);

    GemmFigures figures;
    figures.engine = gemmEngineName(GemmEngine::Cpu);
    figures.m = m;
    figures.n = n;
    figures.k = k;
    figures.iterations = 1;
    figures.sampledElements = sampled.elements;
    figures.sampledOutOfBounds = sampled.outOfBounds;
    figures.sampledRelError = sampled.worstRelError;
    figures.sampledBoundRatio = sampled.worstBoundRatio;
    figures.referenceCheckedElements = whole.elements;
    figures.referenceOutOfBounds = whole.outOfBounds;
    figures.referenceWorstRatio = whole.worstRatio;

    ProgressThrottle progress(params, 0.2);
    const double flopsPerProduct = 2.0 * m * n * k;
    // The host is shared with other work, so a simulated device's figure is its best
    // iteration, not the mean: other processes' noise then cannot make peers look unequal,
    // and the slow self-test, which slows every iteration, still shows.
    double bestSeconds = 0;
    std::int64_t repeats = 0;
    const Clock::time_point loopStart = Clock::now();
    do {
        double worked = 0;
        {
            const std::lock_guard lock(m_timedWork);
            const Clock::time_point t0 = Clock::now();
            gemmBf16Reference(a.data(), b.data(), again.data(), m, n, k);
            worked = secondsSince(t0);
        }
        const Clock::time_point slept = Clock::now();
        slowDown(params, worked);
        const double iteration = worked + secondsSince(slept);
        bestSeconds = repeats == 0 ? iteration : std::min(bestSeconds, iteration);
        ++repeats;
        if (plant)
            again[stuck] = floatFromBits(bitsFromFloat(again[stuck]) ^ (1u << 20));
        if (plant && repeats == 1)
            again[again.size() / 3] = floatFromBits(bitsFromFloat(again[again.size() / 3]) ^ (1u << 20));
        figures.mismatches += countMismatches(first.data(), again.data(), first.size());
        const RowSlice slice = stressSliceRows(repeats - 1, m);
        const RegionCheck sliceCheck = checkRegion(again.data(), references.data(), 0, n, slice.begin, slice.end);
        figures.sliceCheckedElements += sliceCheck.elements;
        figures.sliceOutOfBounds += sliceCheck.outOfBounds;
        figures.sliceWorstRatio = std::max(figures.sliceWorstRatio, sliceCheck.worstRatio);
        figures.tflops = flopsPerProduct / bestSeconds / 1e12;
        progress.report(secondsSince(loopStart) / params.duration.count(), "tflops", figures.tflops);
    } while (secondsSince(loopStart) < params.duration.count() && !params.stopRequested());

    figures.iterations += repeats;
    TestResult result;
    result.test = "gemm";
    result.figures = figures;
    result.seconds = secondsSince(started);
    return result;
}

TestResult CpuBackend::runHbm(int deviceIndex, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    CpuDevice &device = *m_devices[static_cast<std::size_t>(deviceIndex)];
    std::vector<std::uint64_t> &memory = device.memory;
    const std::size_t words = memory.size();
    const std::size_t half = words / 2;
    const std::size_t halfBytes = half * 8;
    HbmFigures figures;
    figures.bandwidthBytes = halfBytes;
    figures.patternBytes = words * 8;
    ProgressThrottle progress(params, 0.2);

    // Bandwidth: a fixed number of repetitions back to back while this device holds the host,
    // so its buffer stays in the same cache state throughout and no other simulated device
    // evicts it midway; the best repetition counts, as for the GEMM. The rest of the duration
    // runs the patterns over the whole buffer.
    double readS = 0, writeS = 0, copyS = 0;
    {
        const std::lock_guard lock(m_timedWork);
        auto timed = [&](auto work, double &best) {
            const Clock::time_point t = Clock::now();
            work();
            slowDown(params, secondsSince(t));
            const double iteration = secondsSince(t);
            best = best == 0 ? iteration : std::min(best, iteration);
        };
        for (std::int64_t rep = 0; rep < bandwidthReps; ++rep) {
            timed([&] { std::fill(memory.begin(), memory.begin() + static_cast<std::ptrdiff_t>(half), rep + 1); },
                  writeS);
            timed([&] {
                std::uint64_t sum = 0;
                for (std::size_t i = 0; i < half; ++i)
                    sum += memory[i];
                device.sink = sum;
            }, readS);
            timed([&] { std::memcpy(memory.data() + half, memory.data(), halfBytes); }, copyS);
        }
    }
    figures.readTBps = static_cast<double>(halfBytes) / readS / 1e12;
    figures.writeTBps = static_cast<double>(halfBytes) / writeS / 1e12;
    figures.copyTBps = 2.0 * halfBytes / copyS / 1e12;
    progress.report(secondsSince(started) / params.duration.count(), "copyTBps", figures.copyTBps);

    bool seen[patternKindCount] = {};
    do {
        const auto kind = static_cast<PatternKind>(figures.patternPasses % patternKindCount);
        const std::uint64_t seed = static_cast<std::uint64_t>(figures.patternPasses);
        PatternCheck check;
        // The dwell runs without the lock: the memory just sits, as a GPU's would.
        auto dwell = [&] {
            if (params.dwell.count() > 0 && !params.stopRequested())
                std::this_thread::sleep_for(params.dwell);
        };
        const std::size_t slots = maxReportedErrors - figures.errors.size();
        if (kind == PatternKind::MovingInversions) {
            // --inject bitflip plants its one flip in pass 0 (walking ones); tst_burnin_verification
            // plants stuck cells in the march itself.
            std::unique_lock lock(m_timedWork);
            check = movingInversions(memory.data(), words, seed, slots, nullptr, [&] {
                lock.unlock();
                dwell();
                lock.lock();
            });
        } else {
            {
                const std::lock_guard lock(m_timedWork);
                fillPattern(memory.data(), words, kind, seed);
                if (params.injection == Injection::Bitflip && figures.patternPasses == 0)
                    memory[words / 3] ^= 1ull << 17;
            }
            dwell();
            const std::lock_guard lock(m_timedWork);
            check = checkPattern(memory.data(), words, kind, seed, slots);
        }
        figures.bitErrors = saturatingAdd(figures.bitErrors, check.bitErrors);
        figures.wordErrors = saturatingAdd(figures.wordErrors, check.wordErrors);
        figures.errors.insert(figures.errors.end(), check.errors.begin(), check.errors.end());
        if (!seen[static_cast<int>(kind)]) {
            seen[static_cast<int>(kind)] = true;
            figures.patterns.push_back(patternName(kind));
        }
        ++figures.patternPasses;
        progress.report(secondsSince(started) / params.duration.count(), "bitErrors",
                        static_cast<double>(figures.bitErrors));
    } while ((secondsSince(started) < params.duration.count() || figures.patternPasses < patternKindCount)
             && !params.stopRequested());

    TestResult result;
    result.test = "hbm";
    result.figures = figures;
    result.seconds = secondsSince(started);
    return result;
}

TestResult CpuBackend::runPcie(int device, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    std::vector<std::uint64_t> &memory = m_devices[static_cast<std::size_t>(device)]->memory;
    const std::size_t bytes = memory.size() * 8 / 2;
    std::vector<std::uint64_t> host(bytes / 8), back(bytes / 8);
    const std::uint64_t seed = linkSeed(device, -1, 0);
    fillLinkPattern(host.data(), host.size(), seed);
    PcieFigures figures;
    figures.bytes = bytes;
    figures.standIn = true;
    double h2dS = 0, d2hS = 0;
    std::int64_t reps = 0;
    do {
        const std::lock_guard lock(m_timedWork);
        Clock::time_point t = Clock::now();
        std::memcpy(memory.data(), host.data(), bytes);
        h2dS += secondsSince(t);
        t = Clock::now();
        std::memcpy(back.data(), memory.data(), bytes);
        d2hS += secondsSince(t);
        ++reps;
    } while (secondsSince(started) < params.duration.count() && !params.stopRequested());
    figures.mismatchedWords = countLinkMismatches(back.data(), back.size(), seed);
    figures.hostToDeviceGBps = static_cast<double>(bytes) * reps / h2dS / 1e9;
    figures.deviceToHostGBps = static_cast<double>(bytes) * reps / d2hS / 1e9;
    TestResult result;
    result.test = "pcie";
    result.figures = figures;
    result.seconds = secondsSince(started);
    return result;
}

TestResult CpuBackend::runP2p(int device, const std::vector<int> &peers, const TestParams &params)
{
    const Clock::time_point started = Clock::now();
    TestResult result;
    result.test = "p2p";
    if (peers.empty()) {
        result.skipReason = "no peer device in this run";
        return result;
    }
    std::vector<std::uint64_t> &memory = m_devices[static_cast<std::size_t>(device)]->memory;
    const std::size_t words = memory.size() / 2;
    const std::size_t bytes = words * 8;
    // A private buffer stands in for the peer's memory: the peer's own tests own its buffer.
    std::vector<std::uint64_t> peerWindow(words);
    std::vector<int> all = peers;
    all.push_back(device);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    P2pFigures figures;
    figures.bytes = bytes;
    figures.standIn = true;
    const int rounds = static_cast<int>(all.size()) - 1;
    const double perCopy = params.duration.count() / (2.0 * rounds);
    // One timed copy with its data check; `alone` holds the host so no other device copies.
    auto copy = [&](int peer, int round, bool alone) -> double {
        const std::uint64_t seed = linkSeed(device, peer, round);
        fillLinkPattern(memory.data(), words, seed);
        const Clock::time_point begin = Clock::now();
        double seconds = 0;
        std::int64_t reps = 0;
        do {
            std::unique_lock lock(m_timedWork, std::defer_lock);
            if (alone)
                lock.lock();
            const Clock::time_point t = Clock::now();
            std::memcpy(peerWindow.data(), memory.data(), bytes);
            seconds += secondsSince(t);
            ++reps;
        } while (secondsSince(begin) < perCopy && !params.stopRequested());
        if (params.injection == Injection::Bitflip && round == 1 && alone)
            peerWindow[words / 2] ^= 1ull << 9;
        figures.mismatchedWords = saturatingAdd(figures.mismatchedWords, countLinkMismatches(peerWindow.data(), words, seed));
        return static_cast<double>(bytes) * reps / seconds / 1e9;
    };
    // Ring schedule: each pair alone, then each round with every device copying at once.
    for (int r = 1; r <= rounds; ++r) {
        const int peer = ringPairOf(all, device, r).to;
        figures.peers.push_back({peer, copy(peer, r, true), std::nullopt, r});
    }
    for (int r = 1; r <= rounds; ++r) {
        params.sync(); // each together round starts on every device at once
        figures.peers[static_cast<std::size_t>(r - 1)].togetherGBps = copy(figures.peers[static_cast<std::size_t>(r - 1)].peer, r, false);
    }
    result.figures = figures;
    result.seconds = secondsSince(started);
    return result;
}

} // namespace

std::unique_ptr<Backend> makeCpuBackend(const CpuBackendConfig &config)
{
    return std::make_unique<CpuBackend>(config);
}

} // namespace strata::burn
