#include "repair_planner.h"

#include "model/cluster_snapshot.h"

namespace strata {

namespace {

const QString kTestNotRunCode = QStringLiteral("test-not-run");
const QString kTestFailedCode = QStringLiteral("test-failed"); // a replaced node's evidence code

// The state of a record, or healthy when there is none.
NodeHealthState stateOf(const RepairPlanInput &in, const QString &node)
{
    const auto it = in.records.constFind(node);
    return it == in.records.constEnd() ? NodeHealthState::Healthy : it->state;
}

// The findings the policy suspects on, by node, in the snapshot's order: read once per plan,
// not once per node (2,000 nodes, thousands of findings).
QHash<QString, QVector<const Finding *>> suspectingFindings(const RepairPlanInput &in)
{
    QHash<QString, QVector<const Finding *>> byNode;
    for (const Finding &f : in.snapshot->findings) {
        if (in.policy.suspects(f.code))
            byNode[f.node] << &f;
    }
    return byNode;
}

// The first of `findings` whose code is not `exceptCode` (the code a returned node came back
// with); nullptr when none.
const Finding *firstExcept(const QVector<const Finding *> &findings, const QString &exceptCode)
{
    for (const Finding *f : findings) {
        if (f->code != exceptCode)
            return f;
    }
    return nullptr;
}

// The first finding with `code`, else the first: nullptr when there is none.
const Finding *firstPreferring(const QVector<const Finding *> &findings, const QString &code)
{
    for (const Finding *f : findings) {
        if (f->code == code)
            return f;
    }
    return findings.isEmpty() ? nullptr : findings.first();
}

// The records as the scheduler corrects them: a node the scheduler shows drained with the loop's
// own reason ("strata repair: CODE: evidence") while its record says it is in service or only
// suspected was drained by Strata after that record was read. Prometheus scrapes the Pushgateway
// every 15-60 s, so a watch started right after a drain (or after one whose publish failed) reads
// the state before it; taken at its word, the node would be "out by others" for ever. Its reason
// is the durable mark: "replace" keeps it out, "test-not-run" waits for an operator, any other
// code is a drained node to test. drainedAt stays unknown (the hourly cap counts the records').
QHash<QString, NodeHealthRecord> recordsCorrectedByScheduler(const RepairPlanInput &in)
{
    QHash<QString, NodeHealthRecord> records = in.records;
    for (const Node &node : in.snapshot->nodes) {
        if (!node.isDrained() || isOutThroughStrata(stateOf(in, node.name)))
            continue; // in service, or the record already says Strata holds it out (drained, testing, replace)
        const std::optional<RepairDrainReason> reason = parseRepairDrainReason(node.reason);
        if (!reason)
            continue; // not a reason the loop writes: left as the record says
        NodeHealthRecord &r = records[node.name];
        r.node = node.name;
        // The engine writes a replaced node's reason with the state's own word (nodeHealthStateName).
        r.state = parseNodeHealthState(reason->code) == NodeHealthState::Replace ? NodeHealthState::Replace : NodeHealthState::Drained;
        r.since = QDateTime();
        r.evidenceCode = r.state == NodeHealthState::Replace ? kTestFailedCode : reason->code;
        r.evidence = reason->evidence;
    }
    return records;
}

// What the cap allows, counted over the records and this plan's drains so far.
class CapCounter
{
public:
    explicit CapCounter(const RepairPlanInput &in) : m_in(in)
    {
        const QDateTime hourAgo = in.now.addSecs(-3600);
        for (auto it = in.records.begin(); it != in.records.end(); ++it) {
            // Only this cluster's nodes: a Pushgateway shared by several clusters holds theirs too.
            if (!in.snapshot->node(it.key()))
                continue;
            if (isOutThroughStrata(it->state))
                m_out << it.key();
            if (it->drainedAt.isValid() && it->drainedAt > hourAgo)
                ++m_drainsLastHour;
        }
    }

    // Why `node` may not be drained now (and the sentence); None when the cap allows it.
    RepairHold check(const Node &node, QString *why) const
    {
        const RepairPolicy &p = m_in.policy;
        if (m_out.size() >= p.maxNodesOut) {
            QStringList out = m_out.values();
            out.sort();
            *why = QStringLiteral("the policy allows at most %1 node%2 out of service through Strata at once; out now: %3")
                       .arg(p.maxNodesOut)
                       .arg(p.maxNodesOut == 1 ? "" : "s")
                       .arg(out.isEmpty() ? QStringLiteral("none") : out.join(QStringLiteral(", ")));
            return RepairHold::CapNodesOut;
        }
        for (const QString &partitionName : node.partitions) {
            const Partition *partition = nullptr;
            for (const Partition &q : m_in.snapshot->partitions) {
                if (q.name == partitionName)
                    partition = &q;
            }
            if (!partition || partition->nodes.isEmpty())
                continue;
            qsizetype outHere = 0;
            for (const QString &member : partition->nodes)
                outHere += m_out.contains(member) ? 1 : 0;
            const qsizetype allowed = partition->nodes.size() * p.maxPartitionPercent / 100;
            if (outHere + 1 > allowed) {
                *why = QStringLiteral("draining it would take %1 of partition %2's %3 nodes out through Strata; the policy allows "
                                      "%4 % (%5 node%6)")
                           .arg(outHere + 1)
                           .arg(partitionName)
                           .arg(partition->nodes.size())
                           .arg(p.maxPartitionPercent)
                           .arg(allowed)
                           .arg(allowed == 1 ? "" : "s");
                return RepairHold::CapPartition;
            }
        }
        if (m_drainsLastHour >= p.maxDrainsPerHour) {
            *why = QStringLiteral("the policy allows at most %1 drain%2 an hour; %3 in the last hour")
                       .arg(p.maxDrainsPerHour)
                       .arg(p.maxDrainsPerHour == 1 ? "" : "s")
                       .arg(m_drainsLastHour);
            return RepairHold::CapPerHour;
        }
        return RepairHold::None;
    }

    void taken(const QString &node)
    {
        m_out.insert(node);
        ++m_drainsLastHour;
    }

private:
    const RepairPlanInput &m_in;
    QSet<QString> m_out;
    int m_drainsLastHour = 0;
};

RepairStep step(const QString &node, RepairStepKind kind, NodeHealthState from, NodeHealthState to,
                const QString &code, const QString &evidence)
{
    RepairStep s;
    s.node = node;
    s.kind = kind;
    s.from = from;
    s.to = to;
    s.evidenceCode = code;
    s.evidence = evidence;
    return s;
}

// The drain step of a suspected node: taken, or held with why.
RepairStep drainStep(const RepairPlanInput &in, const Node &node, const QString &code, const QString &evidence,
                     bool dryRun, CapCounter &cap)
{
    RepairStep s = step(node.name, RepairStepKind::Drain, NodeHealthState::Suspected, NodeHealthState::Drained, code, evidence);
    s.preview = DrainPreview::of(*in.snapshot, node.name);
    if (node.isUnavailable()) {
        s.hold = RepairHold::OutByOthers;
        s.holdReason = QStringLiteral("%1 is already out of service (%2%3), not through Strata: left to whoever took it out")
                           .arg(node.name, node.state, node.reason.isEmpty() ? QString() : QStringLiteral(": ") + node.reason);
        return s;
    }
    if (const RepairHold hold = cap.check(node, &s.holdReason); hold != RepairHold::None) {
        s.hold = hold;
        return s;
    }
    if (const QStringList others = s.preview.otherUsers(in.operatorUser); !others.isEmpty() && !in.confirmed.contains(node.name)) {
        s.hold = RepairHold::NeedsConfirmation;
        s.holdReason = QStringLiteral("%1 runs jobs of %2: an operator must confirm this drain (strata watch --confirm %1)")
                           .arg(node.name, others.join(QStringLiteral(", ")));
        return s;
    }
    // A dry run counts the drain it would take: the plan shows what applying it would hold.
    cap.taken(node.name);
    if (dryRun) {
        s.hold = RepairHold::DryRun;
        s.holdReason = QStringLiteral("dry run: %1 would be drained").arg(node.name);
    }
    return s;
}

void holdForDryRun(RepairStep &s)
{
    s.hold = RepairHold::DryRun;
    s.holdReason = QStringLiteral("dry run: %1 would %2").arg(s.node, repairStepKindName(s.kind));
}

} // namespace

int interruptedTestSeconds(const RepairPolicy &policy)
{
    return policy.burninSeconds * int(policy.burninTests.size()) + 600;
}

namespace {

// The plan over records the scheduler has corrected.
QVector<RepairStep> planRepairsOnRecords(const RepairPlanInput &in)
{
    QVector<RepairStep> steps;
    const bool dryRun = in.dryRun || in.policy.dryRun;
    CapCounter cap(in);
    const QHash<QString, QVector<const Finding *>> suspecting = suspectingFindings(in);
    for (const Node &node : in.snapshot->nodes) {
        const NodeHealthState state = stateOf(in, node.name);
        const NodeHealthRecord record = in.records.value(node.name);
        switch (state) {
        case NodeHealthState::Healthy:
        case NodeHealthState::Returned: {
            const QString except = state == NodeHealthState::Returned ? record.evidenceCode : QString();
            const Finding *f = firstExcept(suspecting.value(node.name), except);
            if (!f)
                break;
            steps << step(node.name, RepairStepKind::Suspect, state, NodeHealthState::Suspected, f->code, f->message);
            steps.last().gpu = f->gpu;
            if (dryRun)
                holdForDryRun(steps.last());
            steps << drainStep(in, node, f->code, f->message, dryRun, cap);
            break;
        }
        case NodeHealthState::Suspected:
            // Drained on what the node shows now when it still shows something (the record may be
            // a round old: its finding cleared, another GPU's raised); on the record's word if not.
            if (const Finding *f = firstPreferring(suspecting.value(node.name), record.evidenceCode))
                steps << drainStep(in, node, f->code, f->message, dryRun, cap);
            else
                steps << drainStep(in, node, record.evidenceCode, record.evidence, dryRun, cap);
            break;
        case NodeHealthState::Drained:
        case NodeHealthState::Testing:
        case NodeHealthState::Replace:
            // Testing: on Slurm the node is resumed into the test's maintenance reservation (Slurm
            // starts no job on a drained node, not even in a reservation), so not drained is
            // expected there; on Kubernetes it stays cordoned.
            if (state != NodeHealthState::Testing && !node.isDrained()) {
                // Resumed (uncordoned) by someone: the scheduler says it is in service again.
                steps << step(node.name, RepairStepKind::ResumedOutside, state, NodeHealthState::Healthy,
                              QStringLiteral("resumed-outside"),
                              QStringLiteral("%1 is in service again (%2), not through Strata").arg(node.name, node.state));
            } else if (state == NodeHealthState::Drained && in.policy.test == RepairTest::Burnin
                       && !node.reason.startsWith(repairDrainReasonPrefix())) {
                RepairStep s = step(node.name, RepairStepKind::StartTest, state, NodeHealthState::Testing, record.evidenceCode, QString());
                s.hold = RepairHold::OutByOthers;
                s.holdReason = QStringLiteral("%1 is drained by someone else (%2), not by Strata's repair loop: Strata tests and returns only "
                                              "nodes it drained")
                                   .arg(node.name, node.reason.isEmpty() ? QStringLiteral("no reason") : node.reason);
                steps << s;
                break;
            } else if (state == NodeHealthState::Drained && in.policy.test == RepairTest::Burnin
                       && record.evidenceCode == kTestNotRunCode) {
                RepairStep s = step(node.name, RepairStepKind::StartTest, state, NodeHealthState::Testing, record.evidenceCode, record.evidence);
                s.hold = RepairHold::TestNotRun;
                s.holdReason = QStringLiteral("%1's last test did not run (%2): not tried again; fix what stopped it, then resume the "
                                              "node (Strata follows: a finding that remains suspects it again)")
                                   .arg(node.name, record.evidence);
                steps << s;
                break;
            } else if (state == NodeHealthState::Drained && in.policy.test == RepairTest::Burnin
                       && DrainPreview::of(*in.snapshot, node.name).jobs.isEmpty()) { // draining: its jobs end first
                steps << step(node.name, RepairStepKind::StartTest, state, NodeHealthState::Testing, record.evidenceCode,
                              QStringLiteral("burn-in %1, %2 s each").arg(in.policy.burninTests.join(QLatin1Char(','))).arg(in.policy.burninSeconds));
            } else if (state == NodeHealthState::Testing && !in.testOutcomes.contains(node.name)
                       && !in.testsRunning.contains(node.name) && record.since.isValid()
                       && record.since.secsTo(in.now) > interruptedTestSeconds(in.policy)) {
                steps << step(node.name, RepairStepKind::TestNotRun, state, NodeHealthState::Drained, kTestNotRunCode,
                              QStringLiteral("its test was interrupted: no test runs on it since %1")
                                  .arg(record.since.toString(Qt::ISODate)));
            } else if (state == NodeHealthState::Testing && in.testOutcomes.contains(node.name)) {
                const RepairTestOutcome o = in.testOutcomes.value(node.name);
                switch (o.result) {
                case RepairTestOutcome::Result::Passed:
                    steps << step(node.name, RepairStepKind::Return, state, NodeHealthState::Returned, record.evidenceCode, o.evidence);
                    break;
                case RepairTestOutcome::Result::Failed:
                    steps << step(node.name, RepairStepKind::Replace, state, NodeHealthState::Replace, kTestFailedCode, o.evidence);
                    break;
                case RepairTestOutcome::Result::NotRun:
                    steps << step(node.name, RepairStepKind::TestNotRun, state, NodeHealthState::Drained, kTestNotRunCode, o.evidence);
                    break;
                }
            } else {
                break;
            }
            if (dryRun && steps.last().kind != RepairStepKind::ResumedOutside)
                holdForDryRun(steps.last());
            break;
        }
    }
    return steps;
}

} // namespace

QVector<RepairStep> planRepairs(const RepairPlanInput &in)
{
    if (!in.snapshot)
        return {};
    RepairPlanInput corrected = in;
    corrected.records = recordsCorrectedByScheduler(in);
    return planRepairsOnRecords(corrected);
}

} // namespace strata
