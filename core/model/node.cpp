#include "node.h"

namespace strata {

bool Node::isDrained() const
{
    return stateFlags.contains(QStringLiteral("DRAIN")) || state.startsWith(QStringLiteral("drain"))
        || state == QStringLiteral("cordoned");
}

bool Node::isDown() const
{
    // Slurm 22.05 sets NOT_RESPONDING on every node it is launching (`alloc#`): that is booting,
    // not down (a launch that never ends becomes `down~` at ResumeTimeout).
    const bool notResponding = stateFlags.contains(QStringLiteral("NOT_RESPONDING")) && power != PowerState::PoweringUp;
    return state.startsWith(QStringLiteral("down")) || stateFlags.contains(QStringLiteral("DOWN"))
        || notResponding || state == QStringLiteral("notready")
        || state.startsWith(QStringLiteral("fail"));
}

} // namespace strata
