#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace strata::burn {

// cuBLASLt, loaded at run time with dlopen like NVML, so strata-burn stays one file with no
// link-time dependency on the CUDA toolkit and says plainly why the fast engine is missing
// where libcublasLt is not installed. Only the few entry points the GEMM engine needs; their
// types are declared here as the ABI has them (opaque handles as void *, enums as int), and
// backend/cublaslt_gemm.cu checks every constant and layout against the real cublasLt.h at
// compile time. Owned by the CUDA backend; the functions are safe from any thread (cuBLASLt's
// are, with one handle per thread).
class CublasLtLibrary
{
public:
    using Status = int; // cublasStatus_t; 0 is CUBLAS_STATUS_SUCCESS

    // cublasLtMatmulHeuristicResult_t: the algorithm is 8 opaque 64-bit words.
    struct HeuristicResult
    {
        std::uint64_t algo[8];
        std::size_t workspaceSize;
        Status state;
        float wavesCount;
        int reserved[4];
    };

    // Constants of cublasLt.h / library_types.h used here.
    static constexpr int computeType32F = 68;        // CUBLAS_COMPUTE_32F
    static constexpr int dataType32F = 0;            // CUDA_R_32F
    static constexpr int dataType16BF = 14;          // CUDA_R_16BF
    static constexpr int dataType8F_E4M3 = 28;       // CUDA_R_8F_E4M3
    static constexpr int operationN = 0;             // CUBLAS_OP_N
    static constexpr int operationT = 1;             // CUBLAS_OP_T
    static constexpr int descTransA = 3;             // CUBLASLT_MATMUL_DESC_TRANSA
    static constexpr int descTransB = 4;             // CUBLASLT_MATMUL_DESC_TRANSB
    static constexpr int descFastAccum = 25;         // CUBLASLT_MATMUL_DESC_FAST_ACCUM
    static constexpr int preferenceMaxWorkspace = 1; // CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES

    // The shared objects tried, in order: the toolkit's current and previous majors.
    static std::vector<std::string> defaultCandidates();

    // Loads the first candidate that opens and has every entry point; on failure returns null
    // and says which files were tried and what the loader answered (*error). candidates empty:
    // defaultCandidates(), or the one path in $STRATA_BURN_CUBLASLT when set.
    static std::unique_ptr<CublasLtLibrary> load(std::string *error, std::vector<std::string> candidates = {});

    ~CublasLtLibrary();
    CublasLtLibrary(const CublasLtLibrary &) = delete;
    CublasLtLibrary &operator=(const CublasLtLibrary &) = delete;

    const std::string &path() const { return m_path; }
    std::size_t version() const { return getVersion(); } // e.g. 130100 for 13.1.0

    Status (*create)(void **handle) = nullptr;
    Status (*destroy)(void *handle) = nullptr;
    std::size_t (*getVersion)() = nullptr;
    Status (*matmulDescCreate)(void **desc, int computeType, int scaleType) = nullptr;
    Status (*matmulDescDestroy)(void *desc) = nullptr;
    Status (*matmulDescSetAttribute)(void *desc, int attribute, const void *value, std::size_t size) = nullptr;
    Status (*matrixLayoutCreate)(void **layout, int type, std::uint64_t rows, std::uint64_t cols, std::int64_t ld) = nullptr;
    Status (*matrixLayoutDestroy)(void *layout) = nullptr;
    Status (*preferenceCreate)(void **preference) = nullptr;
    Status (*preferenceDestroy)(void *preference) = nullptr;
    Status (*preferenceSetAttribute)(void *preference, int attribute, const void *value, std::size_t size) = nullptr;
    Status (*algoGetHeuristic)(void *handle, void *operation, void *a, void *b, void *c, void *d, void *preference,
                               int requested, HeuristicResult *results, int *returned) = nullptr;
    Status (*matmul)(void *handle, void *operation, const void *alpha, const void *a, void *aLayout, const void *b,
                     void *bLayout, const void *beta, const void *c, void *cLayout, void *d, void *dLayout,
                     const void *algo, void *workspace, std::size_t workspaceSize, void *stream) = nullptr;

private:
    CublasLtLibrary() = default;

    void *m_library = nullptr;
    std::string m_path;
};

} // namespace strata::burn
