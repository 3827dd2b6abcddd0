#pragma once

#include "bf16.h"

#include <cstdint>
#include <string>

namespace strata::burn {

// A deliberate layout mistake the emulation can apply, so a test shows it would be caught.
enum class FragmentFault {
    None,
    SwapBRegisters, // ldmatrix result registers q1 and q2 of B swapped (n8 tiles mixed up)
    SwapARegisters, // a1 and a2 swapped (rows 8-15 at k 0-7 read as rows 0-7 at k 8-15)
    StoreRowsOverlap, // the epilogue forgets the + 8 rows of c2, c3
    RingPrefetchTooFar, // the ring refills tile kt + stages: the stage tile kt is being read from
    RingStaleStage,     // the ring computes from the stage of tile kt - 1 (an off-by-one stage)
};

struct EmulationOutcome
{
    bool ok = false;
    std::string error; // why the kernel's addressing is invalid (misaligned, out of the tile)
    std::int64_t unwritten = 0; // C elements no thread stored
    std::int64_t overwritten = 0; // C elements stored more than once
};

// Runs the own GEMM kernel (backend/gemm_kernel.cu) on the host: every block, warp and lane,
// with the kernel's index math from gemm_fragment.h, and ldmatrix.x4 / mma.sync m16n8k16 bf16
// emulated per the PTX ISA (9.7.9.x "ldmatrix": lane 8j + r gives the address of row r of
// matrix j; register j of lane 4r + w holds row r, elements 2w and 2w + 1 of matrix j.
// 9.7.14.5.8 "Matrix fragments for mma.m16n8k16 with floating point type": groupID = lane / 4,
// tig = lane % 4; A a0..a7 at row groupID (+8 for a2, a3, a6, a7), column tig * 2 + (i & 1)
// (+8 for a4..a7); B b0..b3 at k = tig * 2 + (i & 1) (+8 for b2, b3), n = groupID; C c0..c3 at
// row groupID (+8 for c2, c3), column tig * 2 + (i & 1)). The cp.async ring is emulated as the
// kernel runs it (gemm_fragment.h's stages, stageOf, prefetchTile): one ring per block, NaN
// until first written, refilled in the kernel's order, so a stage reused too early or read
// before it is filled gives wrong or NaN elements. Shared-memory padding holds NaN, so a read
// outside the tile's data poisons the result. Products are summed exactly per mma step
// and rounded to fp32, so C matches the host reference within accumulationBound().
// M and N must be multiples of 128 and K of 32, as for the kernel.
EmulationOutcome emulateBf16Gemm(const Bf16Bits *a, const Bf16Bits *b, float *c, int m, int n, int k,
                                 FragmentFault fault = FragmentFault::None);

} // namespace strata::burn
