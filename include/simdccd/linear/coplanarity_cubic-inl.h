// The coplanarity cubic of a linear-trajectory query, in Bernstein form on [0,1],
// with a forward error bound for each coefficient.
//
// With the points relative to point 0, R_j(t) = x_j(t) - x_0(t) (j = 1, 2, 3),
// R_j(t) = (1-t) P_j + t Q_j where P_j, Q_j are the relative positions at t=0
// and t=1, and the four points are coplanar iff
//   c(t) = det[R_1(t), R_2(t), R_3(t)] = sum_k b_k C(3,k) t^k (1-t)^(3-k) = 0.
// Trilinearity gives b_0 = det[P1,P2,P3], b_3 = det[Q1,Q2,Q3], and b_1 (b_2) the
// mean of the three determinants with one (two) P replaced by Q. VF: point 0
// is the vertex; EE: point 0 is a0 (eq. 8 and eq. 12 of Huh et al., in
// Bernstein rather than power form).
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE: `portable`
// by default, and once per Highway target in dispatch/linear_ccd.cc, which
// re-includes this header (toggled by HWY_TARGET_TOGGLE) inside each target's
// region, so that SVE vectors pass only through functions compiled for SVE.
#if defined(SIMDCCD_LINEAR_COPLANARITY_CUBIC_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_COPLANARITY_CUBIC_INL_H_
#undef SIMDCCD_LINEAR_COPLANARITY_CUBIC_INL_H_
#else
#define SIMDCCD_LINEAR_COPLANARITY_CUBIC_INL_H_
#endif

#include <cstddef>

#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

using simd::kTiny;
using simd::kUnitRoundoff;

/// Reads a query from a structure-of-arrays tile: `coord[3 * (4 * time + point)
/// + axis]` holds lanes() queries from index `i` on.
template <class L>
struct QueryLanes {
  using V = typename L::V;
  const double* const* coord;
  std::size_t i;

  V at(int time, int point, int axis) const {
    return L::load(coord[3 * (4 * time + point) + axis] + i);
  }
  /// x_point - x_0 at t = time (0 or 1), rounded once.
  V relative(int time, int point, int axis) const {
    return L::sub(at(time, point, axis), at(time, 0, axis));
  }
};

using simd::SIMDCCD_TARGET_NAMESPACE::abs_cross3;
using simd::SIMDCCD_TARGET_NAMESPACE::cross3;
using simd::SIMDCCD_TARGET_NAMESPACE::dot3;

/// Bernstein coefficients b0..b3 of the coplanarity cubic, and `coarse`, one
/// bound on all four |b_k - exact b_k|: cheaper than coplanarity_bounds and
/// nearly as strong wherever the cubic is far from vanishing. Each
/// determinant is a row dotted with the cross product of the other two
/// (shared between determinants). Every permanent of coplanarity_bounds is at
/// most 6 M1 M2 M3, M_j the largest |coordinate| of R_j at t = 0 and t = 1 (a
/// permanent of three rows is a sum of six products of one entry a row); 11 u
/// of it are needed (see there), 24 u are used, and 25 u cover the 3 roundings
/// of the product too.
template <class L>
void coplanarity_cubic(const QueryLanes<L>& q, typename L::V& b0, typename L::V& b1,
                       typename L::V& b2, typename L::V& b3, typename L::V& coarse) {
  using V = typename L::V;
  const V p1x = q.relative(0, 1, 0), p1y = q.relative(0, 1, 1), p1z = q.relative(0, 1, 2);
  const V p2x = q.relative(0, 2, 0), p2y = q.relative(0, 2, 1), p2z = q.relative(0, 2, 2);
  const V p3x = q.relative(0, 3, 0), p3y = q.relative(0, 3, 1), p3z = q.relative(0, 3, 2);
  const V q1x = q.relative(1, 1, 0), q1y = q.relative(1, 1, 1), q1z = q.relative(1, 1, 2);
  const V q2x = q.relative(1, 2, 0), q2y = q.relative(1, 2, 1), q2z = q.relative(1, 2, 2);
  const V q3x = q.relative(1, 3, 0), q3y = q.relative(1, 3, 1), q3z = q.relative(1, 3, 2);
  // Cross products of rows 2 and 3: PP = P2 x P3, QP = Q2 x P3, PQ = P2 x Q3, QQ = Q2 x Q3.
  V ppx, ppy, ppz, qpx, qpy, qpz, pqx, pqy, pqz, qqx, qqy, qqz;
  cross3<L>(p2x, p2y, p2z, p3x, p3y, p3z, ppx, ppy, ppz);
  cross3<L>(q2x, q2y, q2z, p3x, p3y, p3z, qpx, qpy, qpz);
  cross3<L>(p2x, p2y, p2z, q3x, q3y, q3z, pqx, pqy, pqz);
  cross3<L>(q2x, q2y, q2z, q3x, q3y, q3z, qqx, qqy, qqz);
  const V three = L::set(3);
  // b0 = P1.PP, b3 = Q1.QQ, 3 b1 = Q1.PP + P1.QP + P1.PQ, 3 b2 = P1.QQ + Q1.PQ + Q1.QP.
  b0 = dot3<L>(p1x, p1y, p1z, ppx, ppy, ppz);
  b3 = dot3<L>(q1x, q1y, q1z, qqx, qqy, qqz);
  b1 = L::div(L::add(L::add(dot3<L>(q1x, q1y, q1z, ppx, ppy, ppz), dot3<L>(p1x, p1y, p1z, qpx, qpy, qpz)),
                     dot3<L>(p1x, p1y, p1z, pqx, pqy, pqz)),
              three);
  b2 = L::div(L::add(L::add(dot3<L>(p1x, p1y, p1z, qqx, qqy, qqz), dot3<L>(q1x, q1y, q1z, pqx, pqy, pqz)),
                     dot3<L>(q1x, q1y, q1z, qpx, qpy, qpz)),
              three);
  const auto largest = [](V x, V y, V z, V u, V v, V w) {
    return L::max(L::max(L::max(L::abs(x), L::abs(y)), L::max(L::abs(z), L::abs(u))), L::max(L::abs(v), L::abs(w)));
  };
  const V m1 = largest(p1x, p1y, p1z, q1x, q1y, q1z), m2 = largest(p2x, p2y, p2z, q2x, q2y, q2z);
  const V m3 = largest(p3x, p3y, p3z, q3x, q3y, q3z);
  coarse = L::add(L::mul(L::set(6 * 25 * kUnitRoundoff), L::mul(L::mul(m1, m2), m3)), L::set(kTiny));
}

/// Bounds e0..e3 with |b_k - exact b_k| <= e_k (exact: from the exact input
/// coordinates), b_k from coplanarity_cubic: its expressions on absolute
/// values (permanents). Rounding of the relative positions (3 factors), the
/// determinant (5 operations), the sum of three (2) and the division by 3 (1)
/// add up to at most 11 u per term of the permanent; we use 24 u.
template <class L>
void coplanarity_bounds(const QueryLanes<L>& q, typename L::V& e0, typename L::V& e1,
                        typename L::V& e2, typename L::V& e3) {
  using V = typename L::V;
  const auto r = [&](int time, int point, int axis) { return L::abs(q.relative(time, point, axis)); };
  const V p1x = r(0, 1, 0), p1y = r(0, 1, 1), p1z = r(0, 1, 2);
  const V p2x = r(0, 2, 0), p2y = r(0, 2, 1), p2z = r(0, 2, 2);
  const V p3x = r(0, 3, 0), p3y = r(0, 3, 1), p3z = r(0, 3, 2);
  const V q1x = r(1, 1, 0), q1y = r(1, 1, 1), q1z = r(1, 1, 2);
  const V q2x = r(1, 2, 0), q2y = r(1, 2, 1), q2z = r(1, 2, 2);
  const V q3x = r(1, 3, 0), q3y = r(1, 3, 1), q3z = r(1, 3, 2);
  V mppx, mppy, mppz, mqpx, mqpy, mqpz, mpqx, mpqy, mpqz, mqqx, mqqy, mqqz;
  abs_cross3<L>(p2x, p2y, p2z, p3x, p3y, p3z, mppx, mppy, mppz);
  abs_cross3<L>(q2x, q2y, q2z, p3x, p3y, p3z, mqpx, mqpy, mqpz);
  abs_cross3<L>(p2x, p2y, p2z, q3x, q3y, q3z, mpqx, mpqy, mpqz);
  abs_cross3<L>(q2x, q2y, q2z, q3x, q3y, q3z, mqqx, mqqy, mqqz);
  const V c = L::set(24 * kUnitRoundoff), tiny = L::set(kTiny), three = L::set(3);
  const auto bound = [&](V perm) { return L::add(L::mul(c, perm), tiny); };
  e0 = bound(dot3<L>(p1x, p1y, p1z, mppx, mppy, mppz));
  e3 = bound(dot3<L>(q1x, q1y, q1z, mqqx, mqqy, mqqz));
  e1 = bound(L::div(L::add(L::add(dot3<L>(q1x, q1y, q1z, mppx, mppy, mppz), dot3<L>(p1x, p1y, p1z, mqpx, mqpy, mqpz)),
                           dot3<L>(p1x, p1y, p1z, mpqx, mpqy, mpqz)),
                    three));
  e2 = bound(L::div(L::add(L::add(dot3<L>(p1x, p1y, p1z, mqqx, mqqy, mqqz), dot3<L>(q1x, q1y, q1z, mpqx, mpqy, mpqz)),
                           dot3<L>(q1x, q1y, q1z, mqpx, mqpy, mqpz)),
                    three));
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_COPLANARITY_CUBIC_INL_H_
