#include "mma_emulation.h"

#include "gemm_fragment.h"

#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace strata::burn {

namespace {

using namespace fragment;

constexpr int warpSize = 32;
constexpr int warps = threads / warpSize;
constexpr Bf16Bits poison = 0x7fc0; // bf16 quiet NaN in the padding

using WarpRegisters = std::array<std::array<std::uint32_t, 4>, warpSize>; // [lane][register]

std::uint32_t pack(Bf16Bits low, Bf16Bits high) { return std::uint32_t(low) | (std::uint32_t(high) << 16); }
Bf16Bits low(std::uint32_t r) { return Bf16Bits(r & 0xffffu); }
Bf16Bits high(std::uint32_t r) { return Bf16Bits(r >> 16); }
float half(std::uint32_t r, int h) { return floatFromBf16(h ? high(r) : low(r)); }

// ldmatrix.sync.aligned.m8n8.x4.shared.b16 with each lane's element offset into the tile.
bool loadMatrixX4(const std::vector<Bf16Bits> &tile, const std::array<int, warpSize> &address,
                  WarpRegisters &out, std::string &error)
{
    for (int j = 0; j < 4; ++j) {
        for (int r = 0; r < 8; ++r) {
            const int at = address[8 * j + r];
            if (at % 8 != 0) { // 16 bytes
                error = "ldmatrix row address " + std::to_string(at) + " is not 16-byte aligned";
                return false;
            }
            if (at < 0 || at + 8 > static_cast<int>(tile.size())) {
                error = "ldmatrix row address " + std::to_string(at) + " is outside the tile";
                return false;
            }
            for (int w = 0; w < 4; ++w)
                out[4 * r + w][j] = pack(tile[at + 2 * w], tile[at + 2 * w + 1]);
        }
    }
    return true;
}

// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32: d = a * b + c for one warp.
void mmaBf16(const std::array<std::array<std::uint32_t, 4>, warpSize> &a,
             const std::array<std::array<std::uint32_t, 2>, warpSize> &b,
             std::array<std::array<float, 4>, warpSize> &c)
{
    double A[16][16], B[16][8], C[16][8];
    for (int lane = 0; lane < warpSize; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int i = 0; i < 8; ++i) // a_i lives in register i / 2, half i % 2
            A[g + 8 * ((i / 2) % 2)][t * 2 + (i & 1) + 8 * (i / 4)] = half(a[lane][i / 2], i & 1);
        for (int i = 0; i < 4; ++i)
            B[t * 2 + (i & 1) + 8 * (i / 2)][g] = half(b[lane][i / 2], i & 1);
        for (int i = 0; i < 4; ++i)
            C[g + 8 * (i / 2)][t * 2 + (i & 1)] = c[lane][i];
    }
    for (int lane = 0; lane < warpSize; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int i = 0; i < 4; ++i) {
            const int row = g + 8 * (i / 2), col = t * 2 + (i & 1);
            double sum = C[row][col];
            for (int p = 0; p < 16; ++p)
                sum += A[row][p] * B[p][col];
            c[lane][i] = static_cast<float>(sum);
        }
    }
}

} // namespace

EmulationOutcome emulateBf16Gemm(const Bf16Bits *a, const Bf16Bits *b, float *c, int m, int n, int k,
                                 FragmentFault fault)
{
    EmulationOutcome outcome;
    if (m <= 0 || n <= 0 || k <= 0 || m % tileM || n % tileN || k % tileK) {
        outcome.error = "M and N must be multiples of 128 and K of 32";
        return outcome;
    }
    std::vector<int> stores(static_cast<std::size_t>(m) * n, 0);
    std::vector<Bf16Bits> ring(static_cast<std::size_t>(stages) * stageElements);
    std::vector<Bf16Bits> sa(tileElements), sb(tileElements);
    // Accumulators of every lane of every warp: [warp][mt][nt][lane][register].
    using Accumulators = std::array<std::array<float, 4>, warpSize>;
    std::vector<Accumulators> acc(static_cast<std::size_t>(warps) * mmaTilesM * mmaTilesN);
    auto accAt = [&](int warp, int mt, int nt) -> Accumulators & {
        return acc[(static_cast<std::size_t>(warp) * mmaTilesM + mt) * mmaTilesN + nt];
    };
    for (int by = 0; by < m / tileM; ++by) {
        for (int bx = 0; bx < n / tileN; ++bx) {
            const int row0 = by * tileM, col0 = bx * tileN;
            for (Accumulators &x : acc)
                for (auto &lane : x)
                    lane = {0, 0, 0, 0};
            const int kTiles = k / tileK;
            // One cp.async of every thread's chunks of k tile `tile` into its ring stage.
            auto loadTiles = [&](int stage, int tile) {
                Bf16Bits *stageA = ring.data() + static_cast<std::size_t>(stage) * stageElements;
                Bf16Bits *stageB = stageA + tileElements;
                for (int thread = 0; thread < threads; ++thread) {
                    for (int i = 0; i < chunksPerThread; ++i) {
                        const int chunk = chunkIndex(thread, i);
                        const int r = chunkRow(chunk), col = chunkCol(chunk);
                        const std::size_t kOffset = static_cast<std::size_t>(tile) * tileK + col;
                        for (int e = 0; e < 8; ++e) { // one cp.async of 16 bytes
                            stageA[r * rowStride + col + e] = a[static_cast<std::size_t>(row0 + r) * k + kOffset + e];
                            stageB[r * rowStride + col + e] = b[static_cast<std::size_t>(col0 + r) * k + kOffset + e];
                        }
                    }
                }
            };
            std::fill(ring.begin(), ring.end(), poison); // a block's shared memory starts undefined
            for (int s = 0; s < stages - 1; ++s)
                if (s < kTiles)
                    loadTiles(stageOf(s), s);
            for (int kt = 0; kt < kTiles; ++kt) {
                const int next = fault == FragmentFault::RingPrefetchTooFar ? kt + stages : prefetchTile(kt);
                if (next < kTiles)
                    loadTiles(stageOf(next), next);
                const int computed = fault == FragmentFault::RingStaleStage ? stageOf(kt + stages - 1) : stageOf(kt);
                const Bf16Bits *stageA = ring.data() + static_cast<std::size_t>(computed) * stageElements;
                std::copy(stageA, stageA + tileElements, sa.begin());
                std::copy(stageA + tileElements, stageA + stageElements, sb.begin());
                for (int warp = 0; warp < warps; ++warp) {
                    const int warpM = warpRow(warp), warpN = warpCol(warp);
                    for (int kk = 0; kk < tileK; kk += 16) {
                        std::array<std::array<std::array<std::uint32_t, 4>, warpSize>, mmaTilesM> af;
                        std::array<std::array<std::array<std::uint32_t, 2>, warpSize>, mmaTilesN> bf;
                        for (int mt = 0; mt < mmaTilesM; ++mt) {
                            std::array<int, warpSize> address;
                            for (int lane = 0; lane < warpSize; ++lane)
                                address[lane] = aLoadRow(warpM, mt, lane) * rowStride + aLoadCol(kk, lane);
                            WarpRegisters q;
                            if (!loadMatrixX4(sa, address, q, outcome.error))
                                return outcome;
                            for (int lane = 0; lane < warpSize; ++lane) {
                                af[mt][lane] = q[lane];
                                if (fault == FragmentFault::SwapARegisters)
                                    std::swap(af[mt][lane][1], af[mt][lane][2]);
                            }
                        }
                        for (int np = 0; np < mmaTilesN / 2; ++np) {
                            std::array<int, warpSize> address;
                            for (int lane = 0; lane < warpSize; ++lane)
                                address[lane] = bLoadRow(warpN, np, lane) * rowStride + bLoadCol(kk, lane);
                            WarpRegisters q;
                            if (!loadMatrixX4(sb, address, q, outcome.error))
                                return outcome;
                            for (int lane = 0; lane < warpSize; ++lane) {
                                for (int j = 0; j < 4; ++j) {
                                    const int source = fault == FragmentFault::SwapBRegisters && (j == 1 || j == 2) ? 3 - j : j;
                                    bf[bTileOf(np, j)][lane][bRegisterOf(j)] = q[lane][source];
                                }
                            }
                        }
                        for (int mt = 0; mt < mmaTilesM; ++mt)
                            for (int nt = 0; nt < mmaTilesN; ++nt)
                                mmaBf16(af[mt], bf[nt], accAt(warp, mt, nt));
                    }
                }
            }
            for (int warp = 0; warp < warps; ++warp) {
                const int warpM = warpRow(warp), warpN = warpCol(warp);
                for (int mt = 0; mt < mmaTilesM; ++mt) {
                    for (int nt = 0; nt < mmaTilesN; ++nt) {
                        for (int lane = 0; lane < warpSize; ++lane) {
                            for (int r = 0; r < 4; ++r) {
                                int row = storeRow(warpM, mt, lane, r);
                                if (fault == FragmentFault::StoreRowsOverlap && r >= 2)
                                    row -= 8;
                                const int col = storeCol(warpN, nt, lane, r);
                                if (row < 0 || row >= tileM || col < 0 || col >= tileN) {
                                    outcome.error = "store outside the block's C tile";
                                    return outcome;
                                }
                                const std::size_t at = static_cast<std::size_t>(row0 + row) * n + col0 + col;
                                c[at] = accAt(warp, mt, nt)[lane][r];
                                ++stores[at];
                            }
                        }
                    }
                }
            }
        }
    }
    for (std::size_t i = 0; i < stores.size(); ++i) {
        if (stores[i] == 0) {
            ++outcome.unwritten;
            c[i] = std::numeric_limits<float>::quiet_NaN();
        } else if (stores[i] > 1) {
            ++outcome.overwritten;
        }
    }
    outcome.ok = outcome.unwritten == 0 && outcome.overwritten == 0;
    if (!outcome.ok)
        outcome.error = std::to_string(outcome.unwritten) + " elements of C never stored, "
            + std::to_string(outcome.overwritten) + " stored more than once";
    return outcome;
}

} // namespace strata::burn
