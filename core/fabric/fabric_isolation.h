#pragma once

#include "fabric_group_result.h"

#include <QList>
#include <QStringList>

namespace strata {

// How a fabric test over a node set ended.
enum class FabricVerdictKind {
    Running,          // rounds still to run
    Measured,         // measured only (no isolation asked, and no floor to judge against)
    MeetsExpectation, // the whole set reached the floor its node type should reach
    NoOutlier,        // no group fell short of its peers (nothing to isolate)
    NodeFound,        // one node is responsible: node, figure and reference say by how much
    SeveralShort,     // both halves fell short: more than one node, or the whole fabric
    LinksBetween,     // the set is short, neither half is: the links between the halves
    BelowExpectation, // below the floor, no isolation asked
    TooFewNodes,      // a short set of two nodes: which one cannot be told without a third
    Failed,           // a group measured nothing (job failed, output unreadable)
};

QString fabricVerdictName(FabricVerdictKind kind); // "node-found", ...

// One group of one round, with how it was judged.
struct FabricRoundGroup
{
    FabricGroupResult result;
    bool shortOfReference = false;
};

struct FabricRound
{
    int number = 0; // 1-based
    QList<FabricRoundGroup> groups;
};

struct FabricVerdict
{
    FabricVerdictKind kind = FabricVerdictKind::Running;
    QString node;            // NodeFound
    double figureGBps = 0;   // NodeFound: its last group's figure; else the whole set's
    double referenceGBps = 0; // what it was compared with (the floor or the best peer group)
    QString explanation;     // one sentence, figures included
};

// Finds the node that slows a node set by bisection, O(log n) rounds for one bad node
// (ceil(log2 n) + 1 with the first round over the whole set). Pure: the runner asks for a
// round's groups, runs them (concurrently: the groups of a round never share a node) and
// records their results.
//   Round 1: the whole set. With a floor (what the node type should reach) a set at or above
//   it ends the test; without one the halves are compared with each other.
//   Then: the candidates split into halves, each half a group (a one-node half is padded with a
//   node already cleared; with none cleared yet it waits and is judged by elimination). Two
//   halves that ran side by side are judged against each other first (shortRatio x the better
//   one: the same load on both), then, when that tells nothing, each against the floor and
//   shortRatio x the best figure any group reached so far (the figure: all-reduce busbw at the
//   largest size). One short half keeps the candidates
//   there and clears the other; both short: several nodes or the fabric; neither: the links
//   between halves, or nothing at all when the whole set was not short either.
class FabricIsolation
{
public:
    // floorGBps 0: no expectation known (judged against peers only). shortRatio in (0, 1).
    FabricIsolation(const QStringList &nodes, double floorGBps, double shortRatio, bool isolate);

    bool done() const { return m_verdict.kind != FabricVerdictKind::Running; }
    // The groups of the next round (empty when done()).
    QList<QStringList> nextRound() const { return m_next; }
    // The results of the round nextRound() gave, in its order.
    void record(const QList<FabricGroupResult> &results);

    const QList<FabricRound> &rounds() const { return m_rounds; }
    const FabricVerdict &verdict() const { return m_verdict; }
    double referenceGBps() const;

private:
    void planHalves();
    void finish(FabricVerdictKind kind, const QString &explanation, const QString &node = {}, double figure = 0);
    bool isShort(double figure) const;

    QStringList m_nodes;
    double m_floor = 0;
    double m_ratio = 0.75;
    bool m_isolate = true;
    QStringList m_candidates;
    QStringList m_cleared;
    QList<QStringList> m_next;
    // Which half each group of the planned round tests: 0 = first, 1 = second, -1 = the whole
    // set (round 1). A one-node half with no cleared node to pair it with is not tested.
    QList<int> m_nextHalf;
    QStringList m_halves[2];
    bool m_candidatesShort = false; // the candidates are known to hold what slows the set
    double m_bestGBps = 0;
    double m_wholeGBps = 0;
    QList<FabricRound> m_rounds;
    FabricVerdict m_verdict;
};

} // namespace strata
