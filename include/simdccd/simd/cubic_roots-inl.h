// Certified root isolation and refinement for a cubic on [0,1] (the linear
// kernel's coplanarity cubic, linear/coplanarity_cubic-inl.h).
//
// The cubic c is held by its Bernstein coefficients b0..b3 on [0,1] (with error
// bounds), its derivative by d_k = b_{k+1} - b_k (c' = 3 sum d_k B_k^2). On a
// piece [a,b] the Bernstein coefficients of a polynomial are its blossom
// values (for c: f(a,a,a), f(a,a,b), f(a,b,b), f(b,b,b)). By the
// variation-diminishing property (Descartes' rule for the Bernstein basis), a
// polynomial has no root in (a,b) when those coefficients all share one
// strict sign. So, with every sign certified beyond its error bound, a piece
// has no root when c's coefficients share a sign, and exactly one simple root
// when c' keeps one sign on it (c is strictly monotone) and c(a), c(b) differ.
// The pieces are cut at approximate critical points (roots of c'), with a
// small gap piece around each, so that c' rarely vanishes inside a piece.
//
// Defined in namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE: `portable` by
// default, and once per Highway target in dispatch/linear_ccd.cc, which
// re-includes this header (toggled by HWY_TARGET_TOGGLE) inside each target's
// region, so that SVE vectors pass only through functions compiled for SVE.
#if defined(SIMDCCD_SIMD_CUBIC_ROOTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SIMD_CUBIC_ROOTS_INL_H_
#undef SIMDCCD_SIMD_CUBIC_ROOTS_INL_H_
#else
#define SIMDCCD_SIMD_CUBIC_ROOTS_INL_H_
#endif

#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"

namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE {

/// Lanes where the cubic with Bernstein coefficients b_k (each off by at most
/// e_k) certainly has no root in [0,1]: all coefficients of one sign beyond
/// their bounds (the curve lies in their convex hull).
template <class L>
typename L::M no_root(typename L::V b0, typename L::V b1, typename L::V b2, typename L::V b3,
                      typename L::V e0, typename L::V e1, typename L::V e2, typename L::V e3) {
  const typename L::V zero = L::set(0);
  const auto positive = [&](typename L::V b, typename L::V e) { return L::gt(b, e); };
  const auto negative = [&](typename L::V b, typename L::V e) { return L::lt(b, L::sub(zero, e)); };
  return L::either(
      L::both(L::both(positive(b0, e0), positive(b1, e1)), L::both(positive(b2, e2), positive(b3, e3))),
      L::both(L::both(negative(b0, e0), negative(b1, e1)), L::both(negative(b2, e2), negative(b3, e3))));
}

/// x + t (y - x) for t in [0,1], off by at most 5 u max(|x|, |y|).
template <class L>
typename L::V lerp(typename L::V x, typename L::V y, typename L::V t) {
  return L::add(x, L::mul(t, L::sub(y, x)));
}

/// The blossom f(t1, t2, t3) of the cubic: de Casteljau's algorithm with one
/// parameter per level. f(t, t, t) = c(t).
template <class L>
typename L::V blossom(typename L::V b0, typename L::V b1, typename L::V b2, typename L::V b3,
                      typename L::V t1, typename L::V t2, typename L::V t3) {
  using V = typename L::V;
  const V c01 = lerp<L>(b0, b1, t1), c12 = lerp<L>(b1, b2, t1), c23 = lerp<L>(b2, b3, t1);
  return lerp<L>(lerp<L>(c01, c12, t2), lerp<L>(c12, c23, t2), t3);
}

/// The cubic's Bernstein coefficients split at 1/2: (b0, l1, l2, m) on
/// [0, 1/2] and (m, h1, h2, b3) on [1/2, 1] (de Casteljau at 1/2).
template <class L>
void split_cubic(typename L::V b0, typename L::V b1, typename L::V b2, typename L::V b3,
                 typename L::V& l1, typename L::V& l2, typename L::V& m, typename L::V& h1,
                 typename L::V& h2) {
  const typename L::V half = L::set(0.5);
  const typename L::V b12 = lerp<L>(b1, b2, half);
  l1 = lerp<L>(b0, b1, half), h2 = lerp<L>(b2, b3, half);
  l2 = lerp<L>(l1, b12, half), h1 = lerp<L>(b12, h2, half);
  m = lerp<L>(l2, h1, half);
}

/// Lanes where the cubic certainly has no root on each quarter of [0,1]
/// (r_k: on [k/4, (k+1)/4]), `error` from blossom_error. The quarters'
/// coefficients are blossom values, computed by six levels of lerps at 1/2,
/// each off by at most 2 u times the largest |b_k| (the halving is exact):
/// 12 u in all, within blossom_error's 24 u.
template <class L>
void root_free_quarters(typename L::V b0, typename L::V b1, typename L::V b2, typename L::V b3,
                        typename L::V error, typename L::M& r0, typename L::M& r1, typename L::M& r2,
                        typename L::M& r3) {
  using V = typename L::V;
  V l1, l2, m, h1, h2, x1, x2, x, y1, y2;
  split_cubic<L>(b0, b1, b2, b3, l1, l2, m, h1, h2);
  const auto root_free = [&](V f0, V f1, V f2, V f3) {
    return no_root<L>(f0, f1, f2, f3, error, error, error, error);
  };
  split_cubic<L>(b0, l1, l2, m, x1, x2, x, y1, y2);
  r0 = root_free(b0, x1, x2, x), r1 = root_free(x, y1, y2, m);
  split_cubic<L>(m, h1, h2, b3, x1, x2, x, y1, y2);
  r2 = root_free(m, x1, x2, x), r3 = root_free(x, y1, y2, b3);
}

/// c(t), c'(t) and c''(t) (the derivatives only for a Halley step: they
/// carry no bound).
template <class L>
typename L::V value_slope_curvature(typename L::V b0, typename L::V b1, typename L::V b2,
                                    typename L::V b3, typename L::V t, typename L::V& slope,
                                    typename L::V& curvature) {
  using V = typename L::V;
  const V c01 = lerp<L>(b0, b1, t), c12 = lerp<L>(b1, b2, t), c23 = lerp<L>(b2, b3, t);
  const V d0 = lerp<L>(c01, c12, t), d1 = lerp<L>(c12, c23, t);
  slope = L::mul(L::set(3), L::sub(d1, d0));
  curvature = L::mul(L::set(6), L::sub(L::sub(c23, c12), L::sub(c12, c01)));
  return lerp<L>(d0, d1, t);
}

/// A bound E on the error of every blossom value with parameters in [0,1]:
/// each level is a convex combination (error at most the largest input error
/// plus 5 u times the largest |b_k|, the magnitude of every intermediate), so
/// E = max e_k + 3 * 5 u * max |b_k| (we use 24 u) + kTiny.
template <class L>
typename L::V blossom_error(typename L::V b0, typename L::V b1, typename L::V b2,
                            typename L::V b3, typename L::V e0, typename L::V e1,
                            typename L::V e2, typename L::V e3) {
  using V = typename L::V;
  const V emax = L::max(L::max(e0, e1), L::max(e2, e3));
  const V bmax = L::max(L::max(L::abs(b0), L::abs(b1)), L::max(L::abs(b2), L::abs(b3)));
  return L::add(L::add(emax, L::mul(L::set(24 * kUnitRoundoff), bmax)), L::set(kTiny));
}

/// Approximate roots r1 <= r2 of c' in [0,1], as split points that leave c
/// (nearly) monotone on [0,r1], [r1,r2], [r2,1]; a missing root is 1. Only the
/// shape of the pieces depends on them, never the correctness.
template <class L>
void critical_points(typename L::V b0, typename L::V b1, typename L::V b2, typename L::V b3,
                     typename L::V& r1, typename L::V& r2) {
  using V = typename L::V;
  // c'/3 = A t^2 + B t + C with d_k = b_{k+1} - b_k.
  const V d0 = L::sub(b1, b0), d1 = L::sub(b2, b1), d2 = L::sub(b3, b2);
  const V a = L::add(L::sub(d0, L::add(d1, d1)), d2);
  const V b = L::mul(L::set(2), L::sub(d1, d0));
  const V c = d0;
  const V zero = L::set(0), one = L::set(1);
  const V disc = L::sub(L::mul(b, b), L::mul(L::mul(L::set(4), a), c));
  const V root = L::sqrt(L::max(disc, zero));
  // Stable form: q = -(b + sign(b) sqrt(disc)) / 2, roots q / a and c / q.
  const V qq = L::mul(L::set(-0.5), L::add(b, L::select(L::lt(b, zero), L::sub(zero, root), root)));
  const auto in_unit = [&](V r) {
    return L::select(L::both(L::ge(disc, zero), L::both(L::ge(r, zero), L::le(r, one))), r, one);
  };
  const V x = in_unit(L::div(qq, a)), y = in_unit(L::div(c, qq));
  r1 = L::min(x, y);
  r2 = L::max(x, y);
}

/// A bound on the error of every blossom value of the derivative's
/// coefficients d_k = b_{k+1} - b_k (each off by at most e_k + e_{k+1} + u |d_k|;
/// two levels of de Casteljau add 2 * 5 u max |d_k|; we use 24 u in all).
template <class L>
typename L::V derivative_error(typename L::V d0, typename L::V d1, typename L::V d2,
                               typename L::V e0, typename L::V e1, typename L::V e2,
                               typename L::V e3) {
  using V = typename L::V;
  const V emax = L::max(L::max(L::add(e0, e1), L::add(e1, e2)), L::add(e2, e3));
  const V dmax = L::max(L::max(L::abs(d0), L::abs(d1)), L::abs(d2));
  return L::add(L::add(emax, L::mul(L::set(24 * kUnitRoundoff), dmax)), L::set(kTiny));
}

/// Lanes where c' certainly has no real root, so c is strictly monotone on
/// [0,1]: the Bernstein discriminant d1^2 - d0 d2 (a quarter of the power-form
/// one) is negative beyond its bound, given |d_k error| <= ed.
template <class L>
typename L::M derivative_never_zero(typename L::V d0, typename L::V d1, typename L::V d2,
                                    typename L::V e0, typename L::V e1, typename L::V e2,
                                    typename L::V e3) {
  using V = typename L::V;
  const V dmax = L::max(L::max(L::abs(d0), L::abs(d1)), L::abs(d2));
  const V ed = L::add(L::max(L::max(L::add(e0, e1), L::add(e1, e2)), L::add(e2, e3)),
                      L::mul(L::set(2 * kUnitRoundoff), dmax));
  const V square = L::mul(d1, d1), product = L::mul(d0, d2);
  const V spread = L::add(L::add(L::add(L::abs(d1), L::abs(d1)), L::add(L::abs(d0), L::abs(d2))),
                          L::add(ed, ed));
  const V bound = L::add(L::add(L::mul(ed, spread),
                                L::mul(L::set(8 * kUnitRoundoff), L::add(square, L::abs(product)))),
                         L::set(kTiny));
  return L::lt(L::sub(square, product), L::sub(L::set(0), bound));
}

/// Certified signs of x against its error bound e.
template <class L>
typename L::M above(typename L::V x, typename L::V e) { return L::gt(x, e); }
template <class L>
typename L::M below(typename L::V x, typename L::V e) { return L::lt(x, L::sub(L::set(0), e)); }

/// Classifies the piece [a, b]: `no_root`, or `one_root` (a simple root in
/// (a, b)) with `rising` (certified c(a) < 0). Neither: the piece is
/// uncertain; then `monotone` tells that it holds at most one root and
/// `end_sign` gives the certified sign of c at one end (+1, -1; 0 for none),
/// of b when known, else of a. `monotone_everywhere`: lanes known to have
/// c' != 0 on all of [0,1].
template <class L>
void classify_piece(typename L::V b0, typename L::V b1, typename L::V b2, typename L::V b3,
                    typename L::V error, typename L::V d0, typename L::V d1, typename L::V d2,
                    typename L::V derror, typename L::M monotone_everywhere, typename L::V a,
                    typename L::V b, typename L::M& no_root, typename L::M& one_root,
                    typename L::M& rising, typename L::M& monotone, typename L::V& end_sign) {
  using V = typename L::V;
  using M = typename L::M;
  // The four blossom values, sharing de Casteljau levels.
  const V a01 = lerp<L>(b0, b1, a), a12 = lerp<L>(b1, b2, a), a23 = lerp<L>(b2, b3, a);
  const V b01 = lerp<L>(b0, b1, b), b12 = lerp<L>(b1, b2, b), b23 = lerp<L>(b2, b3, b);
  const V aa0 = lerp<L>(a01, a12, a), aa1 = lerp<L>(a12, a23, a);
  const V ab0 = lerp<L>(a01, a12, b), ab1 = lerp<L>(a12, a23, b);
  const V bb0 = lerp<L>(b01, b12, b), bb1 = lerp<L>(b12, b23, b);
  const V f0 = lerp<L>(aa0, aa1, a), f1 = lerp<L>(aa0, aa1, b);
  const V f2 = lerp<L>(ab0, ab1, b), f3 = lerp<L>(bb0, bb1, b);
  const M p0 = above<L>(f0, error), p3 = above<L>(f3, error);
  const M n0 = below<L>(f0, error), n3 = below<L>(f3, error);
  const M c_positive = L::both(L::both(p0, above<L>(f1, error)), L::both(above<L>(f2, error), p3));
  const M c_negative = L::both(L::both(n0, below<L>(f1, error)), L::both(below<L>(f2, error), n3));
  // c' on [a, b]: quadratic blossoms g(a,a), g(a,b), g(b,b).
  const V da0 = lerp<L>(d0, d1, a), da1 = lerp<L>(d1, d2, a);
  const V g0 = lerp<L>(da0, da1, a), g1 = lerp<L>(da0, da1, b);
  const V g2 = lerp<L>(lerp<L>(d0, d1, b), lerp<L>(d1, d2, b), b);
  monotone = L::either(monotone_everywhere, L::either(
      L::both(L::both(above<L>(g0, derror), above<L>(g1, derror)), above<L>(g2, derror)),
      L::both(L::both(below<L>(g0, derror), below<L>(g1, derror)), below<L>(g2, derror))));
  const M same_ends = L::either(L::both(p0, p3), L::both(n0, n3));
  const M opposite_ends = L::either(L::both(p0, n3), L::both(n0, p3));
  no_root = L::either(L::either(c_positive, c_negative), L::both(monotone, same_ends));
  one_root = L::but_not(L::both(monotone, opposite_ends), no_root);
  rising = n0;
  const V plus = L::set(1), minus = L::set(-1), zero = L::set(0);
  end_sign = L::select(p3, plus, L::select(n3, minus, L::select(p0, plus, L::select(n0, minus, zero))));
}

inline constexpr int kMaxRefineIterations = 100;

/// Shrinks [lo, hi], which holds exactly one simple root and certified signs
/// of c at both ends (c(lo) < 0 where `rising`), to width <= tolerance where
/// `active`. Safeguarded Halley steps (cubic convergence: 4.8 steps a root
/// on the random workload against Newton's 6.1), overshot by tolerance/4 so
/// that they land past the root and close the bracket from the far side;
/// bisection when a step leaves the bracket (or its denominator vanishes:
/// NaN is not inside). When c(x) is within its error bound, the points
/// x -+ tolerance/2 are tried as the bracket. Returns the lanes whose
/// bracket reached the tolerance.
template <class L>
typename L::M refine_root(typename L::V b0, typename L::V b1, typename L::V b2,
                          typename L::V b3, typename L::V error, typename L::M active,
                          typename L::M rising, double tolerance, typename L::V& lo,
                          typename L::V& hi) {
  using V = typename L::V;
  using M = typename L::M;
  const V tol = L::set(tolerance), half = L::set(0.5), neg_error = L::sub(L::set(0), error);
  const V probe = L::set(tolerance / 2), overshoot = L::set(tolerance / 4);
  // Certified sign of c at a point: of c(hi) ("high side") or of c(lo).
  const auto high_side = [&](V f) { return L::select(rising, f, L::sub(L::set(0), f)); };
  M open = L::both(active, L::gt(L::sub(hi, lo), tol));
  V x = L::add(lo, L::mul(half, L::sub(hi, lo)));
  for (int iteration = 0; iteration < kMaxRefineIterations && L::any(open); ++iteration) {
    V slope, curvature;
    const V f = value_slope_curvature<L>(b0, b1, b2, b3, x, slope, curvature);
    const V s = high_side(f);
    const M above = L::both(open, L::gt(s, error)), below = L::both(open, L::lt(s, neg_error));
    hi = L::select(above, x, hi);
    lo = L::select(below, x, lo);
    const M unsure = L::but_not(L::but_not(open, above), below);
    if (L::any(unsure)) {
      const V xl = L::max(lo, L::sub(x, probe)), xh = L::min(hi, L::add(x, probe));
      const V sl = high_side(blossom<L>(b0, b1, b2, b3, xl, xl, xl));
      const V sh = high_side(blossom<L>(b0, b1, b2, b3, xh, xh, xh));
      const M lo_ok = L::either(L::le(xl, lo), L::lt(sl, neg_error));
      const M hi_ok = L::either(L::ge(xh, hi), L::gt(sh, error));
      const M closed = L::both(unsure, L::both(lo_ok, hi_ok));
      lo = L::select(closed, xl, lo);
      hi = L::select(closed, xh, hi);
      open = L::but_not(open, L::but_not(unsure, closed));  // stuck lanes stop here
    }
    open = L::both(open, L::gt(L::sub(hi, lo), tol));
    // x - 2 f f' / (2 f'^2 - f f'').
    const V step = L::div(L::mul(L::add(f, f), slope),
                          L::sub(L::mul(L::add(slope, slope), slope), L::mul(f, curvature)));
    const V halley = L::sub(x, step);
    const V past = L::add(halley, L::select(L::gt(halley, x), overshoot, L::sub(L::set(0), overshoot)));
    const M inside = L::both(L::gt(past, lo), L::lt(past, hi));
    x = L::select(inside, past, L::add(lo, L::mul(half, L::sub(hi, lo))));
  }
  return L::both(active, L::le(L::sub(hi, lo), tol));
}

}  // namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_SIMD_CUBIC_ROOTS_INL_H_
