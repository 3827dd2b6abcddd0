// strata-burn-cublas-check: measures our BF16 GEMM and HBM copy kernels against cuBLAS and
// cudaMemcpy on one GPU, and checks our product against cuBLAS's element by element. Built
// only with -DSTRATA_BURN_TOOLS=ON (links the cuBLAS shared library); run by gpu-check.sh.
#include "cuda_check.h"
#include "gemm_check.h"
#include "gemm_kernel.h"
#include "hbm_kernels.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace strata::burn;

namespace {

#define CHECK_CUDA(call)                                                                           \
    do {                                                                                           \
        const cudaError_t rc_ = (call);                                                            \
        if (rc_ != cudaSuccess) {                                                                  \
            std::fprintf(stderr, "%s\n", cudaErrorText(rc_, #call).c_str());                      \
            std::exit(3);                                                                          \
        }                                                                                          \
    } while (0)

#define CHECK_CUBLAS(call)                                                                         \
    do {                                                                                           \
        const cublasStatus_t st_ = (call);                                                         \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                        \
            std::fprintf(stderr, "%s: cuBLAS status %d\n", #call, static_cast<int>(st_));         \
            std::exit(3);                                                                          \
        }                                                                                          \
    } while (0)

// Worst |ours - theirs| / scale over all elements; scale = (|A| |B|^T), the error scale of each
// dot product. Non-negative floats order like their bit patterns, so atomicMax on bits works.
__global__ void worstRelativeError(const float *ours, const float *theirs, const float *scale,
                                   std::size_t count, unsigned *worstBits, unsigned long long *nonFinite)
{
    float worst = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const float diff = fabsf(ours[i] - theirs[i]);
        if (!isfinite(ours[i]) || !isfinite(theirs[i])) {
            atomicAdd(nonFinite, 1ull);
            continue;
        }
        worst = fmaxf(worst, diff / fmaxf(scale[i], 1e-30f));
    }
    atomicMax(worstBits, __float_as_uint(worst));
}

struct Timer
{
    cudaEvent_t start, stop;
    Timer()
    {
        CHECK_CUDA(cudaEventCreate(&start));
        CHECK_CUDA(cudaEventCreate(&stop));
    }
    ~Timer()
    {
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    template <typename F>
    double seconds(int reps, F work)
    {
        work(); // warm-up
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaEventRecord(start));
        for (int i = 0; i < reps; ++i)
            work();
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
        return ms / 1000.0 / reps;
    }
    // Seconds per repetition, repeating until at least `minSeconds` were timed (batches of
    // `reps`), so clocks settle and one slow launch does not decide the figure.
    template <typename F>
    double secondsFor(double minSeconds, int reps, F work)
    {
        double total = 0;
        int batches = 0;
        while (total < minSeconds || batches == 0) {
            total += seconds(reps, work) * reps;
            ++batches;
        }
        return total / (double(batches) * reps);
    }
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    int size = 8192;
    int reps = 20;
    int rounds = 3;
    double minSeconds = 2.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--size"))
            size = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--reps"))
            reps = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--rounds"))
            rounds = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--seconds"))
            minSeconds = std::atof(argv[i + 1]);
    }
    if (size <= 0 || size % gemmTileM || reps <= 0 || rounds <= 0 || !(minSeconds > 0)) {
        std::fprintf(stderr, "usage: strata-burn-cublas-check [--size N (multiple of 128)] [--reps R] "
                             "[--rounds 3] [--seconds 2 (per engine and round)]\n");
        return 2;
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s, sm_%d%d, %d SMs, %.1f GiB\n", prop.name, prop.major, prop.minor,
                prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0);

    const int m = size, n = size, k = size;
    const std::size_t elems = std::size_t(size) * size;
    const std::vector<Bf16Bits> a = makeGemmInput(elems, 0xa11ce);
    const std::vector<Bf16Bits> b = makeGemmInput(elems, 0xb0b);
    std::vector<Bf16Bits> absA(a), absB(b);
    for (Bf16Bits &v : absA)
        v &= 0x7fff;
    for (Bf16Bits &v : absB)
        v &= 0x7fff;
    std::uint16_t *dA, *dB, *dAbsA, *dAbsB;
    float *dOurs, *dTheirs, *dScale;
    unsigned *dWorst;
    unsigned long long *dNonFinite;
    CHECK_CUDA(cudaMalloc(&dA, elems * 2));
    CHECK_CUDA(cudaMalloc(&dB, elems * 2));
    CHECK_CUDA(cudaMalloc(&dAbsA, elems * 2));
    CHECK_CUDA(cudaMalloc(&dAbsB, elems * 2));
    CHECK_CUDA(cudaMalloc(&dOurs, elems * 4));
    CHECK_CUDA(cudaMalloc(&dTheirs, elems * 4));
    CHECK_CUDA(cudaMalloc(&dScale, elems * 4));
    CHECK_CUDA(cudaMalloc(&dWorst, sizeof(unsigned)));
    CHECK_CUDA(cudaMalloc(&dNonFinite, sizeof(unsigned long long)));
    CHECK_CUDA(cudaMemcpy(dA, a.data(), elems * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, b.data(), elems * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dAbsA, absA.data(), elems * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dAbsB, absB.data(), elems * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dWorst, 0, sizeof(unsigned)));
    CHECK_CUDA(cudaMemset(dNonFinite, 0, sizeof(unsigned long long)));

    cublasHandle_t handle;
    CHECK_CUBLAS(cublasCreate(&handle));
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A * B^T is column-major C^T = B * A^T: op(B) = T over B's K x N view.
    auto cublasGemm = [&](const std::uint16_t *x, const std::uint16_t *y, float *c) {
        CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, y, CUDA_R_16BF, k, x,
                                  CUDA_R_16BF, k, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT));
    };
    auto ourGemm = [&] { CHECK_CUDA(launchBf16Gemm(dA, dB, dOurs, m, n, k, nullptr)); };

    Timer timer;
    const double flops = 2.0 * m * n * k;
    // Interleaved: ours, cuBLAS, ours, cuBLAS, ... each for >= minSeconds; the medians count,
    // so neither engine always runs on a cold (or a hot, throttled) GPU.
    std::vector<double> oursRounds, theirsRounds;
    for (int r = 0; r < rounds; ++r) {
        oursRounds.push_back(timer.secondsFor(minSeconds, reps, ourGemm));
        theirsRounds.push_back(timer.secondsFor(minSeconds, reps, [&] { cublasGemm(dA, dB, dTheirs); }));
        std::printf("round %d: ours %.1f TFLOPS, cuBLAS %.1f TFLOPS\n", r + 1, 2.0 * m * n * k / oursRounds.back() / 1e12,
                    2.0 * m * n * k / theirsRounds.back() / 1e12);
    }
    const double oursS = median(oursRounds);
    const double theirsS = median(theirsRounds);
    cublasGemm(dAbsA, dAbsB, dScale);
    ourGemm();
    worstRelativeError<<<prop.multiProcessorCount * 8, 256>>>(dOurs, dTheirs, dScale, elems, dWorst, dNonFinite);
    CHECK_CUDA(cudaGetLastError());
    unsigned worstBits = 0;
    unsigned long long nonFinite = 0;
    CHECK_CUDA(cudaMemcpy(&worstBits, dWorst, sizeof worstBits, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&nonFinite, dNonFinite, sizeof nonFinite, cudaMemcpyDeviceToHost));
    float worst = 0;
    std::memcpy(&worst, &worstBits, sizeof worst);

    std::vector<float> ours(elems), theirs(elems);
    CHECK_CUDA(cudaMemcpy(ours.data(), dOurs, elems * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(theirs.data(), dTheirs, elems * 4, cudaMemcpyDeviceToHost));
    const SampledCheck oursRef = checkSampledElements(a.data(), b.data(), ours.data(), m, n, k, 512, 0x5a3b1e);
    const SampledCheck theirsRef = checkSampledElements(a.data(), b.data(), theirs.data(), m, n, k, 512, 0x5a3b1e);

    // HBM: our copy kernel against cudaMemcpy device to device, both counting read + written.
    const std::size_t copyBytes = std::min<std::size_t>(4ull << 30, prop.totalGlobalMem / 8) / 4096 * 4096;
    void *src, *dst;
    CHECK_CUDA(cudaMalloc(&src, copyBytes));
    CHECK_CUDA(cudaMalloc(&dst, copyBytes));
    CHECK_CUDA(cudaMemset(src, 0x3c, copyBytes));
    std::vector<double> ourCopyRounds, memcpyRounds;
    for (int r = 0; r < rounds; ++r) {
        ourCopyRounds.push_back(timer.secondsFor(minSeconds, reps, [&] {
            CHECK_CUDA(launchCopyBandwidth(src, dst, copyBytes, prop.multiProcessorCount * 8, nullptr));
        }));
        memcpyRounds.push_back(timer.secondsFor(minSeconds, reps, [&] {
            CHECK_CUDA(cudaMemcpyAsync(dst, src, copyBytes, cudaMemcpyDeviceToDevice));
        }));
    }
    const double ourCopyS = median(ourCopyRounds);
    const double memcpyS = median(memcpyRounds);

    const double oursTflops = flops / oursS / 1e12, theirsTflops = flops / theirsS / 1e12;
    const double ourCopy = 2.0 * copyBytes / ourCopyS / 1e12, memcpyCopy = 2.0 * copyBytes / memcpyS / 1e12;
    const bool agree = nonFinite == 0 && worst <= tensorCoreRelBound(k) && oursRef.outOfBounds == 0
        && theirsRef.outOfBounds == 0;
    std::printf("gemm %dx%dx%d bf16->fp32 (median of %d interleaved rounds): ours %.1f TFLOPS, cuBLAS %.1f TFLOPS (ours at %.0f%% of cuBLAS)\n",
                m, n, k, rounds, oursTflops, theirsTflops, 100.0 * oursTflops / theirsTflops);
    std::printf("gemm agreement: worst |ours - cuBLAS| / (|A||B|^T) = %.3g (bound %.3g), non-finite %llu; "
                "host reference (512 samples, worst error / fp32 accumulation bound): ours %.3g, cuBLAS %.3g -> %s\n",
                worst, tensorCoreRelBound(k), nonFinite, oursRef.worstBoundRatio, theirsRef.worstBoundRatio,
                agree ? "AGREE" : "DISAGREE");
    std::printf("hbm copy %.1f GiB: ours %.3f TB/s, cudaMemcpy D2D %.3f TB/s (ours at %.0f%%)\n",
                copyBytes / 1073741824.0, ourCopy, memcpyCopy, 100.0 * ourCopy / memcpyCopy);
    cublasDestroy(handle);
    return agree ? 0 : 1;
}
