// Interval arithmetic over the lane type L (lanes.hpp): each lane holds an
// interval [lo, hi] of the reals. Vectors of lanes cannot live in structs or
// arrays (SVE's are sizeless), so an interval is two named locals, `x_lo` and
// `x_hi`, declared and passed with the macros below, and a 3D interval vector
// is three of them (`x` -> `xx`, `xy`, `xz`).
//
// Every operation rounds outward: its result holds the exact operation's
// result on its inputs, so intervals stay rigorous through any expression
// without an error analysis of it. Each computed end c is moved out by
// 2^-51 |c| + 2^-1074, more than its rounding error (u |exact| + 2^-1075 for
// an underflow) plus that of the move itself.
//
// Defined in namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE, re-included per
// Highway target like the kernels that use it.
#if defined(SIMDCCD_SIMD_INTERVAL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SIMD_INTERVAL_INL_H_
#undef SIMDCCD_SIMD_INTERVAL_INL_H_
#else
#define SIMDCCD_SIMD_INTERVAL_INL_H_
#endif

#include "simdccd/simd/lanes.hpp"

/// Declares the interval `name` (two vectors of L).
#define SIMDCCD_IV(name) typename L::V name##_lo, name##_hi
/// A 3D interval vector: components name##x, name##y, name##z.
#define SIMDCCD_IV3(name) \
  SIMDCCD_IV(name##x);    \
  SIMDCCD_IV(name##y);    \
  SIMDCCD_IV(name##z)
/// Passes an interval, or a 3D interval vector, to a function.
#define SIMDCCD_IV_ARG(name) name##_lo, name##_hi
#define SIMDCCD_IV3_ARG(name) SIMDCCD_IV_ARG(name##x), SIMDCCD_IV_ARG(name##y), SIMDCCD_IV_ARG(name##z)
/// Parameters: an input interval (by value), an output one (by reference).
#define SIMDCCD_IV_IN(name) typename L::V name##_lo, typename L::V name##_hi
#define SIMDCCD_IV_OUT(name) typename L::V &name##_lo, typename L::V &name##_hi
#define SIMDCCD_IV3_IN(name) SIMDCCD_IV_IN(name##x), SIMDCCD_IV_IN(name##y), SIMDCCD_IV_IN(name##z)
#define SIMDCCD_IV3_OUT(name) SIMDCCD_IV_OUT(name##x), SIMDCCD_IV_OUT(name##y), SIMDCCD_IV_OUT(name##z)

namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE {

/// [lo, hi] computed to nearest, moved out past their rounding errors.
template <class L>
void outward(SIMDCCD_IV_OUT(a)) {
  const typename L::V rel = L::set(0x1p-51), tiny = L::set(0x1p-1074);
  a_lo = L::sub(a_lo, L::add(L::mul(rel, L::abs(a_lo)), tiny));
  a_hi = L::add(a_hi, L::add(L::mul(rel, L::abs(a_hi)), tiny));
}

template <class L>
void iv_add(SIMDCCD_IV_IN(a), SIMDCCD_IV_IN(b), SIMDCCD_IV_OUT(r)) {
  r_lo = L::add(a_lo, b_lo), r_hi = L::add(a_hi, b_hi);
  outward<L>(r_lo, r_hi);
}

template <class L>
void iv_sub(SIMDCCD_IV_IN(a), SIMDCCD_IV_IN(b), SIMDCCD_IV_OUT(r)) {
  r_lo = L::sub(a_lo, b_hi), r_hi = L::sub(a_hi, b_lo);
  outward<L>(r_lo, r_hi);
}

template <class L>
void iv_mul(SIMDCCD_IV_IN(a), SIMDCCD_IV_IN(b), SIMDCCD_IV_OUT(r)) {
  const typename L::V p = L::mul(a_lo, b_lo), q = L::mul(a_lo, b_hi), s = L::mul(a_hi, b_lo),
                      t = L::mul(a_hi, b_hi);
  r_lo = L::min(L::min(p, q), L::min(s, t)), r_hi = L::max(L::max(p, q), L::max(s, t));
  outward<L>(r_lo, r_hi);
}

/// x^2 for x in a: 0 at the bottom when a holds 0.
template <class L>
void iv_square(SIMDCCD_IV_IN(a), SIMDCCD_IV_OUT(r)) {
  const typename L::V p = L::mul(a_lo, a_lo), q = L::mul(a_hi, a_hi), zero = L::set(0);
  r_hi = L::max(p, q);
  r_lo = L::min(p, q);
  outward<L>(r_lo, r_hi);
  r_lo = L::select(L::both(L::le(a_lo, zero), L::ge(a_hi, zero)), zero, L::max(r_lo, zero));
}

template <class L>
void iv_cross(SIMDCCD_IV3_IN(a), SIMDCCD_IV3_IN(b), SIMDCCD_IV3_OUT(r)) {
  SIMDCCD_IV(p);
  SIMDCCD_IV(q);
  iv_mul<L>(SIMDCCD_IV_ARG(ay), SIMDCCD_IV_ARG(bz), SIMDCCD_IV_ARG(p));
  iv_mul<L>(SIMDCCD_IV_ARG(az), SIMDCCD_IV_ARG(by), SIMDCCD_IV_ARG(q));
  iv_sub<L>(SIMDCCD_IV_ARG(p), SIMDCCD_IV_ARG(q), SIMDCCD_IV_ARG(rx));
  iv_mul<L>(SIMDCCD_IV_ARG(az), SIMDCCD_IV_ARG(bx), SIMDCCD_IV_ARG(p));
  iv_mul<L>(SIMDCCD_IV_ARG(ax), SIMDCCD_IV_ARG(bz), SIMDCCD_IV_ARG(q));
  iv_sub<L>(SIMDCCD_IV_ARG(p), SIMDCCD_IV_ARG(q), SIMDCCD_IV_ARG(ry));
  iv_mul<L>(SIMDCCD_IV_ARG(ax), SIMDCCD_IV_ARG(by), SIMDCCD_IV_ARG(p));
  iv_mul<L>(SIMDCCD_IV_ARG(ay), SIMDCCD_IV_ARG(bx), SIMDCCD_IV_ARG(q));
  iv_sub<L>(SIMDCCD_IV_ARG(p), SIMDCCD_IV_ARG(q), SIMDCCD_IV_ARG(rz));
}

template <class L>
void iv_dot(SIMDCCD_IV3_IN(a), SIMDCCD_IV3_IN(b), SIMDCCD_IV_OUT(r)) {
  SIMDCCD_IV(p);
  SIMDCCD_IV(q);
  iv_mul<L>(SIMDCCD_IV_ARG(ax), SIMDCCD_IV_ARG(bx), SIMDCCD_IV_ARG(r));
  iv_mul<L>(SIMDCCD_IV_ARG(ay), SIMDCCD_IV_ARG(by), SIMDCCD_IV_ARG(p));
  iv_mul<L>(SIMDCCD_IV_ARG(az), SIMDCCD_IV_ARG(bz), SIMDCCD_IV_ARG(q));
  iv_add<L>(SIMDCCD_IV_ARG(r), SIMDCCD_IV_ARG(p), SIMDCCD_IV_ARG(r));
  iv_add<L>(SIMDCCD_IV_ARG(r), SIMDCCD_IV_ARG(q), SIMDCCD_IV_ARG(r));
}

/// |a|^2.
template <class L>
void iv_norm2(SIMDCCD_IV3_IN(a), SIMDCCD_IV_OUT(r)) {
  SIMDCCD_IV(p);
  SIMDCCD_IV(q);
  iv_square<L>(SIMDCCD_IV_ARG(ax), SIMDCCD_IV_ARG(r));
  iv_square<L>(SIMDCCD_IV_ARG(ay), SIMDCCD_IV_ARG(p));
  iv_square<L>(SIMDCCD_IV_ARG(az), SIMDCCD_IV_ARG(q));
  iv_add<L>(SIMDCCD_IV_ARG(r), SIMDCCD_IV_ARG(p), SIMDCCD_IV_ARG(r));
  iv_add<L>(SIMDCCD_IV_ARG(r), SIMDCCD_IV_ARG(q), SIMDCCD_IV_ARG(r));
}

}  // namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_SIMD_INTERVAL_INL_H_
