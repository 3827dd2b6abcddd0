#pragma once

// The GEMM's error model: how far a correct GPU's fp32 result may be from the exact dot product,
// per element, from the inputs alone. One header for the host (the sampled check, the CPU
// backend, the tests' emulation) and the device (backend/reference_kernels.cu, the full-matrix
// and stress-loop checks), so every check judges with literally the same arithmetic.
// burnin/VERIFICATION.md derives it and lists what it catches.

#include "host_device.h"

#include <cmath>
#include <cstdint>

namespace strata::burn {

// One unit in the last place of fp32, relative to the value's binade: 2^-23.
constexpr double fp32Ulp = 1.0 / 8388608.0;

// How a tensor core accumulates a dot product (Fasi et al., "Numerical behavior of NVIDIA
// tensor cores", PeerJ CS 2021): each step adds stepK exact products to the accumulator in
// one multi-operand addition that aligns every term to the largest exponent, truncates the
// bits below the accumulator's last place, and truncates (rounds toward zero) the normalised
// sum. promoteEvery > 0: the accumulator is narrower than fp32 and is added into an fp32
// total (round to nearest) every promoteEvery products, then restarted from zero.
struct AccumulationModel
{
    int stepK = 8;
    double stepUlp = fp32Ulp; // the accumulator's last place relative to its binade: 2^(1 - p)
    int promoteEvery = 0;
};

// BF16 inputs, fp32 accumulator (mma.sync m16n8k16, wgmma, cuBLASLt): 8 products a step, the
// A100's block size in Fasi et al.; Hopper adds 16 at once, which makes half the steps and so
// half the truncations, inside this model.
constexpr AccumulationModel bf16Accumulation{8, fp32Ulp, 0};
// FP8 (E4M3) inputs on Hopper: wgmma adds 32 products a step into an accumulator of about 14
// significant bits (DeepSeek-V3 technical report, sec. 3.3.2); we assume 12 (2^-11), and the
// promotion into fp32 every 128 products that cuBLASLt does with fast accumulation off
// (CUTLASS's Hopper FP8 mainloop: every 4 wgmma).
constexpr AccumulationModel fp8Accumulation{32, 1.0 / 2048.0, 128};

// Standard deviations of the random part in the bound: the check sees 6.7e7 elements a
// product, and a Gaussian tail past 8 sigma has probability ~1e-15.
constexpr double boundSigmas = 8.0;

// One element's exact dot product and the bound of a correct tensor core's error on it, fed
// one exact product at a time in k order (the order of the hardware's steps).
//  - Every product of two bf16 (8-bit significands) or two E4M3 values is exact in fp32 and
//    in double; the double sum of K = 8192 of them is off by < K * 2^-53 * sum|ab|, nothing.
//  - A step's terms align to the step's largest magnitude m_j <= max(|s_before|, |s_after|)
//    + max |product| (s the running sum since the last promotion); one accumulator ulp there
//    is at most stepUlp * m_j.
//  - The normalisation truncates toward zero: less than one ulp a step, always toward zero of
//    the running sum, which keeps its sign over long stretches: summed coherently, the bias
//    term sum_j stepUlp * m_j.
//  - Each of the stepK products (and the accumulator, when a product is the largest term) loses
//    its bits below that ulp: an error in [0, ulp) toward zero of that term. The inputs are
//    symmetric random values, so the products' signs are independent coin flips and these
//    errors are zero-mean with variance at most ulp^2 / 3: the random term, boundSigmas times
//    the square root of sum_j (stepK + 1) (stepUlp m_j)^2 / 3.
//  - A promotion rounds to nearest in fp32: at most half an fp32 ulp of the total, added to
//    the random term (ulp^2 / 3, four times what round-to-nearest needs).
// The CPU backend's sequential fp32 sum (round to nearest each product) errs by a random walk
// of K steps of at most u |s_p|, far inside this bound.
struct ReferenceDot
{
    double sum = 0;       // the exact dot product so far
    double local = 0;     // the sum since the last promotion (the narrow accumulator's value)
    double stepStart = 0; // `local` when the current step began
    double stepLargest = 0;
    double absSum = 0;    // sum |a_p b_p|
    double bias = 0;
    double variance = 0;
    int inStep = 0;
    int inInterval = 0;

    STRATA_HD void add(double product, const AccumulationModel &model)
    {
        sum += product;
        local += product;
        absSum += fabs(product);
        stepLargest = fmax(stepLargest, fabs(product));
        if (++inStep == model.stepK)
            closeStep(model);
    }

    STRATA_HD void closeStep(const AccumulationModel &model)
    {
        if (inStep == 0)
            return;
        const double ulp = model.stepUlp * (fmax(fabs(stepStart), fabs(local)) + stepLargest);
        bias += ulp;
        variance += (inStep + 1) * ulp * ulp / 3.0;
        inInterval += inStep;
        inStep = 0;
        stepLargest = 0;
        if (model.promoteEvery > 0 && inInterval >= model.promoteEvery) {
            const double promoted = fp32Ulp * fabs(sum);
            variance += promoted * promoted / 3.0;
            local = 0;
            inInterval = 0;
        }
        stepStart = local;
    }

    // The most a correct GPU's result may differ from `sum`; closes a last partial step. The
    // absolute floor covers products that underflow.
    STRATA_HD double bound(const AccumulationModel &model)
    {
        closeStep(model);
        return bias + boundSigmas * sqrt(variance) + 1e-30;
    }
};

// What the device keeps per element for the full-matrix and stress-loop checks: the exact
// product rounded to fp32, and the bound widened by that rounding, rounded up.
struct StoredReference
{
    float reference = 0;
    float bound = 0;
};

STRATA_HD StoredReference storeReference(ReferenceDot &dot, const AccumulationModel &model)
{
    StoredReference s;
    s.reference = static_cast<float>(dot.sum);
    const double widened = dot.bound(model) + fabs(static_cast<double>(s.reference) - dot.sum);
    s.bound = static_cast<float>(widened * (1.0 + 1e-6)); // float rounding must not shrink it
    return s;
}

// The judgement every check makes on one element: |got - reference| beyond the bound, or not
// a number. Computed in double so the difference itself is exact.
STRATA_HD bool outOfBounds(float got, double reference, double bound)
{
    return !(fabs(static_cast<double>(got) - reference) <= bound);
}

// got's error in units of its bound (infinity when not finite): the figures' worst ratios.
STRATA_HD double boundRatio(float got, double reference, double bound)
{
    const double error = fabs(static_cast<double>(got) - reference);
    return error == error && error <= 1e300 ? error / bound : INFINITY;
}

// The stress loop's rotating check: iteration `iteration` of the stress loop checks rows
// [begin, end) of the product, so every element is checked once every `slices` iterations.
constexpr int stressSlices = 8;

struct RowSlice
{
    int begin = 0;
    int end = 0;
};

STRATA_HD RowSlice stressSliceRows(long long iteration, int m, int slices = stressSlices)
{
    const int rows = (m + slices - 1) / slices;
    const int s = static_cast<int>(iteration % slices);
    RowSlice r;
    r.begin = s * rows < m ? s * rows : m;
    r.end = r.begin + rows < m ? r.begin + rows : m;
    return r;
}

} // namespace strata::burn
