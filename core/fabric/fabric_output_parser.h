#pragma once

#include "fabric_group_result.h"

#include <QByteArray>

namespace strata {

// What one fabric test job printed: Strata's probe (resources/fabric/fabric_probe.py) writes
// "@@strata-fabric {json}" lines (start, sample, unsupported, error, done); around nccl-tests
// the batch script prints a start line naming the tool and op, then all_reduce_perf's own
// table follows (size count type redop root | time algbw busbw #wrong | in-place ...; the
// out-of-place columns are read). Pure. Lines of any other shape (the job's own messages,
// NCCL_DEBUG output) are skipped; a marker line that is not valid is a problem, not a guess.
struct FabricOutputParse
{
    FabricGroupResult result; // tool, backend, ranks, samples, unsupported, error (the probe's)
    QStringList hosts;        // the hosts the ranks ran on, as the probe saw them
    bool started = false;     // a start line was seen
    bool done = false;        // the done line was seen: the output is complete
    QStringList problems;     // malformed marker lines or table rows (at most 20 kept)
};

FabricOutputParse parseFabricOutput(const QByteArray &output);
// A group's result from its job's output (Slurm's output file, or the Kubernetes rank 0 pod's
// log): what the parse found, or, when the output stops before the probe's done line, an error
// "JOB ended HOW before the test finished (first problem)". `job` names the job as the
// scheduler does ("job 4242", "Job ns/strata-fabric-x"); `how` its final state.
FabricGroupResult groupResultFromOutput(const QByteArray &output, const QString &job, const QString &how);

} // namespace strata
