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
#pragma once

#include <cstddef>

#include "simdccd/linear/error_bounds.hpp"
#include "simdccd/linear/lanes.hpp"

namespace simdccd::linear {

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

/// det = a . (b x c), and perm = the same on absolute values.
template <class L>
void det3(typename L::V ax, typename L::V ay, typename L::V az, typename L::V bx,
          typename L::V by, typename L::V bz, typename L::V cx, typename L::V cy,
          typename L::V cz, typename L::V& det, typename L::V& perm) {
  using V = typename L::V;
  const V x = L::sub(L::mul(by, cz), L::mul(bz, cy));
  const V y = L::sub(L::mul(bz, cx), L::mul(bx, cz));
  const V z = L::sub(L::mul(bx, cy), L::mul(by, cx));
  det = L::add(L::add(L::mul(ax, x), L::mul(ay, y)), L::mul(az, z));
  const auto a = [](V v) { return L::abs(v); };
  const V px = L::add(L::mul(a(by), a(cz)), L::mul(a(bz), a(cy)));
  const V py = L::add(L::mul(a(bz), a(cx)), L::mul(a(bx), a(cz)));
  const V pz = L::add(L::mul(a(bx), a(cy)), L::mul(a(by), a(cx)));
  perm = L::add(L::add(L::mul(a(ax), px), L::mul(a(ay), py)), L::mul(a(az), pz));
}

/// Bernstein coefficients b0..b3 of the coplanarity cubic, and bounds e0..e3
/// with |b_k - exact b_k| <= e_k (exact: from the exact input coordinates).
/// Rounding of the relative positions (3 factors), the determinant (5
/// operations), the sum of three (2) and the division by 3 (1) add up to at
/// most 11 u per term of the permanent; we use 24 u.
template <class L>
void coplanarity_cubic(const QueryLanes<L>& q, typename L::V& b0, typename L::V& b1,
                       typename L::V& b2, typename L::V& b3, typename L::V& e0,
                       typename L::V& e1, typename L::V& e2, typename L::V& e3) {
  using V = typename L::V;
  const V p1x = q.relative(0, 1, 0), p1y = q.relative(0, 1, 1), p1z = q.relative(0, 1, 2);
  const V p2x = q.relative(0, 2, 0), p2y = q.relative(0, 2, 1), p2z = q.relative(0, 2, 2);
  const V p3x = q.relative(0, 3, 0), p3y = q.relative(0, 3, 1), p3z = q.relative(0, 3, 2);
  const V q1x = q.relative(1, 1, 0), q1y = q.relative(1, 1, 1), q1z = q.relative(1, 1, 2);
  const V q2x = q.relative(1, 2, 0), q2y = q.relative(1, 2, 1), q2z = q.relative(1, 2, 2);
  const V q3x = q.relative(1, 3, 0), q3y = q.relative(1, 3, 1), q3z = q.relative(1, 3, 2);
  V d0, d1, d2, m0, m1, m2;  // determinants and permanents
  det3<L>(p1x, p1y, p1z, p2x, p2y, p2z, p3x, p3y, p3z, b0, m0);
  det3<L>(q1x, q1y, q1z, q2x, q2y, q2z, q3x, q3y, q3z, b3, m1);
  const V c = L::set(24 * kUnitRoundoff), tiny = L::set(kTiny), three = L::set(3);
  e0 = L::add(L::mul(c, m0), tiny);
  e3 = L::add(L::mul(c, m1), tiny);
  // b1: one row from Q.
  det3<L>(q1x, q1y, q1z, p2x, p2y, p2z, p3x, p3y, p3z, d0, m0);
  det3<L>(p1x, p1y, p1z, q2x, q2y, q2z, p3x, p3y, p3z, d1, m1);
  det3<L>(p1x, p1y, p1z, p2x, p2y, p2z, q3x, q3y, q3z, d2, m2);
  b1 = L::div(L::add(L::add(d0, d1), d2), three);
  e1 = L::add(L::div(L::mul(c, L::add(L::add(m0, m1), m2)), three), tiny);
  // b2: two rows from Q.
  det3<L>(p1x, p1y, p1z, q2x, q2y, q2z, q3x, q3y, q3z, d0, m0);
  det3<L>(q1x, q1y, q1z, p2x, p2y, p2z, q3x, q3y, q3z, d1, m1);
  det3<L>(q1x, q1y, q1z, q2x, q2y, q2z, p3x, p3y, p3z, d2, m2);
  b2 = L::div(L::add(L::add(d0, d1), d2), three);
  e2 = L::add(L::div(L::mul(c, L::add(L::add(m0, m1), m2)), three), tiny);
}

}  // namespace simdccd::linear
