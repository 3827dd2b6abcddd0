#include "burnin_verdict.h"

namespace strata {

const BurninTestVerdict *BurninGpuVerdict::test(const QString &name) const
{
    for (const BurninTestVerdict &t : tests)
        if (t.test == name)
            return &t;
    return nullptr;
}

QStringList BurninVerdict::failedNodes() const
{
    QStringList nodes = problemNodes;
    for (const BurninGpuVerdict &g : gpus)
        if (!g.passed && !nodes.contains(g.node))
            nodes << g.node;
    return nodes;
}

QString BurninVerdict::drainReason(const QString &node) const
{
    for (const BurninGpuVerdict &g : gpus)
        if (g.node == node && !g.passed && !g.reasons.isEmpty())
            return QStringLiteral("strata burn-in: ") + g.reasons.first();
    const QString prefix = node + QLatin1String(": ");
    for (const QString &p : problems)
        if (p.startsWith(prefix))
            return QStringLiteral("strata burn-in: ") + p;
    return QStringLiteral("strata burn-in failed");
}

const BurninGpuVerdict *BurninVerdict::gpu(const QString &node, int index) const
{
    for (const BurninGpuVerdict &g : gpus)
        if (g.node == node && g.gpu == index)
            return &g;
    return nullptr;
}

} // namespace strata
