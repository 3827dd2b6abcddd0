#pragma once

// Lets the pattern and bf16 helpers be compiled by g++ for the CPU backend and by nvcc for
// kernels, so both backends verify with literally the same arithmetic.
#if defined(__CUDACC__)
#define STRATA_HD __host__ __device__ __forceinline__
#else
#define STRATA_HD inline
#endif
