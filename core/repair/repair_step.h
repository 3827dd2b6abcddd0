#pragma once

#include "drain_preview.h"
#include "node_health_state.h"

#include <QString>

#include <optional>

namespace strata {

// What the repair loop does to a node in one step (RepairPlanner).
enum class RepairStepKind {
    Suspect,        // healthy/returned -> suspected: a finding the policy suspects on (no action on the cluster)
    Drain,          // suspected -> drained: drain (Slurm) or cordon (Kubernetes) with the evidence as reason
    StartTest,      // drained -> testing: the policy's test on the node, in a maintenance reservation
    Return,         // testing -> returned: the test passed; resume (uncordon)
    Replace,        // testing -> replace: the test failed; the node stays out, its reason says "replace"
    ResumedOutside, // out through Strata -> healthy: someone resumed the node (the record follows)
    TestNotRun,     // testing -> drained: the test did not judge the GPUs; the node stays out, waiting for an operator
};
QString repairStepKindName(RepairStepKind kind);
// How every drain reason Strata's repair loop writes begins ("strata repair: xid-79: ..."): a
// node drained with another reason was taken out by someone else, and the loop never tests or
// returns it (a forged record cannot make Strata resume a node an operator drained).
inline QString repairDrainReasonPrefix()
{
    return QStringLiteral("strata repair:");
}
// The reason the loop drains with: "strata repair: CODE: evidence", one line, at most 200
// characters (the evidence is a finding's sentence, with the node's own words in it).
QString repairDrainReason(const QString &code, const QString &evidence);
// A reason read back from the scheduler, when it is one the loop wrote (its prefix, then a code
// of [a-z0-9-]): the code and the evidence after it. Anything else: nullopt, someone else's.
struct RepairDrainReason
{
    QString code;
    QString evidence;
};
std::optional<RepairDrainReason> parseRepairDrainReason(const QString &reason);

// Why a step was planned but not taken. Each comes with a sentence (RepairStep::holdReason).
enum class RepairHold {
    None,
    CapNodesOut,       // the policy's maxNodesOut nodes are out through Strata already
    CapPartition,      // the drain would take more than maxPartitionPercent of a partition
    CapPerHour,        // maxDrainsPerHour drains in the last hour already
    NeedsConfirmation, // the node runs another user's job: an operator must confirm
    OutByOthers,       // the node is already out of service, not through Strata: left to whoever took it out
    DryRun,            // the policy (or the command) says dry run: planned and previewed only
    TestNotRun,        // the node's last test did not run: not tried again until an operator resumes the node
};
QString repairHoldName(RepairHold hold); // "", "cap-nodes-out", "cap-partition", "cap-per-hour", "needs-confirmation", "out-by-others", "dry-run", "test-not-run"

struct RepairStep
{
    QString node;
    RepairStepKind kind = RepairStepKind::Suspect;
    NodeHealthState from = NodeHealthState::Healthy;
    NodeHealthState to = NodeHealthState::Suspected;
    QString evidenceCode;   // the finding's code, "test-passed", "test-failed"
    QString evidence;       // the finding's sentence, the test's figures
    int gpu = -1;           // Suspect: the finding's GPU index; -1: the whole node
    DrainPreview preview;   // Drain: what it would do
    RepairHold hold = RepairHold::None;
    QString holdReason;     // the sentence, when held

    bool isTaken() const { return hold == RepairHold::None; }
};

} // namespace strata
