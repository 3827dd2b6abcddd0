#pragma once

#include "node_health_record.h"
#include "repair_policy.h"
#include "repair_step.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QVector>

namespace strata {

struct ClusterSnapshot;

// A finished test of a node in the `testing` state: what decides return or replace.
struct RepairTestOutcome
{
    enum class Result {
        Passed, // every GPU of the node passed
        Failed, // a GPU of the node failed a test: evidence about the hardware
        NotRun, // the test did not judge the GPUs (launch failed, the agent never ran): no evidence
    };
    Result result = Result::NotRun;
    QString evidence; // the verdict's sentence: GPU, test and figure; or why it did not run
};

// The repair loop's one decision (issue 28): from a snapshot (nodes, partitions, running jobs,
// findings), the nodes' records, the finished tests and the policy, the steps to take now, each
// taken or held with why. Pure and deterministic (nodes in the snapshot's order); the caller
// (RepairEngine) acts on the taken steps and records them. The guardrails:
// - the cap is never exceeded: the nodes of this cluster (the snapshot's; a shared store holds
//   other clusters' records too) out through Strata (drained, testing, replace) plus the
//   drains this plan takes stay within maxNodesOut, within maxPartitionPercent of each of the
//   node's partitions (floor: 10 % of 4 nodes is none), and the drains in the last hour within
//   maxDrainsPerHour; a drain past any of them is held, the node stays suspected;
// - a node running a job of a user other than operatorUser is drained only when `confirmed`
//   names it;
// - a node someone else took out of service (drained, cordoned, down) is left to them;
// - dry run: every step is planned and previewed, none taken (hold DryRun); the drains it would
//   take count against the cap, so a plan shows what applying it would hold;
// - a drained node is tested only once no job runs there (draining: its jobs end first), and
//   only when its drain reason is the loop's own (repairDrainReasonPrefix): a record claiming
//   "drained" for a node someone else drained (forged, or stale) never gets it resumed.
// The scheduler's word over a record that lags it: a node drained with the loop's own reason
// while its record says in service or suspected (read before Prometheus scraped the drain's
// publish) is planned as drained ("replace" in the reason: as replace).
// A node returned with a finding's code is not suspected again by the same code (DCGM's XID
// gauge keeps the last XID until the driver reloads); another code suspects it.
struct RepairPlanInput
{
    const ClusterSnapshot *snapshot = nullptr;
    QHash<QString, NodeHealthRecord> records; // node -> record; absent: healthy
    QHash<QString, RepairTestOutcome> testOutcomes; // node -> its finished test (testing nodes)
    RepairPolicy policy;
    bool dryRun = false;      // or the policy's dryRun
    QDateTime now;            // UTC
    QString operatorUser;     // whose jobs need no confirmation
    QSet<QString> confirmed;  // nodes an operator confirmed draining despite others' jobs
    QSet<QString> testsRunning; // nodes whose test this engine runs now
};

// How long a node may stay "testing" with no test of this engine running on it before its test
// counts as interrupted (a `strata watch` killed, a window closed, another console's test that
// must have ended): the policy's test time plus ten minutes.
int interruptedTestSeconds(const RepairPolicy &policy);

QVector<RepairStep> planRepairs(const RepairPlanInput &input);

} // namespace strata
