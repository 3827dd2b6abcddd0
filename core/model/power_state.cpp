#include "power_state.h"

namespace strata {

QString powerStateName(PowerState state)
{
    switch (state) {
    case PowerState::Launched: return QStringLiteral("launched");
    case PowerState::PoweringUp: return QStringLiteral("powering-up");
    case PowerState::PoweredDown: return QStringLiteral("powered-down");
    case PowerState::PoweringDown: return QStringLiteral("powering-down");
    case PowerState::FailedToLaunch: return QStringLiteral("failed-to-launch");
    }
    return QString();
}

std::optional<PowerState> parsePowerState(QStringView word)
{
    for (PowerState state : {PowerState::Launched, PowerState::PoweringUp, PowerState::PoweredDown,
                             PowerState::PoweringDown, PowerState::FailedToLaunch})
        if (word == powerStateName(state))
            return state;
    return std::nullopt;
}

} // namespace strata
