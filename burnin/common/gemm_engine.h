#pragma once

#include <string>

namespace strata::burn {

// Which code computes the GEMM test's products. The stress engine runs for the whole test;
// the own kernel stays the independent check: where cuBLASLt is loaded, the own kernel and
// cuBLASLt compute the same BF16 product once per test and are compared element by element.
enum class GemmEngine {
    Own,          // the own mma.sync kernel (backend/gemm_kernel.cu), BF16 in, fp32 out
    CublasLtBf16, // cuBLASLt, BF16 in, fp32 accumulate and out (Hopper wgmma, Blackwell tcgen05)
    CublasLtFp8,  // cuBLASLt, FP8 E4M3 in, fp32 out, fast accumulation off (sm_89 and newer)
    Cpu,          // the CPU backend's sequential fp32 product
};

// "own-bf16", "cublaslt-bf16", "cublaslt-fp8-e4m3", "cpu": the figures' `engine`.
const char *gemmEngineName(GemmEngine engine);

// What --gemm-engine asked for.
enum class GemmEngineRequest { Auto, Own, CublasLt, Fp8 };

// "auto", "own", "cublaslt", "fp8"; false for anything else.
bool parseGemmEngineRequest(const std::string &text, GemmEngineRequest *request);

struct GemmEnginePlan
{
    GemmEngine stress = GemmEngine::Own;
    std::string note;        // why auto fell back to the own kernel (the figures carry it)
    std::string error;       // the request cannot be met on this device: the test fails with it
};

// The dispatch, as a pure function of what the device and the node offer: compute capability
// (FP8 needs 8.9 or newer, BF16 tensor cores 8.0) and whether cuBLASLt loaded (and if not, why).
// auto: cuBLASLt BF16 where it loaded, else the own kernel with a note; cublaslt and fp8 fail
// with the reason where they cannot run, never fall back silently.
GemmEnginePlan planGemmEngine(GemmEngineRequest request, int ccMajor, int ccMinor, bool cublasLtLoaded,
                              const std::string &cublasLtStatus);

} // namespace strata::burn
