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
// A term that is exactly zero at every root by the input's structure (three
// points sharing a coordinate all step: vanishing_orientations) counts as
// agreeing, which certifies contacts on an edge or at an edge's end.
// `inside`: inclusion holds at every root in the interval.
// `outside`: it fails at every t, so at the root (or the primitives are
// certified apart all along the interval). Neither: uncertain. The
// separation check is left out on lanes of `enough` that are inside (the
// caller needs no `outside` there).
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE: `portable`
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
#include "simdccd/linear/earliest_first.hpp"
#include "simdccd/query.hpp"
#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

using simd::kTiny;
using simd::kUnitRoundoff;

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

/// How relative_at's bounds grow what they bound (its p is off by at most 4 u m).
inline constexpr double kRelativeGrowth = 1 + 4 * kUnitRoundoff;

/// Coordinate `axis` of point j (1..3) relative to point 0 at time lo:
/// its value p = (1-lo) P + lo Q (off by at most 4 u m), a bound m on the
/// magnitude of the exact value, and a bound v on the magnitude of its velocity Q - P.
template <class L>
void relative_at(const QueryLanes<L>& q, int j, int axis, typename L::V lo, typename L::V& p,
                 typename L::V& m, typename L::V& v) {
  using V = typename L::V;
  const V grow = L::set(kRelativeGrowth);
  const V p0 = q.relative(0, j, axis), p1 = q.relative(1, j, axis);
  const V s = L::sub(L::set(1), lo);
  p = L::add(L::mul(s, p0), L::mul(lo, p1));
  m = L::mul(L::add(L::mul(s, L::abs(p0)), L::mul(lo, L::abs(p1))), grow);
  v = L::mul(L::add(L::abs(p0), L::abs(p1)), grow);
}

/// relative_at's p and m at lo = `time`, 0 or 1 exactly: the same values,
/// read from the input without its arithmetic.
template <class L>
void relative_at_end(const QueryLanes<L>& q, int j, int axis, int time, typename L::V& p, typename L::V& m) {
  p = q.relative(time, j, axis);
  m = L::mul(L::abs(p), L::set(kRelativeGrowth));
}

/// Picks coordinates (u, v) of a 3D value in the projection that drops axis
/// k (k0: x, k1: y, else z), in cyclic order so orientations agree.
template <class L>
void project(typename L::M k0, typename L::M k1, typename L::V x, typename L::V y,
             typename L::V z, typename L::V& u, typename L::V& v) {
  u = L::select(k0, y, L::select(k1, z, x));
  v = L::select(k0, z, L::select(k1, x, y));
}

/// Certified separation of the primitives at every t of [lo, hi], for pieces
/// where inclusion is ill-conditioned (nearly parallel edges, a nearly flat
/// triangle) although the primitives are apart, and over the whole step for
/// bodies moving side by side. For a fixed direction d, the largest d.x over
/// the first primitive minus the smallest over the second is convex in t (a
/// maximum of linear functions), so negative at lo and at hi means negative on
/// [lo, hi]: each d.(R_b - R_a) over the pairs of their points is certified at
/// both ends, against 20u sum |d_k| (m_a + m_b)_k (relative_at's 4u, the
/// subtraction and the dot product: about 8u, doubled). Directions (any fixed
/// d is sound; rounding in d is harmless): from the centroid of the first
/// primitive (VF: the vertex; EE: edge a) to that of the second at lo; with
/// kNormalPart, for EE also its part normal to edge a, which separates
/// parallel edges side by side. kWholeStep: [lo, hi] is [0, 1]
/// (relative_at_end).
template <class L, QueryType kType, bool kNormalPart, bool kWholeStep = false>
typename L::M separated_over_interval(const QueryLanes<L>& q, typename L::V lo, typename L::V hi) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr bool vf = kType == QueryType::vertex_face;
  constexpr bool two = kNormalPart && !vf;
  // Relative point j at end 0 (lo) or 1 (hi), with its magnitude bound.
  const auto position = [&](int j, int axis, int end, V& p, V& m) {
    if constexpr (kWholeStep) {
      relative_at_end<L>(q, j, axis, end, p, m);
    } else {
      V velocity;
      relative_at<L>(q, j, axis, end == 0 ? lo : hi, p, m, velocity);
    }
  };
  // Scaled centroid differences at lo, c: VF (R1 + R2 + R3) / 3 - 0; EE
  // (R2 + R3) / 2 - R1 / 2; and n = c |R1|^2 - R1 (c.R1).
  V cx, cy, cz, nx, ny, nz;
  {
    V p1x, p1y, p1z, p2x, p2y, p2z, p3x, p3y, p3z, m;
    position(1, 0, 0, p1x, m), position(1, 1, 0, p1y, m), position(1, 2, 0, p1z, m);
    position(2, 0, 0, p2x, m), position(2, 1, 0, p2y, m), position(2, 2, 0, p2z, m);
    position(3, 0, 0, p3x, m), position(3, 1, 0, p3y, m), position(3, 2, 0, p3z, m);
    cx = vf ? L::add(L::add(p1x, p2x), p3x) : L::sub(L::add(p2x, p3x), p1x);
    cy = vf ? L::add(L::add(p1y, p2y), p3y) : L::sub(L::add(p2y, p3y), p1y);
    cz = vf ? L::add(L::add(p1z, p2z), p3z) : L::sub(L::add(p2z, p3z), p1z);
    const V aa = L::add(L::add(L::mul(p1x, p1x), L::mul(p1y, p1y)), L::mul(p1z, p1z));
    const V ca = L::add(L::add(L::mul(cx, p1x), L::mul(cy, p1y)), L::mul(cz, p1z));
    nx = L::sub(L::mul(cx, aa), L::mul(p1x, ca));
    ny = L::sub(L::mul(cy, aa), L::mul(p1y, ca));
    nz = L::sub(L::mul(cz, aa), L::mul(p1z, ca));
  }
  const auto apart = [](V dx, V dy, V dz, V wx, V wy, V wz, V mx, V my, V mz) {
    const V dot = L::add(L::add(L::mul(dx, wx), L::mul(dy, wy)), L::mul(dz, wz));
    const V weight = L::add(L::add(L::mul(L::abs(dx), mx), L::mul(L::abs(dy), my)), L::mul(L::abs(dz), mz));
    const V bound = L::add(L::mul(L::mul(L::set(20 * kUnitRoundoff), weight), L::set(1 + 16 * kUnitRoundoff)),
                           L::set(kTiny));
    return L::gt(dot, bound);
  };
  M along_c = L::le(L::set(0), L::set(1)), along_n = along_c;
  for (int end = 0; end < 2; ++end) {
    for (int a = 0; a < (vf ? 1 : 2); ++a) {
      for (int b = vf ? 1 : 2; b < 4; ++b) {
        // R_b - R_a at this end, with its magnitude bound; R_0 = 0.
        V wx, wy, wz, mx, my, mz;
        position(b, 0, end, wx, mx), position(b, 1, end, wy, my), position(b, 2, end, wz, mz);
        if (a != 0) {
          V ax, ay, az, nax, nay, naz;
          position(a, 0, end, ax, nax), position(a, 1, end, ay, nay), position(a, 2, end, az, naz);
          wx = L::sub(wx, ax), wy = L::sub(wy, ay), wz = L::sub(wz, az);
          mx = L::add(mx, nax), my = L::add(my, nay), mz = L::add(mz, naz);
        }
        along_c = L::both(along_c, apart(cx, cy, cz, wx, wy, wz, mx, my, mz));
        if constexpr (two) along_n = L::both(along_n, apart(nx, ny, nz, wx, wy, wz, mx, my, mz));
      }
    }
  }
  return two ? L::either(along_c, along_n) : along_c;
}

/// Support-function evaluations of apart_after(): enough for the nearly
/// parallel edges of bodies passing side by side (the n-body step's need at
/// most 32, 7 on average), little for a query that does touch.
inline constexpr int kApartBudget = 64;

/// Query i of `coord` certified apart at every t of [from, 1]: the interval
/// bisected depth first, each part separated by separated_over_interval
/// (its directions taken at the part's start, so they follow the motion).
/// One query at a time on plain doubles: the same bits on every target. For
/// uncertain queries, whose contacts can only come at or after their toi.
template <QueryType kType>
bool apart_after(const double* const* coord, std::size_t i, double from) {
  using S = simd::ScalarLanes;
  const QueryLanes<S> q{coord, i};
  // Touching at `from` (a contact the kernel could not certify): no budget spent.
  if (!separated_over_interval<S, kType, true>(q, from, from)) return false;
  return bisect_earliest_first<kApartBudget>(from, [&](double a, double b) {
           return separated_over_interval<S, kType, true>(q, a, b) ? PartVerdict::dismiss : PartVerdict::split;
         }) == Bisection::all_dismissed;
}

/// Orientations that vanish at every coplanarity root, by the points'
/// exact coordinates: where three of the four points have one coordinate
/// equal at t = 0 and equal at t = 1 (so all along the step) and the fourth
/// is strictly on one side of it at both ends (so never on it), the three lie
/// in a moving plane normal to that axis which the fourth never meets. The
/// coplanarity determinant is then the fourth's offset from the plane times
/// the three's orientation within it, so at every root the three are
/// collinear and their orientation is exactly 0 in any projection: z12 for
/// points 0, 1, 2 (D12), z23 for 0, 2, 3 (D23), z31 for 0, 3, 1 (D31), z123 for
/// 1, 2, 3 (D12 + D23 + D31). Meshes with exactly shared coordinates (cloth
/// rows in a plane) meet such contacts on an edge, where no error bound can
/// certify the zero.
template <class L>
void vanishing_orientations(const QueryLanes<L>& q, typename L::M& z12, typename L::M& z23,
                            typename L::M& z31, typename L::M& z123) {
  using V = typename L::V;
  using M = typename L::M;
  z12 = L::lt(L::set(1), L::set(0));
  z23 = z12, z31 = z12, z123 = z12;
  for (int axis = 0; axis < 3; ++axis) {
    const V a0 = q.at(0, 0, axis), a1 = q.at(0, 1, axis), a2 = q.at(0, 2, axis), a3 = q.at(0, 3, axis);
    const V b0 = q.at(1, 0, axis), b1 = q.at(1, 1, axis), b2 = q.at(1, 2, axis), b3 = q.at(1, 3, axis);
    const auto same = [](V a, V b, V c, V d) {  // a = b at t = 0 and c = d at t = 1
      return L::both(L::eq(a, b), L::eq(c, d));
    };
    const auto off = [](V a, V b, V c, V d) {  // a - b and c - d of one strict sign
      return L::either(L::both(L::gt(a, b), L::gt(c, d)), L::both(L::lt(a, b), L::lt(c, d)));
    };
    const M s01 = same(a0, a1, b0, b1), s02 = same(a0, a2, b0, b2), s03 = same(a0, a3, b0, b3);
    z12 = L::either(z12, L::both(L::both(s01, s02), off(a3, a0, b3, b0)));
    z23 = L::either(z23, L::both(L::both(s02, s03), off(a1, a0, b1, b0)));
    z31 = L::either(z31, L::both(L::both(s03, s01), off(a2, a0, b2, b0)));
    const M s12 = same(a1, a2, b1, b2), s13 = same(a1, a3, b1, b3);
    z123 = L::either(z123, L::both(L::both(s12, s13), off(a0, a1, b0, b1)));
  }
}

template <class L, QueryType kType>
void area_inclusion(const QueryLanes<L>& q, typename L::V lo, typename L::V hi, typename L::M enough,
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
  // Only on the lanes that need it, and skipped only when none does: the
  // answer never depends on which queries share a vector.
  const M need = L::but_not(L::but_not(L::le(zero, zero), outside), L::both(enough, inside));
  if (L::any(need)) {
    outside = L::either(outside, L::both(need, separated_over_interval<L, kType, true>(q, lo, hi)));
  }
  // A term that vanishes at every root counts as agreeing (the closed test
  // allows zeros), on the lanes still undecided only.
  const M undecided = L::but_not(L::but_not(L::le(zero, zero), inside), outside);
  if (L::any(undecided)) {
    M z12, z23, z31, z123;
    vanishing_orientations<L>(q, z12, z23, z31, z123);
    const auto holds = [&](V x, V b, M zero_at_root) { return L::either(agrees(x, b), zero_at_root); };
    M meet;
    if constexpr (kType == QueryType::vertex_face) {
      meet = L::both(L::both(holds(d12, b12, z12), holds(d23, b23, z23)), holds(d31, b31, z31));
    } else {
      const V e12 = neg(d12), e31 = neg(d31), e_all = neg(all);
      meet = L::both(L::both(holds(e12, b12, z12), holds(e31, b31, z31)),
                     L::both(holds(d23, b23, z23), holds(e_all, b_all, z123)));
    }
    inside = L::either(inside, L::both(undecided, meet));
  }
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_AREA_INCLUSION_INL_H_
