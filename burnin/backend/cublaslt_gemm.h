#pragma once

#include "cublaslt_library.h"
#include "gemm_engine.h"

#include <cuda_runtime.h>

#include <string>

namespace strata::burn {

// One device thread's cuBLASLt product in the GEMM test's layout: C (M x N, fp32, row-major) =
// A (M x K, row-major) * B^T (B N x K, row-major), BF16 or FP8 E4M3 inputs, fp32 accumulation
// and output, beta 0. In cuBLAS's column-major terms that is C^T = B * A^T, the "TN" form FP8
// requires, so both precisions use one layout. Holds the handle, descriptors, the algorithm
// the heuristic picked and its workspace; created and used on one thread, for one device.
class CublasLtGemm
{
public:
    explicit CublasLtGemm(const CublasLtLibrary &library);
    ~CublasLtGemm();
    CublasLtGemm(const CublasLtGemm &) = delete;
    CublasLtGemm &operator=(const CublasLtGemm &) = delete;

    // engine is CublasLtBf16 or CublasLtFp8. False, with cuBLASLt's status in *error, when the
    // library offers no algorithm for it on this device.
    bool prepare(GemmEngine engine, int m, int n, int k, std::string *error);
    // Enqueues one product on stream; a and b are device pointers of the prepared input type.
    bool run(const void *a, const void *b, float *c, cudaStream_t stream, std::string *error);

private:
    void release();

    const CublasLtLibrary &m_lib;
    void *m_handle = nullptr;
    void *m_operation = nullptr;
    void *m_layoutA = nullptr; // cuBLAS's A: our B
    void *m_layoutB = nullptr; // cuBLAS's B: our A
    void *m_layoutC = nullptr;
    void *m_preference = nullptr;
    void *m_workspace = nullptr;
    std::size_t m_workspaceBytes = 0;
    CublasLtLibrary::HeuristicResult m_algorithm{};
};

} // namespace strata::burn
