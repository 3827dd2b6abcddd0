#pragma once

#include <cuda_runtime.h>

#include <string>

namespace strata::burn {

// CUDA errors become a readable message naming the call; the backend returns it as the test's
// error instead of aborting the other GPUs' threads.
inline std::string cudaErrorText(cudaError_t rc, const char *what)
{
    return std::string(what) + ": " + cudaGetErrorName(rc) + " (" + cudaGetErrorString(rc) + ")";
}

} // namespace strata::burn

// On failure: sets `error` to a message naming the call and returns `ret`.
#define STRATA_CUDA_TRY(call, error, ret)                                                          \
    do {                                                                                           \
        const cudaError_t strata_rc_ = (call);                                                     \
        if (strata_rc_ != cudaSuccess) {                                                           \
            (error) = ::strata::burn::cudaErrorText(strata_rc_, #call);                            \
            return ret;                                                                            \
        }                                                                                          \
    } while (0)
