#pragma once

#include <QString>

#include <optional>

namespace strata {

// One resource flavor of a queue (Kueue's ResourceFlavor: a GPU model, spot or on-demand) and
// what the queue holds of its GPUs (nvidia.com/gpu). A quota the queue does not set is empty,
// never a zero: a flavor that covers no GPUs has no gpuQuota.
struct QueueFlavor
{
    QString name;
    std::optional<int> gpuQuota;          // nominalQuota
    std::optional<int> gpuBorrowingLimit; // empty: no limit within the cohort (or no cohort)
    std::optional<int> gpuLendingLimit;   // empty: all of the unused quota may be lent
    int gpusReserved = 0; // quota reserved by workloads assigned to it (admitted or not yet)
    int gpusUsed = 0;     // quota used by its admitted workloads
    int gpusBorrowed = 0; // of gpusUsed, over gpuQuota: borrowed from the cohort
};

} // namespace strata
