#include "node_fabric.h"

namespace strata {

QString FabricPort::stateName(std::optional<int> id)
{
    if (!id)
        return {};
    switch (*id) {
    case 1: return QStringLiteral("DOWN");
    case 2: return QStringLiteral("INIT");
    case 3: return QStringLiteral("ARMED");
    case 4: return QStringLiteral("ACTIVE");
    case 5: return QStringLiteral("ACTIVE_DEFER");
    default: return QStringLiteral("state %1").arg(*id);
    }
}

QString FabricPort::physicalStateName(std::optional<int> id)
{
    if (!id)
        return {};
    switch (*id) {
    case 1: return QStringLiteral("Sleep");
    case 2: return QStringLiteral("Polling");
    case 3: return QStringLiteral("Disabled");
    case 4: return QStringLiteral("PortConfigurationTraining");
    case 5: return QStringLiteral("LinkUp");
    case 6: return QStringLiteral("LinkErrorRecovery");
    case 7: return QStringLiteral("PhyTest");
    default: return QStringLiteral("physical state %1").arg(*id);
    }
}

} // namespace strata
