#pragma once

#include <sys/resource.h>

namespace strata::bench {

// The process's peak resident set so far, in MiB (getrusage's ru_maxrss, kB on Linux).
inline long peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

} // namespace strata::bench
