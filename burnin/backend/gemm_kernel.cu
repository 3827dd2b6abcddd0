#include "gemm_kernel.h"

#include "gemm_check.h"
#include "gemm_fragment.h"

namespace strata::burn {

namespace {

// Tile shapes and every thread-to-element mapping live in gemm_fragment.h, which the host
// emulation (tst_burnin_fragment) runs too.
using namespace fragment;
static_assert(tileM == gemmTileM && tileN == gemmTileN && tileK == gemmTileK);
constexpr std::size_t sharedBytes = std::size_t(stages) * stageElements * sizeof(std::uint16_t);

__device__ __forceinline__ unsigned sharedAddress(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void copyAsync16(void *shared, const void *global)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sharedAddress(shared)), "l"(global));
}

__device__ __forceinline__ void commitGroup() { asm volatile("cp.async.commit_group;\n" ::); }

template <int pending>
__device__ __forceinline__ void waitGroup()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending));
}

__device__ __forceinline__ void loadMatrixX4(unsigned (&r)[4], const void *shared)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(sharedAddress(shared)));
}

__device__ __forceinline__ void mmaBf16(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// One 128 x 32 tile of A and of B into shared memory: 512 16-byte chunks each, 4 per thread.
__device__ __forceinline__ void loadTiles(std::uint16_t *stage, const std::uint16_t *a,
                                          const std::uint16_t *b, int k, int row0, int col0,
                                          int kTile)
{
    std::uint16_t *sa = stage;
    std::uint16_t *sb = stage + tileElements;
#pragma unroll
    for (int i = 0; i < chunksPerThread; ++i) {
        const int chunk = chunkIndex(threadIdx.x, i);
        const int r = chunkRow(chunk);
        const int c = chunkCol(chunk);
        const std::size_t kOffset = std::size_t(kTile) * gemmTileK + c;
        copyAsync16(sa + r * rowStride + c, a + std::size_t(row0 + r) * k + kOffset);
        copyAsync16(sb + r * rowStride + c, b + std::size_t(col0 + r) * k + kOffset);
    }
}

__global__ void __launch_bounds__(threads) bf16GemmKernel(const std::uint16_t *__restrict__ a,
                                                          const std::uint16_t *__restrict__ b,
                                                          float *__restrict__ c, int m, int n, int k)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    extern __shared__ __align__(16) std::uint16_t shared[];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const int warpM = warpRow(warp);   // 0..1, 64 rows each
    const int warpN = warpCol(warp);   // 0..1, 64 columns each
    const int row0 = blockIdx.y * gemmTileM;
    const int col0 = blockIdx.x * gemmTileN;
    const int kTiles = k / gemmTileK;

    float acc[mmaTilesM][mmaTilesN][4] = {}; // [m16 tile][n8 tile][fragment]

#pragma unroll
    for (int s = 0; s < stages - 1; ++s) {
        if (s < kTiles)
            loadTiles(shared + stageOf(s) * stageElements, a, b, k, row0, col0, s);
        commitGroup();
    }

    for (int kt = 0; kt < kTiles; ++kt) {
        waitGroup<stages - 2>();
        __syncthreads();
        // Refills the stage every warp finished reading in the previous iteration.
        const int next = prefetchTile(kt);
        if (next < kTiles)
            loadTiles(shared + stageOf(next) * stageElements, a, b, k, row0, col0, next);
        commitGroup();

        const std::uint16_t *sa = shared + stageOf(kt) * stageElements;
        const std::uint16_t *sb = sa + tileElements;
#pragma unroll
        for (int kk = 0; kk < gemmTileK; kk += 16) {
            unsigned af[mmaTilesM][4];
            unsigned bf[mmaTilesN][2];
#pragma unroll
            for (int mt = 0; mt < mmaTilesM; ++mt)
                loadMatrixX4(af[mt], sa + aLoadRow(warpM, mt, lane) * rowStride + aLoadCol(kk, lane));
#pragma unroll
            for (int np = 0; np < mmaTilesN / 2; ++np) {
                unsigned q[4];
                loadMatrixX4(q, sb + bLoadRow(warpN, np, lane) * rowStride + bLoadCol(kk, lane));
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    bf[bTileOf(np, j)][bRegisterOf(j)] = q[j];
            }
#pragma unroll
            for (int mt = 0; mt < mmaTilesM; ++mt)
#pragma unroll
                for (int nt = 0; nt < mmaTilesN; ++nt)
                    mmaBf16(acc[mt][nt], af[mt], bf[nt][0], bf[nt][1]);
        }
    }
    waitGroup<0>();

#pragma unroll
    for (int mt = 0; mt < mmaTilesM; ++mt) {
#pragma unroll
        for (int nt = 0; nt < mmaTilesN; ++nt) {
#pragma unroll
            for (int r = 0; r < 4; r += 2) { // (c0, c1) and (c2, c3): adjacent columns, one float2
                const int row = row0 + storeRow(warpM, mt, lane, r);
                const int col = col0 + storeCol(warpN, nt, lane, r);
                *reinterpret_cast<float2 *>(c + std::size_t(row) * n + col) = make_float2(acc[mt][nt][r], acc[mt][nt][r + 1]);
            }
        }
    }
#else
    // Only reached if someone builds for a pre-sm_80 target: the host refuses such GPUs first.
    __trap();
#endif
}

__global__ void countMismatchesKernel(const uint4 *__restrict__ first, const uint4 *__restrict__ other,
                                      std::size_t count4, unsigned long long *mismatches)
{
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count4;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const uint4 x = first[i];
        const uint4 y = other[i];
        local += wordMismatch(x.x, y.x) + wordMismatch(x.y, y.y) + wordMismatch(x.z, y.z) + wordMismatch(x.w, y.w);
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        local += __shfl_down_sync(0xffffffffu, local, offset);
    if (threadIdx.x % 32 == 0 && local)
        atomicAdd(mismatches, local);
}

__global__ void countMismatchesTailKernel(const unsigned *first, const unsigned *other,
                                          std::size_t begin, std::size_t count,
                                          unsigned long long *mismatches)
{
    const std::size_t i = begin + blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (i < count && wordMismatch(first[i], other[i]))
        atomicAdd(mismatches, 1ull);
}

__global__ void flipBitKernel(unsigned *words, std::size_t index, unsigned bit)
{
    words[index] ^= 1u << bit;
}

__global__ void spinKernel(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

} // namespace

cudaError_t launchBf16Gemm(const std::uint16_t *a, const std::uint16_t *b, float *c, int m, int n,
                           int k, cudaStream_t stream)
{
    if (m % gemmTileM || n % gemmTileN || k % gemmTileK || m <= 0 || n <= 0 || k <= 0)
        return cudaErrorInvalidValue;
    // More than 48 KiB of dynamic shared memory must be asked for per kernel and per device
    // (each GPU thread has its own current device), so on every launch; it is a cheap call.
    const cudaError_t attribute = cudaFuncSetAttribute(
        bf16GemmKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sharedBytes));
    if (attribute != cudaSuccess)
        return attribute;
    const dim3 grid(n / gemmTileN, m / gemmTileM);
    bf16GemmKernel<<<grid, threads, sharedBytes, stream>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

cudaError_t launchCountMismatches(const float *first, const float *other, std::size_t count,
                                  unsigned long long *mismatches, cudaStream_t stream)
{
    const std::size_t count4 = count / 4;
    if (count4)
        countMismatchesKernel<<<1024, 256, 0, stream>>>(reinterpret_cast<const uint4 *>(first),
                                                        reinterpret_cast<const uint4 *>(other),
                                                        count4, mismatches);
    if (count % 4)
        countMismatchesTailKernel<<<1, 4, 0, stream>>>(reinterpret_cast<const unsigned *>(first),
                                                       reinterpret_cast<const unsigned *>(other),
                                                       count4 * 4, count, mismatches);
    return cudaGetLastError();
}

cudaError_t launchFlipBit(void *words32, std::size_t index, unsigned bit, cudaStream_t stream)
{
    flipBitKernel<<<1, 1, 0, stream>>>(static_cast<unsigned *>(words32), index, bit % 32);
    return cudaGetLastError();
}

cudaError_t launchSpin(unsigned long long ns, cudaStream_t stream)
{
    spinKernel<<<1, 1, 0, stream>>>(ns);
    return cudaGetLastError();
}

} // namespace strata::burn
