#include "node_health_state.h"

namespace strata {

QString nodeHealthStateName(NodeHealthState state)
{
    switch (state) {
    case NodeHealthState::Healthy: return QStringLiteral("healthy");
    case NodeHealthState::Suspected: return QStringLiteral("suspected");
    case NodeHealthState::Drained: return QStringLiteral("drained");
    case NodeHealthState::Testing: return QStringLiteral("testing");
    case NodeHealthState::Returned: return QStringLiteral("returned");
    case NodeHealthState::Replace: return QStringLiteral("replace");
    }
    return {};
}

std::optional<NodeHealthState> parseNodeHealthState(QStringView word)
{
    for (NodeHealthState state : kNodeHealthStates) {
        if (word == nodeHealthStateName(state))
            return state;
    }
    return std::nullopt;
}

bool isOutThroughStrata(NodeHealthState state)
{
    return state == NodeHealthState::Drained || state == NodeHealthState::Testing || state == NodeHealthState::Replace;
}

} // namespace strata
