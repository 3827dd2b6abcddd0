#include "job.h"

namespace strata {

int Job::gpuCountHeld() const
{
    int count = 0;
    for (const auto &indices : gpus)
        count += int(indices.size());
    return count;
}

} // namespace strata
