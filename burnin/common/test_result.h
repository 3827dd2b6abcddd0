#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace strata::burn {

// One word that read back wrong in a pattern pass; offset is bytes from the tested region's start.
struct PatternError
{
    std::uint64_t offset = 0;
    std::uint64_t expected = 0;
    std::uint64_t actual = 0;
};

struct GemmFigures
{
    int m = 0, n = 0, k = 0;
    std::int64_t iterations = 0;         // products computed, the first one included
    double tflops = 0;                   // sustained over the timed iterations
    std::int64_t mismatches = 0;         // words of repeated products differing from the first
    double sampledRelError = 0;          // worst |c - ref| / sum|a*b| over the sampled elements
    double sampledBoundRatio = 0;        // worst |c - ref| / its fp32 accumulation bound (> 1 fails)
    std::int64_t sampledElements = 0;
    std::int64_t sampledOutOfBounds = 0; // sampled elements whose error exceeds the bound
    std::optional<double> specTflops;
    std::string engine;                  // gemmEngineName(): what computed the products
    std::string engineNote;              // why auto chose the own kernel, if it did
    // The first product, every element, against the independent reference (a separate
    // non-tensor-core kernel, reference_dot.h's bound per element): elements compared (0: not
    // done), those beyond their bound, the worst |c - ref| / bound.
    std::int64_t referenceCheckedElements = 0;
    std::int64_t referenceOutOfBounds = 0;
    double referenceWorstRatio = 0;
    // The stress loop's rotating row slices against the same reference (a persistent error
    // anywhere is seen within stressSlices iterations), summed over the iterations.
    std::int64_t sliceCheckedElements = 0;
    std::int64_t sliceOutOfBounds = 0;
    double sliceWorstRatio = 0;
};

struct HbmFigures
{
    double readTBps = 0;
    double writeTBps = 0;
    double copyTBps = 0;                 // bytes read plus bytes written, as STREAM counts copy
    std::uint64_t bandwidthBytes = 0;    // size of each bandwidth buffer
    std::uint64_t patternBytes = 0;      // size of the region the patterns covered
    std::int64_t patternPasses = 0;
    std::uint64_t bitErrors = 0;
    std::uint64_t wordErrors = 0;
    std::vector<PatternError> errors;    // the first few, in the order they were found
    std::vector<std::string> patterns;   // pattern names that ran at least once
    std::optional<double> specTBps;
};

// Host <-> device over PCIe (pinned memory); on the CPU backend a memcpy stand-in.
struct PcieFigures
{
    double hostToDeviceGBps = 0;
    double deviceToHostGBps = 0;
    // The same with every GPU of the node copying at once (the host bridge's share); the
    // figures above are each GPU alone.
    std::optional<double> hostToDeviceTogetherGBps;
    std::optional<double> deviceToHostTogetherGBps;
    std::uint64_t bytes = 0;
    std::uint64_t mismatchedWords = 0;   // 64-bit words that came back wrong (data check)
    bool standIn = false;
};

// One ring pair (this GPU -> peer): alone on the links, then with every GPU of its ring round.
struct PeerFigure
{
    int peer = -1;
    double GBps = 0;                     // alone
    std::optional<double> togetherGBps;  // while the whole round copies at once
    int round = 0;                       // ring round: peer = (this + round) mod N
};

struct P2pFigures
{
    std::vector<PeerFigure> peers;
    std::vector<int> unreachable;        // peers without peer access: not measured
    std::uint64_t bytes = 0;
    std::uint64_t mismatchedWords = 0;   // words of the peer's copy that differ from the source
    bool standIn = false;
};

using TestFigures = std::variant<std::monostate, GemmFigures, HbmFigures, PcieFigures, P2pFigures>;

// What a backend hands back for one test on one device. Exactly one of: figures, skipReason, error.
struct TestResult
{
    std::string test;
    TestFigures figures;
    std::optional<std::string> skipReason;
    std::optional<std::string> error;
    double seconds = 0;
};

} // namespace strata::burn
