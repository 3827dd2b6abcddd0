#include "alert_state.h"

namespace strata {

QString alertStateName(AlertState state)
{
    switch (state) {
    case AlertState::Firing: return QStringLiteral("firing");
    case AlertState::Pending: return QStringLiteral("pending");
    case AlertState::Other: break;
    }
    return QString();
}

AlertState parseAlertState(QStringView word)
{
    for (AlertState state : {AlertState::Firing, AlertState::Pending})
        if (word == alertStateName(state))
            return state;
    return AlertState::Other;
}

} // namespace strata
