// The lane type of lanes.hpp for xsimd batches: XsimdLanes<Arch> runs the
// kernel math on xsimd::batch<double, Arch> (xsimd 8). Used by
// include/simdccd/xsimd.hpp.
//
// Semantics match ScalarLanes bit for bit: every operation rounds once (the
// math never asks for a fused multiply-add; compile with -ffp-contract=off so
// that the compiler does not fuse a multiply and an add either), and
// min(a, b) = `b < a ? b : a`, max(a, b) = `a < b ? b : a` exactly, NaN and
// signed zeros included: on x86 MINPD/MAXPD with swapped operands do exactly
// that, elsewhere a compare and a select.
#pragma once

#include <cstddef>
#include <type_traits>

#include <xsimd/xsimd.hpp>

namespace simdccd::simd {

template <class Arch>
struct XsimdLanes {
  using V = xsimd::batch<double, Arch>;
  using M = xsimd::batch_bool<double, Arch>;

  /// MINPD(x, y) = x < y ? x : y and MAXPD(x, y) = x > y ? x : y, which
  /// xsimd::min/max use on these architectures.
  static constexpr bool kX86MinMax =
      std::is_base_of_v<xsimd::sse2, Arch> || std::is_base_of_v<xsimd::avx512f, Arch>;

  static std::size_t lanes() { return V::size; }
  static V load(const double* p) { return V::load_unaligned(p); }
  static void store(V v, double* p) { v.store_unaligned(p); }
  static V set(double x) { return V(x); }
  static V add(V a, V b) { return a + b; }
  static V sub(V a, V b) { return a - b; }
  static V mul(V a, V b) { return a * b; }
  static V div(V a, V b) { return a / b; }
  static V min(V a, V b) {
    if constexpr (kX86MinMax) {
      return xsimd::min(b, a);
    } else {
      return xsimd::select(b < a, b, a);
    }
  }
  static V max(V a, V b) {
    if constexpr (kX86MinMax) {
      return xsimd::max(b, a);
    } else {
      return xsimd::select(a < b, b, a);
    }
  }
  static V abs(V a) { return xsimd::abs(a); }
  static V sqrt(V a) { return xsimd::sqrt(a); }
  static M lt(V a, V b) { return a < b; }
  static M le(V a, V b) { return a <= b; }
  static M gt(V a, V b) { return a > b; }
  static M ge(V a, V b) { return a >= b; }
  static M eq(V a, V b) { return a == b; }
  static V select(M m, V yes, V no) { return xsimd::select(m, yes, no); }
  static M both(M a, M b) { return a & b; }
  static M either(M a, M b) { return a | b; }
  static M but_not(M a, M b) { return a & ~b; }
  static bool any(M m) { return xsimd::any(m); }
  static bool all(M m) { return xsimd::all(m); }
  static std::size_t compress_store(V v, M m, double* p) {
    alignas(64) double value[V::size], keep[V::size];
    v.store_aligned(value);
    xsimd::select(m, V(1.0), V(0.0)).store_aligned(keep);
    std::size_t count = 0;
    for (std::size_t k = 0; k < V::size; ++k) {
      if (keep[k] != 0) p[count++] = value[k];
    }
    return count;
  }
};

}  // namespace simdccd::simd
