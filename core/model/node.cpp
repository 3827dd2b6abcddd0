#include "node.h"

namespace strata {

bool Node::isDrained() const
{
    return stateFlags.contains(QStringLiteral("DRAIN")) || state.startsWith(QStringLiteral("drain"))
        || state == QStringLiteral("cordoned");
}

bool Node::isDown() const
{
    return state.startsWith(QStringLiteral("down")) || stateFlags.contains(QStringLiteral("DOWN"))
        || stateFlags.contains(QStringLiteral("NOT_RESPONDING")) || state == QStringLiteral("notready")
        || state.startsWith(QStringLiteral("fail"));
}

} // namespace strata
