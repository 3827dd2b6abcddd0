#include "cublaslt_library.h"

#include <dlfcn.h>

#include <cstdlib>

namespace strata::burn {

namespace {

template <typename F>
bool resolve(void *library, const char *name, F *target, std::string *missing)
{
    *target = reinterpret_cast<F>(dlsym(library, name));
    if (!*target)
        *missing = name;
    return *target != nullptr;
}

} // namespace

std::vector<std::string> CublasLtLibrary::defaultCandidates()
{
    return {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"};
}

std::unique_ptr<CublasLtLibrary> CublasLtLibrary::load(std::string *error, std::vector<std::string> candidates)
{
    if (candidates.empty()) {
        const char *forced = std::getenv("STRATA_BURN_CUBLASLT");
        candidates = forced && *forced ? std::vector<std::string>{forced} : defaultCandidates();
    }
    std::string tried, lastWhy;
    for (const std::string &candidate : candidates) {
        void *library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        tried += (tried.empty() ? "" : ", ") + candidate;
        if (!library) {
            const char *why = dlerror();
            lastWhy = why ? why : "not found";
            continue;
        }
        std::unique_ptr<CublasLtLibrary> lib(new CublasLtLibrary);
        lib->m_library = library;
        lib->m_path = candidate;
        std::string missing;
        if (resolve(library, "cublasLtCreate", &lib->create, &missing)
            && resolve(library, "cublasLtDestroy", &lib->destroy, &missing)
            && resolve(library, "cublasLtGetVersion", &lib->getVersion, &missing)
            && resolve(library, "cublasLtMatmulDescCreate", &lib->matmulDescCreate, &missing)
            && resolve(library, "cublasLtMatmulDescDestroy", &lib->matmulDescDestroy, &missing)
            && resolve(library, "cublasLtMatmulDescSetAttribute", &lib->matmulDescSetAttribute, &missing)
            && resolve(library, "cublasLtMatrixLayoutCreate", &lib->matrixLayoutCreate, &missing)
            && resolve(library, "cublasLtMatrixLayoutDestroy", &lib->matrixLayoutDestroy, &missing)
            && resolve(library, "cublasLtMatmulPreferenceCreate", &lib->preferenceCreate, &missing)
            && resolve(library, "cublasLtMatmulPreferenceDestroy", &lib->preferenceDestroy, &missing)
            && resolve(library, "cublasLtMatmulPreferenceSetAttribute", &lib->preferenceSetAttribute, &missing)
            && resolve(library, "cublasLtMatmulAlgoGetHeuristic", &lib->algoGetHeuristic, &missing)
            && resolve(library, "cublasLtMatmul", &lib->matmul, &missing))
            return lib;
        lastWhy = candidate + " lacks " + missing;
    }
    *error = "cuBLASLt is not loadable (tried " + tried + ": " + lastWhy
        + "); install libcublasLt (CUDA toolkit or the cuBLAS redistributable) on the node, or run --gemm-engine own";
    return nullptr;
}

// The library stays loaded for the life of the process: cuBLASLt (like the CUDA runtime) keeps
// process-wide state, its static libstdc++ pool among it, that unloading turns into a leak of an
// unknown module (LeakSanitizer) or a crash at exit; loading it again finds it resident.
CublasLtLibrary::~CublasLtLibrary() = default;

} // namespace strata::burn
