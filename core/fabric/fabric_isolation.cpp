#include "fabric_isolation.h"

namespace strata {

QString fabricVerdictName(FabricVerdictKind kind)
{
    switch (kind) {
    case FabricVerdictKind::Running: return QStringLiteral("running");
    case FabricVerdictKind::Measured: return QStringLiteral("measured");
    case FabricVerdictKind::MeetsExpectation: return QStringLiteral("meets-expectation");
    case FabricVerdictKind::NoOutlier: return QStringLiteral("no-outlier");
    case FabricVerdictKind::NodeFound: return QStringLiteral("node-found");
    case FabricVerdictKind::SeveralShort: return QStringLiteral("several-short");
    case FabricVerdictKind::LinksBetween: return QStringLiteral("links-between-halves");
    case FabricVerdictKind::BelowExpectation: return QStringLiteral("below-expectation");
    case FabricVerdictKind::TooFewNodes: return QStringLiteral("too-few-nodes");
    case FabricVerdictKind::Failed: return QStringLiteral("failed");
    }
    return QStringLiteral("unknown");
}

namespace {

QString gbps(double v) { return QStringLiteral("%1 GB/s").arg(v, 0, 'f', v < 10 ? 3 : 1); }

} // namespace

FabricIsolation::FabricIsolation(const QStringList &nodes, double floorGBps, double shortRatio, bool isolate)
    : m_floor(floorGBps > 0 ? floorGBps : 0)
    , m_ratio(shortRatio > 0 && shortRatio < 1 ? shortRatio : 0.75)
    , m_isolate(isolate)
{
    for (const QString &n : nodes)
        if (!n.isEmpty() && !m_nodes.contains(n))
            m_nodes << n;
    if (m_nodes.size() < 2) {
        finish(FabricVerdictKind::TooFewNodes, QStringLiteral("a fabric test needs at least two nodes"));
        return;
    }
    m_next = {m_nodes};
    m_nextHalf = {-1};
}

double FabricIsolation::referenceGBps() const
{
    return qMax(m_floor, m_ratio > 0 ? m_bestGBps : 0);
}

bool FabricIsolation::isShort(double figure) const
{
    return (m_floor > 0 && figure < m_floor) || figure < m_ratio * m_bestGBps;
}

void FabricIsolation::finish(FabricVerdictKind kind, const QString &explanation, const QString &node, double figure)
{
    m_verdict.kind = kind;
    m_verdict.node = node;
    m_verdict.figureGBps = figure;
    m_verdict.referenceGBps = m_floor > 0 && kind != FabricVerdictKind::NodeFound ? m_floor : m_bestGBps;
    m_verdict.explanation = explanation;
    m_next.clear();
    m_nextHalf.clear();
}

void FabricIsolation::planHalves()
{
    const qsizetype half = (m_candidates.size() + 1) / 2;
    m_halves[0] = m_candidates.mid(0, half);
    m_halves[1] = m_candidates.mid(half);
    m_next.clear();
    m_nextHalf.clear();
    QStringList pads = m_cleared;
    for (int h = 0; h < 2; ++h) {
        QStringList group = m_halves[h];
        if (group.size() == 1) {
            if (pads.isEmpty())
                continue; // judged by elimination
            group << pads.takeFirst();
        }
        if (group.size() >= 2) {
            m_next << group;
            m_nextHalf << h;
        }
    }
}

void FabricIsolation::record(const QList<FabricGroupResult> &results)
{
    if (done() || results.size() != m_next.size())
        return;
    FabricRound round;
    round.number = int(m_rounds.size()) + 1;
    for (const FabricGroupResult &r : results) {
        if (r.ok())
            m_bestGBps = qMax(m_bestGBps, r.figureGBps());
    }
    bool tested[2] = {false, false};
    double figureOf[2] = {0, 0};
    int groupOf[2] = {-1, -1};
    for (int i = 0; i < results.size(); ++i) {
        round.groups << FabricRoundGroup{results.at(i), false};
        const int h = m_nextHalf.value(i, -1);
        if (h >= 0) {
            tested[h] = true;
            figureOf[h] = results.at(i).figureGBps();
            groupOf[h] = i;
        }
    }
    // Two halves that ran side by side are judged against each other first: they ran under the
    // same load, which may have changed since earlier rounds (the best figure so far then says
    // both are short). Against the best so far and the floor second.
    bool againstEachOther[2] = {false, false};
    bool againstBest[2] = {false, false};
    for (int h = 0; h < 2; ++h) {
        if (!tested[h])
            continue;
        againstEachOther[h] = tested[1 - h] && figureOf[h] < m_ratio * qMax(figureOf[0], figureOf[1]);
        againstBest[h] = isShort(figureOf[h]);
    }
    bool shortOf[2] = {false, false};
    if (againstEachOther[0] != againstEachOther[1]) {
        shortOf[0] = againstEachOther[0];
        shortOf[1] = againstEachOther[1];
    } else {
        shortOf[0] = againstBest[0];
        shortOf[1] = againstBest[1];
    }
    for (int h = 0; h < 2; ++h)
        if (groupOf[h] >= 0)
            round.groups[groupOf[h]].shortOfReference = shortOf[h];
    if (m_nextHalf.value(0, -2) == -1 && !round.groups.isEmpty() && round.groups.first().result.ok())
        round.groups.first().shortOfReference = m_floor > 0 && round.groups.first().result.figureGBps() < m_floor;
    m_rounds << round;
    for (const FabricGroupResult &r : results) {
        if (!r.ok()) {
            finish(FabricVerdictKind::Failed, QStringLiteral("round %1: the group %2 measured nothing: %3")
                                                  .arg(round.number).arg(r.nodes.join(QLatin1Char(',')),
                                                                         r.error.isEmpty() ? QStringLiteral("no all-reduce figure in its output") : r.error));
            return;
        }
    }

    if (round.number == 1) {
        m_wholeGBps = results.first().figureGBps();
        const bool belowFloor = m_floor > 0 && m_wholeGBps < m_floor;
        if (m_floor > 0 && !belowFloor) {
            finish(FabricVerdictKind::MeetsExpectation, QStringLiteral("the %1 nodes reached %2, at or above the floor of %3")
                                                            .arg(m_nodes.size()).arg(gbps(m_wholeGBps), gbps(m_floor)), {}, m_wholeGBps);
            return;
        }
        if (!m_isolate) {
            finish(belowFloor ? FabricVerdictKind::BelowExpectation : FabricVerdictKind::Measured,
                   belowFloor ? QStringLiteral("the %1 nodes reached %2, below the floor of %3").arg(m_nodes.size()).arg(gbps(m_wholeGBps), gbps(m_floor))
                              : QStringLiteral("the %1 nodes reached %2 (no floor known for their type: nothing to judge against)")
                                    .arg(m_nodes.size()).arg(gbps(m_wholeGBps)),
                   {}, m_wholeGBps);
            return;
        }
        if (m_nodes.size() == 2) {
            finish(belowFloor ? FabricVerdictKind::TooFewNodes : FabricVerdictKind::Measured,
                   belowFloor ? QStringLiteral("the two nodes reached %1, below the floor of %2; which one is short cannot be told without a third node")
                                    .arg(gbps(m_wholeGBps), gbps(m_floor))
                              : QStringLiteral("the two nodes reached %1 (no floor known and no peer to compare with)").arg(gbps(m_wholeGBps)),
                   {}, m_wholeGBps);
            return;
        }
        m_candidates = m_nodes;
        m_candidatesShort = belowFloor;
        planHalves();
        return;
    }

    int keep = -1; // the half the candidates stay in
    if (tested[0] && tested[1]) {
        if (shortOf[0] && shortOf[1]) {
            finish(FabricVerdictKind::SeveralShort,
                   QStringLiteral("both halves fell short (%1: %2; %3: %4; reference %5): more than one node, or the fabric itself")
                       .arg(m_halves[0].join(QLatin1Char(',')), gbps(figureOf[0]), m_halves[1].join(QLatin1Char(',')), gbps(figureOf[1]),
                            gbps(referenceGBps())));
            return;
        }
        if (shortOf[0] != shortOf[1])
            keep = shortOf[0] ? 0 : 1;
    } else if (tested[0] && shortOf[0]) {
        keep = 0;
    } else if (tested[0] && (m_candidatesShort || isShort(m_wholeGBps))) {
        keep = 1; // the untested one-node half, by elimination
    }
    if (keep < 0) {
        if (m_candidatesShort || isShort(m_wholeGBps))
            finish(FabricVerdictKind::LinksBetween,
                   QStringLiteral("%1 fell short but no part of it did alone: the links between %2 and %3")
                       .arg(m_candidates.join(QLatin1Char(',')), m_halves[0].join(QLatin1Char(',')), m_halves[1].join(QLatin1Char(','))));
        else
            finish(FabricVerdictKind::NoOutlier, QStringLiteral("no part of the %1 nodes fell short of the others (best %2, all within %3 %)")
                                                     .arg(m_nodes.size()).arg(gbps(m_bestGBps)).arg(qRound((1 - m_ratio) * 100)));
        return;
    }
    m_cleared << m_halves[1 - keep];
    m_candidates = m_halves[keep];
    m_candidatesShort = true;
    if (m_candidates.size() == 1) {
        const double figure = tested[keep] ? figureOf[keep] : m_wholeGBps;
        finish(FabricVerdictKind::NodeFound,
               QStringLiteral("%1 slows every set it is in: %2 against %3 (%4 % of it) after %5 rounds")
                   .arg(m_candidates.first(), gbps(figure), gbps(m_bestGBps))
                   .arg(m_bestGBps > 0 ? qRound(100 * figure / m_bestGBps) : 0)
                   .arg(round.number),
               m_candidates.first(), figure);
        m_verdict.referenceGBps = m_bestGBps;
        return;
    }
    planHalves();
}

} // namespace strata
