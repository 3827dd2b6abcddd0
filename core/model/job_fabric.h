#pragma once

#include <QString>
#include <QStringList>

namespace strata {

// The fabric settings a job gives its processes, from the environment its script (or pod spec)
// sets: whether it asks libfabric for EFA, and its NCCL_* / FI_* settings as written.
struct JobFabric
{
    enum class Efa {
        Unknown, // nothing says: on AWS the OFI plugin may still pick EFA by itself
        Yes,     // FI_PROVIDER=efa, or any FI_EFA_* setting
        No,      // FI_PROVIDER names another provider, or NCCL_NET=Socket / IB
    };
    Efa usesEfa = Efa::Unknown;
    QStringList settings; // "NCCL_DEBUG=INFO", "FI_PROVIDER=efa", ... in the order set, last value kept

    static QString efaName(Efa efa); // "yes", "no", "unknown"
};

} // namespace strata
