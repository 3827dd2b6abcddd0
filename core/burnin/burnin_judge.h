#pragma once

#include "burnin_node_run.h"
#include "burnin_verdict.h"

#include "model/gpu_catalog.h"

namespace strata {

// Judges all GPU results of one burn-in run (one or more nodes) against the catalog's burn-in
// criteria and against the best GPU of the same model in the same run. Pure function.
//
// A GPU fails on: the agent's own correctness failure (mismatches, bit errors, reference
// check), a test error or missing result, a figure below the model's absolute floor (not for
// the cpu backend), a figure below peerFraction of the best peer, SM clock below
// minSmClockMHz or temperature above maxTempC while under load, or thermal/hardware slowdown.
// The run fails too when an expected node or GPU is missing or the output is broken.
class BurninJudge
{
public:
    static BurninVerdict judge(const QVector<BurninNodeRun> &runs, const GpuCatalog &catalog,
                               const BurninExpectation &expectation);

    // Peer fraction used when the model is unknown to the catalog (the cpu backend).
    static constexpr double defaultPeerFraction = 0.9;
    // Simulated devices of the cpu backend share the host's cores with each other and with
    // whatever else runs there, so their figures swing by tens of percent between peers (one
    // healthy device under 50 % of its best peer was seen on a loaded 2-core CI machine, two
    // agents of 8 threads each); only a device far behind is a finding there. The slow
    // self-test runs at about a sixth (the captured one at 0.14-0.24).
    static constexpr double cpuPeerFraction = 0.3;
};

} // namespace strata
