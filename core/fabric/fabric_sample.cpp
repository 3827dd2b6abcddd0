#include "fabric_sample.h"

namespace strata {

QString fabricOpName(FabricOp op)
{
    return op == FabricOp::AllToAll ? QStringLiteral("all_to_all") : QStringLiteral("all_reduce");
}

} // namespace strata
