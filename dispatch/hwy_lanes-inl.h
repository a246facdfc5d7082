// The lane type of include/simdccd/simd/lanes.hpp for Highway vectors of the
// current HWY_NAMESPACE (one full vector of doubles: 1 lane on SCALAR, 2 on
// SSSE3/SSE4/NEON, 4 on AVX2, 8 on AVX3, a runtime count on SVE).
//
// Re-included once per target by foreach_target.h (dispatch/linear_ccd.cc),
// hence the toggling include guard instead of #pragma once.
//
// Semantics match ScalarLanes bit for bit on every target:
// - add/sub/mul/div/sqrt round once (IEEE-754); never MulAdd, which is a
//   fused FMA on some targets and mul + add on others;
// - min(a, b) is `b < a ? b : a` and max(a, b) is `a < b ? b : a` exactly,
//   NaN and signed zeros included (Highway's Min/Max differ by target on
//   those: x86 MINPD returns its second operand, NEON is IEEE minimum, SCALAR
//   skips NaN). On x86 the operand order of MINPD/MAXPD gives exactly that in
//   one instruction; elsewhere a compare and a select.
//
// Vectors (sizeless on SVE) appear only as locals, arguments and results.
// Every function here is a plain inline member: the per-target entry points
// are HWY_FLATTEN (see linear_ccd.cc), which inlines the kernel templates and
// these functions into code compiled for the target.

#if defined(SIMDCCD_DISPATCH_HWY_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_DISPATCH_HWY_LANES_INL_H_
#undef SIMDCCD_DISPATCH_HWY_LANES_INL_H_
#else
#define SIMDCCD_DISPATCH_HWY_LANES_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace simdccd::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

struct HwyLanes {
  using D = hn::ScalableTag<double>;
  using V = hn::Vec<D>;
  using M = hn::Mask<D>;

  static std::size_t lanes() { return hn::Lanes(D()); }
  static V load(const double* p) { return hn::LoadU(D(), p); }
  static void store(V v, double* p) { hn::StoreU(v, D(), p); }
  static V set(double x) { return hn::Set(D(), x); }
  static V add(V a, V b) { return hn::Add(a, b); }
  static V sub(V a, V b) { return hn::Sub(a, b); }
  static V mul(V a, V b) { return hn::Mul(a, b); }
  static V div(V a, V b) { return hn::Div(a, b); }
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  // MINPD(x, y) = x < y ? x : y; MAXPD(x, y) = x > y ? x : y (also for NaN, +-0).
  static V min(V a, V b) { return hn::Min(b, a); }
  static V max(V a, V b) { return hn::Max(b, a); }
#else
  static V min(V a, V b) { return hn::IfThenElse(hn::Lt(b, a), b, a); }
  static V max(V a, V b) { return hn::IfThenElse(hn::Lt(a, b), b, a); }
#endif
  static V abs(V a) { return hn::Abs(a); }
  static V sqrt(V a) { return hn::Sqrt(a); }
  static M lt(V a, V b) { return hn::Lt(a, b); }
  static M le(V a, V b) { return hn::Le(a, b); }
  static M gt(V a, V b) { return hn::Gt(a, b); }
  static M ge(V a, V b) { return hn::Ge(a, b); }
  static M eq(V a, V b) { return hn::Eq(a, b); }
  static V select(M m, V yes, V no) { return hn::IfThenElse(m, yes, no); }
  static M both(M a, M b) { return hn::And(a, b); }
  static M either(M a, M b) { return hn::Or(a, b); }
  static M but_not(M a, M b) { return hn::AndNot(b, a); }  // AndNot(x, y) = ~x & y
  static bool any(M m) { return !hn::AllFalse(D(), m); }
  static bool all(M m) { return hn::AllTrue(D(), m); }
  // Compress in a register, then a plain store (AVX-512's compress to memory
  // is microcoded on AMD). Highway 1.0's Compress of 64-bit lanes on AVX2 and
  // AVX-512 copies a table of up to 2 KiB to the stack on every call with
  // GCC 12, so those two use VCOMPRESSPD and a permutation of their own.
  static std::size_t compress_store(V v, M m, double* p) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    hn::StoreU(V{_mm512_maskz_compress_pd(m.raw, v.raw)}, D(), p);
    return static_cast<std::size_t>(__builtin_popcount(m.raw));
#elif HWY_TARGET == HWY_AVX2
    // 32-bit halves of the kept doubles first, for each 4-bit mask.
    alignas(32) static constexpr int kHalves[16][8] = {
        {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7},
        {4, 5, 0, 1, 2, 3, 6, 7}, {0, 1, 4, 5, 2, 3, 6, 7}, {2, 3, 4, 5, 0, 1, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7},
        {6, 7, 0, 1, 2, 3, 4, 5}, {0, 1, 6, 7, 2, 3, 4, 5}, {2, 3, 6, 7, 0, 1, 4, 5}, {0, 1, 2, 3, 6, 7, 4, 5},
        {4, 5, 6, 7, 0, 1, 2, 3}, {0, 1, 4, 5, 6, 7, 2, 3}, {2, 3, 4, 5, 6, 7, 0, 1}, {0, 1, 2, 3, 4, 5, 6, 7}};
    const int bits = _mm256_movemask_pd(m.raw);
    const __m256i order = _mm256_load_si256(reinterpret_cast<const __m256i*>(kHalves[bits]));
    hn::StoreU(V{_mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(v.raw), order))}, D(), p);
    return static_cast<std::size_t>(__builtin_popcount(static_cast<unsigned>(bits)));
#else
    hn::StoreU(hn::Compress(v, m), D(), p);
    return hn::CountTrue(D(), m);
#endif
  }
};

}  // namespace simdccd::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // SIMDCCD_DISPATCH_HWY_LANES_INL_H_ toggle
