#pragma once

#include <QString>

namespace strata {

// One condition of a queue as its controller reports it (Kueue's "Active": True "Ready", False
// "FlavorNotFound", "Stopped", ...).
struct QueueCondition
{
    QString type;
    bool isTrue = false;
    QString reason;
    QString message;
};

} // namespace strata
