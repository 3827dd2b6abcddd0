#pragma once

#include "host_device.h"

// The own BF16 GEMM kernel's index math (backend/gemm_kernel.cu), shared with its host
// emulation (common/mma_emulation.cpp) so a layout change that breaks the kernel fails in CI on a
// machine without a GPU. Everything here is plain integer arithmetic on the thread's position.

namespace strata::burn::fragment {

constexpr int tileM = 128;               // C rows per block
constexpr int tileN = 128;               // C columns per block
constexpr int tileK = 32;                // k per pipeline stage
// 4 warps: 2 along M x 2 along N, each 64 x 64 of C. Per k16 step a warp loads 4 ldmatrix.x4
// of A and 4 of B for 32 mma.sync (64 x 32 tiles: 4 + 2 for 16), so shared-memory reads per
// mma fall by a third, the limit of the 64 x 32 layout; 128 fp32 accumulators per thread.
constexpr int threads = 128;
constexpr int warpTileM = 64;
constexpr int warpTileN = 64;
constexpr int warpsN = tileN / warpTileN; // 2
constexpr int mmaTilesM = warpTileM / 16; // m16 tiles per warp: 4
constexpr int mmaTilesN = warpTileN / 8;  // n8 tiles per warp: 8
constexpr int pad = 8;                    // bf16 per smem row of padding: rows 80 bytes apart,
                                          // so ldmatrix's 8 row addresses hit distinct banks
constexpr int rowStride = tileK + pad;    // shared-memory row pitch in bf16
constexpr int tileElements = tileM * rowStride; // A and B tiles have the same shape
constexpr int chunksPerThread = tileM * tileK / 8 / threads; // 16-byte cp.async chunks: 4

// The cp.async ring: `stages` shared-memory stages (A and B tiles each). The prologue fills
// stages for k tiles 0 .. stages - 2; iteration kt first refills the stage of tile
// prefetchTile(kt), which every warp finished reading in iteration kt - 1, then computes from the
// stage of tile kt. The emulation runs this same order over one ring per block, so a stage
// index or prefetch distance that reuses a tile still being read fails in CI.
constexpr int stages = 3;
constexpr int stageElements = 2 * tileElements;
STRATA_HD int stageOf(int kTile) { return kTile % stages; }
STRATA_HD int prefetchTile(int kt) { return kt + stages - 1; }

STRATA_HD int warpRow(int warp) { return warp / warpsN; }    // 0..1
STRATA_HD int warpCol(int warp) { return warp % warpsN; }    // 0..1

// Global -> shared copy: chunk `i` of this thread is row chunkRow, bf16 column chunkCol of the
// 128 x 32 tile (the same for A and B).
STRATA_HD int chunkIndex(int thread, int i) { return thread + i * threads; }
STRATA_HD int chunkRow(int chunk) { return chunk / (tileK / 8); }
STRATA_HD int chunkCol(int chunk) { return (chunk % (tileK / 8)) * 8; }

// ldmatrix.x4 row addresses (PTX: lane 8*j + r addresses row r of matrix j). For A, lanes 0-15
// address rows 0-15 at k, lanes 16-31 the same rows at k + 8, so matrices are
// (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15): mma's a0..a3 registers.
STRATA_HD int aLoadRow(int warpM, int mt, int lane) { return warpM * warpTileM + mt * 16 + (lane % 16); }
STRATA_HD int aLoadCol(int kk, int lane) { return kk + (lane / 16) * 8; }

// For B (stored n-major, k contiguous), one ldmatrix.x4 covers two n8 tiles:
// (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15).
STRATA_HD int bLoadRow(int warpN, int np, int lane)
{
    return warpN * warpTileN + np * 16 + (lane % 8) + (lane / 16) * 8;
}
STRATA_HD int bLoadCol(int kk, int lane) { return kk + ((lane / 8) % 2) * 8; }

// Which n8 tile and which of its two b registers the ldmatrix result register q (0..3) of pair
// np feeds: q0, q1 -> tile 2np (b0, b1), q2, q3 -> tile 2np + 1.
STRATA_HD int bTileOf(int np, int q) { return np * 2 + q / 2; }
STRATA_HD int bRegisterOf(int q) { return q % 2; }

// Epilogue: accumulator register r (0..3) of lane for mma tile (mt, nt) lands at row, col of the
// block's C tile (PTX m16n8 C fragment: c0, c1 at row groupID, c2, c3 at groupID + 8, columns
// threadID_in_group * 2 + (r & 1)). The kernel stores (c0, c1) and (c2, c3) as float2.
STRATA_HD int storeRow(int warpM, int mt, int lane, int r) { return warpM * warpTileM + mt * 16 + lane / 4 + (r / 2) * 8; }
STRATA_HD int storeCol(int warpN, int nt, int lane, int r) { return warpN * warpTileN + nt * 8 + (lane % 4) * 2 + (r % 2); }

} // namespace strata::burn::fragment
