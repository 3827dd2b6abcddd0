#include "fabric_history_record.h"

namespace strata {

QString fabricHistoryVerdictName(FabricHistoryVerdict verdict)
{
    switch (verdict) {
    case FabricHistoryVerdict::Short: return QStringLiteral("short");
    case FabricHistoryVerdict::Ok: break;
    }
    return QStringLiteral("ok");
}

bool fabricHistoryVerdictFromName(const QString &name, FabricHistoryVerdict *verdict)
{
    for (FabricHistoryVerdict v : {FabricHistoryVerdict::Ok, FabricHistoryVerdict::Short}) {
        if (name == fabricHistoryVerdictName(v)) {
            *verdict = v;
            return true;
        }
    }
    return false;
}

} // namespace strata
