#include "backend.h"

namespace strata::burn {

std::unique_ptr<Backend> makeCudaBackend(std::string *error)
{
    *error = "this strata-burn was built without CUDA (nvcc was not found, or "
             "-DSTRATA_BURN_CUDA=OFF)";
    return nullptr;
}

} // namespace strata::burn
