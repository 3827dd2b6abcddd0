#include "gemm_engine.h"

namespace strata::burn {

const char *gemmEngineName(GemmEngine engine)
{
    switch (engine) {
    case GemmEngine::Own: return "own-bf16";
    case GemmEngine::CublasLtBf16: return "cublaslt-bf16";
    case GemmEngine::CublasLtFp8: return "cublaslt-fp8-e4m3";
    case GemmEngine::Cpu: return "cpu";
    }
    return "?";
}

bool parseGemmEngineRequest(const std::string &text, GemmEngineRequest *request)
{
    if (text == "auto")
        *request = GemmEngineRequest::Auto;
    else if (text == "own")
        *request = GemmEngineRequest::Own;
    else if (text == "cublaslt")
        *request = GemmEngineRequest::CublasLt;
    else if (text == "fp8")
        *request = GemmEngineRequest::Fp8;
    else
        return false;
    return true;
}

GemmEnginePlan planGemmEngine(GemmEngineRequest request, int ccMajor, int ccMinor, bool cublasLtLoaded,
                              const std::string &cublasLtStatus)
{
    GemmEnginePlan plan;
    const std::string cc = std::to_string(ccMajor) + "." + std::to_string(ccMinor);
    if (ccMajor < 8) {
        plan.error = "compute capability " + cc + " has no BF16 tensor cores: the GEMM test needs sm_80 or newer";
        return plan;
    }
    switch (request) {
    case GemmEngineRequest::Own:
        plan.stress = GemmEngine::Own;
        break;
    case GemmEngineRequest::Auto:
        plan.stress = cublasLtLoaded ? GemmEngine::CublasLtBf16 : GemmEngine::Own;
        if (!cublasLtLoaded)
            plan.note = "own kernel: " + cublasLtStatus;
        break;
    case GemmEngineRequest::CublasLt:
        plan.stress = GemmEngine::CublasLtBf16;
        if (!cublasLtLoaded)
            plan.error = cublasLtStatus;
        break;
    case GemmEngineRequest::Fp8:
        plan.stress = GemmEngine::CublasLtFp8;
        if (ccMajor * 10 + ccMinor < 89)
            plan.error = "FP8 (E4M3) tensor cores need compute capability 8.9 or newer; this GPU has " + cc;
        else if (!cublasLtLoaded)
            plan.error = cublasLtStatus;
        break;
    }
    return plan;
}

} // namespace strata::burn
