// The area-inclusion test (Huh et al. section 4.1, F-P 2-hat and E-E 2-hat),
// certified over a whole time interval [lo, hi] that holds a coplanarity root.
//
// At a root t_r the four points are coplanar. With R_j(t) = x_j(t) - x_0(t)
// projected along the axis k where the normal n has a certified nonzero
// component, the closed-primitive test becomes signs of 2D cross products
// D_ij = R_i x R_j (twice the signed areas of the triangles x_0, x_i, x_j):
//  - VF (x_0 = vertex, x_1..3 = triangle): n_k = D12 + D23 + D31, and the
//    vertex is in the closed triangle iff D12, D23, D31 all have the sign of
//    n_k or are zero;
//  - EE (x_0 = a0, x_1 = a1, x_2 = b0, x_3 = b1): n_k = (a1-a0) x (b1-b0) =
//    -(D12 + D31), and the closed segments meet iff -D12, -D31, D23 and
//    -(D12 + D23 + D31) all have the sign of n_k or are zero (the four are
//    the orientations of each segment's endpoints against the other's line).
// Each D_ij is certified over the interval: its value at lo, plus a bound on
// the rounding error and on its change for t in [lo, hi] (our counterpart of
// Lemma 4.1: R_j(lo + s) = R_j(lo) + s V_j with V_j = Q_j - P_j, so
// |D(lo + s) - D(lo)| <= s (|R_i| |V_j| + |V_i| |R_j|)_x + s^2 (|V_i| |V_j|)_x).
// `inside`: inclusion holds at every t of the interval, so at the root.
// `outside`: it fails at every t, so at the root (or the primitives are
// certified apart all along the interval). Neither: uncertain.
//
// Defined in namespace simdccd::linear::SIMDCCD_LINEAR_NAMESPACE: `portable`
// by default, and once per Highway target in dispatch/linear_ccd.cc, which
// re-includes this header (toggled by HWY_TARGET_TOGGLE) inside each target's
// region, so that SVE vectors pass only through functions compiled for SVE.
#if defined(SIMDCCD_LINEAR_AREA_INCLUSION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_AREA_INCLUSION_INL_H_
#undef SIMDCCD_LINEAR_AREA_INCLUSION_INL_H_
#else
#define SIMDCCD_LINEAR_AREA_INCLUSION_INL_H_
#endif

#include "simdccd/linear/coplanarity_cubic-inl.h"
#include "simdccd/linear/error_bounds.hpp"
#include "simdccd/query.hpp"

namespace simdccd::linear::SIMDCCD_LINEAR_NAMESPACE {

/// 2D cross product a x b over an interval of width w, with a bound on its
/// rounding error plus its change over the interval. Arguments: components
/// (u, v) of a and b at lo, their magnitude bounds (ma, mb) and the magnitude
/// bounds of their velocities (va, vb).
template <class L>
typename L::V cross2_over_interval(typename L::V au, typename L::V av, typename L::V bu,
                                   typename L::V bv, typename L::V mau, typename L::V mav,
                                   typename L::V mbu, typename L::V mbv, typename L::V vau,
                                   typename L::V vav, typename L::V vbu, typename L::V vbv,
                                   typename L::V w, typename L::V& bound) {
  using V = typename L::V;
  const auto perm = [](V xu, V xv, V yu, V yv) { return L::add(L::mul(xu, yv), L::mul(xv, yu)); };
  const V rounding = L::mul(L::set(16 * kUnitRoundoff), perm(mau, mav, mbu, mbv));
  const V first = L::mul(w, L::add(perm(mau, mav, vbu, vbv), perm(vau, vav, mbu, mbv)));
  const V second = L::mul(L::mul(w, w), perm(vau, vav, vbu, vbv));
  bound = L::add(L::mul(L::add(rounding, L::add(first, second)), L::set(1 + 16 * kUnitRoundoff)),
                 L::set(kTiny));
  return L::sub(L::mul(au, bv), L::mul(av, bu));
}

/// The sum of certified values, with its bound (the rounding of two additions
/// on top of the bounds of the terms).
template <class L>
typename L::V certified_sum(typename L::V x, typename L::V y, typename L::V z, typename L::V bx,
                            typename L::V by, typename L::V bz, typename L::V& bound) {
  using V = typename L::V;
  const V magnitude = L::add(L::add(L::abs(x), L::abs(y)), L::abs(z));
  bound = L::add(L::mul(L::add(L::add(bx, by), L::add(bz, L::mul(L::set(4 * kUnitRoundoff), magnitude))),
                        L::set(1 + 4 * kUnitRoundoff)),
                 L::set(kTiny));
  return L::add(L::add(x, y), z);
}

/// Coordinate `axis` of point j (1..3) relative to point 0 at time lo:
/// its value p = (1-lo) P + lo Q (off by at most 4 u m), a bound m on the
/// magnitude of the exact value, and a bound v on the magnitude of its velocity Q - P.
template <class L>
void relative_at(const QueryLanes<L>& q, int j, int axis, typename L::V lo, typename L::V& p,
                 typename L::V& m, typename L::V& v) {
  using V = typename L::V;
  const V grow = L::set(1 + 4 * kUnitRoundoff);
  const V p0 = q.relative(0, j, axis), p1 = q.relative(1, j, axis);
  const V s = L::sub(L::set(1), lo);
  p = L::add(L::mul(s, p0), L::mul(lo, p1));
  m = L::mul(L::add(L::mul(s, L::abs(p0)), L::mul(lo, L::abs(p1))), grow);
  v = L::mul(L::add(L::abs(p0), L::abs(p1)), grow);
}

/// Picks coordinates (u, v) of a 3D value in the projection that drops axis
/// k (k0: x, k1: y, else z), in cyclic order so orientations agree.
template <class L>
void project(typename L::M k0, typename L::M k1, typename L::V x, typename L::V y,
             typename L::V z, typename L::V& u, typename L::V& v) {
  u = L::select(k0, y, L::select(k1, z, x));
  v = L::select(k0, z, L::select(k1, x, y));
}

/// Certified separation of the primitives at every t of [lo, lo + w], for
/// pieces where inclusion is ill-conditioned (nearly parallel edges, a
/// nearly flat triangle) although the primitives are far apart. Direction: d
/// from the centroid of the first primitive (VF: the vertex; EE: edge a) to
/// that of the second, at lo. Each d.(R_b - R_a) over the pairs of their
/// points is certified at lo, net of its rounding (10u sum |d_k| (m_a + m_b)_k
/// from relative_at's 4u and the dot product, doubled) and of its change over
/// the interval (w sum |d_k| (v_a + v_b)_k). Arguments as relative_at gives
/// them for points 1..3 (point 0 is the origin).
template <class L, QueryType kType>
typename L::M separated_over_interval(
    typename L::V p1x, typename L::V p1y, typename L::V p1z, typename L::V m1x, typename L::V m1y,
    typename L::V m1z, typename L::V v1x, typename L::V v1y, typename L::V v1z, typename L::V p2x,
    typename L::V p2y, typename L::V p2z, typename L::V m2x, typename L::V m2y, typename L::V m2z,
    typename L::V v2x, typename L::V v2y, typename L::V v2z, typename L::V p3x, typename L::V p3y,
    typename L::V p3z, typename L::V m3x, typename L::V m3y, typename L::V m3z, typename L::V v3x,
    typename L::V v3y, typename L::V v3z, typename L::V w) {
  using V = typename L::V;
  const bool vf = kType == QueryType::vertex_face;
  // Scaled centroid differences: VF (p1 + p2 + p3) / 3 - 0; EE (p2 + p3) / 2 - p1 / 2.
  const V dx = vf ? L::add(L::add(p1x, p2x), p3x) : L::sub(L::add(p2x, p3x), p1x);
  const V dy = vf ? L::add(L::add(p1y, p2y), p3y) : L::sub(L::add(p2y, p3y), p1y);
  const V dz = vf ? L::add(L::add(p1z, p2z), p3z) : L::sub(L::add(p2z, p3z), p1z);
  const V ax = L::abs(dx), ay = L::abs(dy), az = L::abs(dz);
  const auto dot = [&](V x, V y, V z) { return L::add(L::add(L::mul(dx, x), L::mul(dy, y)), L::mul(dz, z)); };
  const auto weigh = [&](V x, V y, V z) { return L::add(L::add(L::mul(ax, x), L::mul(ay, y)), L::mul(az, z)); };
  // d.(R_b - R_a) > its bound; (mx, my, mz) and (vx, vy, vz) are summed bounds of both points.
  const auto apart = [&](V x, V y, V z, V mx, V my, V mz, V vx, V vy, V vz) {
    const V bound = L::add(L::mul(L::add(L::mul(L::set(20 * kUnitRoundoff), weigh(mx, my, mz)),
                                         L::mul(w, weigh(vx, vy, vz))),
                                  L::set(1 + 16 * kUnitRoundoff)),
                           L::set(kTiny));
    return L::gt(dot(x, y, z), bound);
  };
  if constexpr (kType == QueryType::vertex_face) {
    return L::both(L::both(apart(p1x, p1y, p1z, m1x, m1y, m1z, v1x, v1y, v1z),
                           apart(p2x, p2y, p2z, m2x, m2y, m2z, v2x, v2y, v2z)),
                   apart(p3x, p3y, p3z, m3x, m3y, m3z, v3x, v3y, v3z));
  } else {
    // Pairs (a0, b0), (a0, b1), (a1, b0), (a1, b1); a0 is the origin.
    const auto from_a1 = [&](V x, V y, V z, V mx, V my, V mz, V vx, V vy, V vz) {
      return apart(L::sub(x, p1x), L::sub(y, p1y), L::sub(z, p1z), L::add(mx, m1x), L::add(my, m1y),
                   L::add(mz, m1z), L::add(vx, v1x), L::add(vy, v1y), L::add(vz, v1z));
    };
    return L::both(L::both(apart(p2x, p2y, p2z, m2x, m2y, m2z, v2x, v2y, v2z),
                           apart(p3x, p3y, p3z, m3x, m3y, m3z, v3x, v3y, v3z)),
                   L::both(from_a1(p2x, p2y, p2z, m2x, m2y, m2z, v2x, v2y, v2z),
                           from_a1(p3x, p3y, p3z, m3x, m3y, m3z, v3x, v3y, v3z)));
  }
}

template <class L, QueryType kType>
void area_inclusion(const QueryLanes<L>& q, typename L::V lo, typename L::V hi,
                    typename L::M& inside, typename L::M& outside) {
  using V = typename L::V;
  using M = typename L::M;
  V p1x, p1y, p1z, m1x, m1y, m1z, v1x, v1y, v1z;
  V p2x, p2y, p2z, m2x, m2y, m2z, v2x, v2y, v2z;
  V p3x, p3y, p3z, m3x, m3y, m3z, v3x, v3y, v3z;
  relative_at<L>(q, 1, 0, lo, p1x, m1x, v1x), relative_at<L>(q, 1, 1, lo, p1y, m1y, v1y);
  relative_at<L>(q, 1, 2, lo, p1z, m1z, v1z), relative_at<L>(q, 2, 0, lo, p2x, m2x, v2x);
  relative_at<L>(q, 2, 1, lo, p2y, m2y, v2y), relative_at<L>(q, 2, 2, lo, p2z, m2z, v2z);
  relative_at<L>(q, 3, 0, lo, p3x, m3x, v3x), relative_at<L>(q, 3, 1, lo, p3y, m3y, v3y);
  relative_at<L>(q, 3, 2, lo, p3z, m3z, v3z);
  // Project along the largest component of an approximate normal at lo (any
  // axis is sound: the sign of n_k is certified below).
  // VF: n = (R2 - R1) x (R3 - R1); EE: n = R1 x (R3 - R2).
  const bool vf = kType == QueryType::vertex_face;
  const V ex = vf ? L::sub(p2x, p1x) : p1x, ey = vf ? L::sub(p2y, p1y) : p1y;
  const V ez = vf ? L::sub(p2z, p1z) : p1z;
  const V fx = L::sub(p3x, vf ? p1x : p2x), fy = L::sub(p3y, vf ? p1y : p2y);
  const V fz = L::sub(p3z, vf ? p1z : p2z);
  const V nx = L::abs(L::sub(L::mul(ey, fz), L::mul(ez, fy)));
  const V ny = L::abs(L::sub(L::mul(ez, fx), L::mul(ex, fz)));
  const V nz = L::abs(L::sub(L::mul(ex, fy), L::mul(ey, fx)));
  const M k0 = L::both(L::ge(nx, ny), L::ge(nx, nz));
  const M k1 = L::but_not(L::ge(ny, nz), k0);
  V u1, w1, mu1, mw1, vu1, vw1, u2, w2, mu2, mw2, vu2, vw2, u3, w3, mu3, mw3, vu3, vw3;
  project<L>(k0, k1, p1x, p1y, p1z, u1, w1), project<L>(k0, k1, m1x, m1y, m1z, mu1, mw1);
  project<L>(k0, k1, v1x, v1y, v1z, vu1, vw1), project<L>(k0, k1, p2x, p2y, p2z, u2, w2);
  project<L>(k0, k1, m2x, m2y, m2z, mu2, mw2), project<L>(k0, k1, v2x, v2y, v2z, vu2, vw2);
  project<L>(k0, k1, p3x, p3y, p3z, u3, w3), project<L>(k0, k1, m3x, m3y, m3z, mu3, mw3);
  project<L>(k0, k1, v3x, v3y, v3z, vu3, vw3);
  // The width as an upper bound (the subtraction may round down).
  const V w = L::mul(L::sub(hi, lo), L::set(1 + 4 * kUnitRoundoff));
  V b12, b23, b31;
  const V d12 = cross2_over_interval<L>(u1, w1, u2, w2, mu1, mw1, mu2, mw2, vu1, vw1, vu2, vw2, w, b12);
  const V d23 = cross2_over_interval<L>(u2, w2, u3, w3, mu2, mw2, mu3, mw3, vu2, vw2, vu3, vw3, w, b23);
  const V d31 = cross2_over_interval<L>(u3, w3, u1, w1, mu3, mw3, mu1, mw1, vu3, vw3, vu1, vw1, w, b31);
  V b_all;
  const V all = certified_sum<L>(d12, d23, d31, b12, b23, b31, b_all);
  const V zero = L::set(0);
  const auto neg = [&](V x) { return L::sub(zero, x); };
  // Sign of n_k, certified, and whether x has that sign (>= 0 counts) or the
  // opposite one (strictly), everywhere on the interval.
  V n, bn;
  if constexpr (kType == QueryType::vertex_face) {
    n = all, bn = b_all;
  } else {
    n = neg(certified_sum<L>(d12, d31, zero, b12, b31, zero, bn));
  }
  const M up = L::gt(n, bn), down = L::lt(n, neg(bn));
  const auto agrees = [&](V x, V b) {
    return L::either(L::both(up, L::gt(x, b)), L::both(down, L::lt(x, neg(b))));
  };
  const auto opposes = [&](V x, V b) {
    return L::either(L::both(up, L::lt(x, neg(b))), L::both(down, L::gt(x, b)));
  };
  if constexpr (kType == QueryType::vertex_face) {
    inside = L::both(L::both(agrees(d12, b12), agrees(d23, b23)), agrees(d31, b31));
    outside = L::either(L::either(opposes(d12, b12), opposes(d23, b23)), opposes(d31, b31));
  } else {
    const V e12 = neg(d12), e31 = neg(d31), e_all = neg(all);
    inside = L::both(L::both(agrees(e12, b12), agrees(e31, b31)),
                     L::both(agrees(d23, b23), agrees(e_all, b_all)));
    outside = L::either(L::either(opposes(e12, b12), opposes(e31, b31)),
                        L::either(opposes(d23, b23), opposes(e_all, b_all)));
  }
  // Skipped only when it cannot change a lane: the answer never depends on
  // which queries share a vector.
  if (!L::all(outside)) {
    outside = L::either(outside, separated_over_interval<L, kType>(p1x, p1y, p1z, m1x, m1y, m1z, v1x, v1y, v1z,
                                                                   p2x, p2y, p2z, m2x, m2y, m2z, v2x, v2y, v2z,
                                                                   p3x, p3y, p3z, m3x, m3y, m3z, v3x, v3y, v3z, w));
  }
}

}  // namespace simdccd::linear::SIMDCCD_LINEAR_NAMESPACE

#endif  // SIMDCCD_LINEAR_AREA_INCLUSION_INL_H_
