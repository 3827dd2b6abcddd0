#include "cublaslt_gemm.h"

// The real header, for its types and constants only: nothing of cuBLASLt is linked (the
// library is dlopen'ed). Every value CublasLtLibrary declares by hand is checked against it.
#include <cublasLt.h>

#include <cstddef>
#include <type_traits>

namespace strata::burn {

static_assert(CublasLtLibrary::computeType32F == CUBLAS_COMPUTE_32F);
static_assert(CublasLtLibrary::dataType32F == CUDA_R_32F);
static_assert(CublasLtLibrary::dataType16BF == CUDA_R_16BF);
static_assert(CublasLtLibrary::dataType8F_E4M3 == CUDA_R_8F_E4M3);
static_assert(CublasLtLibrary::operationN == CUBLAS_OP_N);
static_assert(CublasLtLibrary::operationT == CUBLAS_OP_T);
static_assert(CublasLtLibrary::descTransA == CUBLASLT_MATMUL_DESC_TRANSA);
static_assert(CublasLtLibrary::descTransB == CUBLASLT_MATMUL_DESC_TRANSB);
static_assert(CublasLtLibrary::descFastAccum == CUBLASLT_MATMUL_DESC_FAST_ACCUM);
static_assert(CublasLtLibrary::preferenceMaxWorkspace == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES);
static_assert(CUBLAS_STATUS_SUCCESS == 0);
static_assert(sizeof(CublasLtLibrary::HeuristicResult) == sizeof(cublasLtMatmulHeuristicResult_t));
static_assert(offsetof(CublasLtLibrary::HeuristicResult, workspaceSize) == offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize));
static_assert(offsetof(CublasLtLibrary::HeuristicResult, state) == offsetof(cublasLtMatmulHeuristicResult_t, state));
static_assert(sizeof(cublasLtMatmulAlgo_t) == 8 * sizeof(std::uint64_t));
// Handles are pointers to opaque structs, passed here as void *.
static_assert(std::is_pointer_v<cublasLtHandle_t> && std::is_pointer_v<cublasLtMatmulDesc_t>
              && std::is_pointer_v<cublasLtMatrixLayout_t> && std::is_pointer_v<cublasLtMatmulPreference_t>
              && std::is_pointer_v<cudaStream_t>);

namespace {

// 32 MiB: what cuBLAS recommends for Hopper's and Blackwell's GEMM kernels.
constexpr std::size_t workspaceBytes = 32ull << 20;

std::string statusText(const char *what, int status)
{
    return std::string(what) + " failed: cuBLAS status " + std::to_string(status);
}

} // namespace

CublasLtGemm::CublasLtGemm(const CublasLtLibrary &library) : m_lib(library) {}

CublasLtGemm::~CublasLtGemm() { release(); }

void CublasLtGemm::release()
{
    if (m_preference)
        m_lib.preferenceDestroy(m_preference);
    if (m_layoutC)
        m_lib.matrixLayoutDestroy(m_layoutC);
    if (m_layoutB)
        m_lib.matrixLayoutDestroy(m_layoutB);
    if (m_layoutA)
        m_lib.matrixLayoutDestroy(m_layoutA);
    if (m_operation)
        m_lib.matmulDescDestroy(m_operation);
    if (m_handle)
        m_lib.destroy(m_handle);
    if (m_workspace)
        cudaFree(m_workspace);
    m_preference = m_layoutC = m_layoutB = m_layoutA = m_operation = m_handle = m_workspace = nullptr;
}

bool CublasLtGemm::prepare(GemmEngine engine, int m, int n, int k, std::string *error)
{
    release();
    const bool fp8 = engine == GemmEngine::CublasLtFp8;
    const int inputType = fp8 ? CublasLtLibrary::dataType8F_E4M3 : CublasLtLibrary::dataType16BF;
    int status = m_lib.create(&m_handle);
    if (status != 0) {
        *error = statusText("cublasLtCreate", status);
        return false;
    }
    if ((status = m_lib.matmulDescCreate(&m_operation, CublasLtLibrary::computeType32F, CublasLtLibrary::dataType32F)) != 0) {
        *error = statusText("cublasLtMatmulDescCreate", status);
        return false;
    }
    const std::int32_t transposed = CublasLtLibrary::operationT, plain = CublasLtLibrary::operationN;
    // Fast accumulation off: FP8 partial sums are promoted to fp32 (the bound assumes it).
    const std::int8_t fastAccumulation = 0;
    if ((status = m_lib.matmulDescSetAttribute(m_operation, CublasLtLibrary::descTransA, &transposed, sizeof transposed)) != 0
        || (status = m_lib.matmulDescSetAttribute(m_operation, CublasLtLibrary::descTransB, &plain, sizeof plain)) != 0
        || (fp8 && (status = m_lib.matmulDescSetAttribute(m_operation, CublasLtLibrary::descFastAccum, &fastAccumulation,
                                                         sizeof fastAccumulation)) != 0)) {
        *error = statusText("cublasLtMatmulDescSetAttribute", status);
        return false;
    }
    // Column-major: cuBLAS's A is our B (K x N with ld K, transposed), its B our A (K x M, ld K),
    // its C and D our C seen as N x M with ld N.
    if ((status = m_lib.matrixLayoutCreate(&m_layoutA, inputType, std::uint64_t(k), std::uint64_t(n), k)) != 0
        || (status = m_lib.matrixLayoutCreate(&m_layoutB, inputType, std::uint64_t(k), std::uint64_t(m), k)) != 0
        || (status = m_lib.matrixLayoutCreate(&m_layoutC, CublasLtLibrary::dataType32F, std::uint64_t(n), std::uint64_t(m), n)) != 0) {
        *error = statusText("cublasLtMatrixLayoutCreate", status);
        return false;
    }
    const cudaError_t allocated = cudaMalloc(&m_workspace, workspaceBytes);
    if (allocated != cudaSuccess) {
        m_workspace = nullptr;
        *error = std::string("cudaMalloc(cuBLASLt workspace) failed: ") + cudaGetErrorString(allocated);
        return false;
    }
    m_workspaceBytes = workspaceBytes;
    const std::uint64_t maxWorkspace = workspaceBytes;
    if ((status = m_lib.preferenceCreate(&m_preference)) != 0
        || (status = m_lib.preferenceSetAttribute(m_preference, CublasLtLibrary::preferenceMaxWorkspace, &maxWorkspace,
                                                  sizeof maxWorkspace)) != 0) {
        *error = statusText("cublasLtMatmulPreference", status);
        return false;
    }
    int found = 0;
    status = m_lib.algoGetHeuristic(m_handle, m_operation, m_layoutA, m_layoutB, m_layoutC, m_layoutC, m_preference, 1,
                                    &m_algorithm, &found);
    if (status != 0 || found < 1) {
        *error = std::string("cuBLASLt has no algorithm for a ") + gemmEngineName(engine) + " " + std::to_string(m) + "x"
            + std::to_string(n) + "x" + std::to_string(k) + " product on this GPU (cublasLtMatmulAlgoGetHeuristic: status "
            + std::to_string(status) + ", " + std::to_string(found) + " found)";
        return false;
    }
    return true;
}

bool CublasLtGemm::run(const void *a, const void *b, float *c, cudaStream_t stream, std::string *error)
{
    const float alpha = 1.0f, beta = 0.0f;
    const int status = m_lib.matmul(m_handle, m_operation, &alpha, b, m_layoutA, a, m_layoutB, &beta, c, m_layoutC, c,
                                    m_layoutC, m_algorithm.algo, m_workspace, m_workspaceBytes, stream);
    if (status != 0) {
        *error = statusText("cublasLtMatmul", status);
        return false;
    }
    return true;
}

} // namespace strata::burn
