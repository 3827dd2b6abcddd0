#include "silence_state.h"

namespace strata {

QString silenceStateName(SilenceState state)
{
    switch (state) {
    case SilenceState::Active: return QStringLiteral("active");
    case SilenceState::Pending: return QStringLiteral("pending");
    case SilenceState::Expired: return QStringLiteral("expired");
    case SilenceState::Other: break;
    }
    return QString();
}

SilenceState parseSilenceState(QStringView word)
{
    for (SilenceState state : {SilenceState::Active, SilenceState::Pending, SilenceState::Expired})
        if (word == silenceStateName(state))
            return state;
    return SilenceState::Other;
}

} // namespace strata
