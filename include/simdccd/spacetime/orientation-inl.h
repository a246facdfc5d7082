// The orientation predicate of space-time points, with its forward error
// bound, written once over the lane type L (see simdccd/linear/lanes.hpp) and
// the number of spatial axes (1, 2 or 3): the 3D kernel (tile_kernel-inl.h)
// works in (x, y, z, t), the planar one (planar_kernel-inl.h) in (x, y, t), and
// the lower-dimensional fallback (piece_kernel-inl.h) in their projections
// that drop one spatial axis.
//
// orient(q_0..q_{n+1}) = det[(q_i, 1)] over n spatial axes and t. Subtracting
// a base point b at the majority time leaves det[q_i - q_b, i != b], whose time
// column holds only 0, 1, -1 (tau_i = t_i - t_b), so it is a sum of signed n x n
// spatial determinants, one per point off the base time: at most 2 for n = 3
// (5 points) and n = 2 (4 points), at most 1 for n = 1 (3 points). Only +, -,
// x. Error bound, with P the same expression on absolute values (the
// permanent), from the roundings one monomial collects:
//   n = 3: 3 rounded differences, 2 products, the cross product's subtraction,
//          2 additions in the 3 x 3 determinant, up to 3 in the sum: gamma_11;
//   n = 2: 2 differences, 1 product, 1 subtraction, up to 2 in the sum: gamma_6;
//   n = 1: the difference itself: gamma_1.
// kOrientError[n] is more than twice that (which also covers the rounding of P
// itself) and the bound adds linear::kTiny for underflow (see
// linear/error_bounds.hpp: the degree is n <= 3 here).
//
// Defined in namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE::detail:
// `portable` by default, and once per Highway target in
// dispatch/spacetime_ccd.cc, which re-includes this header (toggled by
// HWY_TARGET_TOGGLE) inside each target's region, so that SVE vectors pass
// only through functions compiled for SVE.
#if defined(SIMDCCD_SPACETIME_ORIENTATION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SPACETIME_ORIENTATION_INL_H_
#undef SIMDCCD_SPACETIME_ORIENTATION_INL_H_
#else
#define SIMDCCD_SPACETIME_ORIENTATION_INL_H_
#endif

#include <cstddef>

#include "simdccd/linear/error_bounds.hpp"
#include "simdccd/linear/lanes.hpp"

namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE::detail {

/// The relative error bound of orient() over n spatial axes, index n.
inline constexpr double kOrientError[4] = {0, 4 * linear::kUnitRoundoff, 16 * linear::kUnitRoundoff,
                                           32 * linear::kUnitRoundoff};

/// A space-time point: query point 0..kAxes (in id order) at time 0 or 1.
struct Vertex {
  int point;
  int time;
};

/// Reads lanes() queries from index `i` of a tile's coordinates,
/// `coord[kAxes * ((kAxes + 1) * time + point) + axis]`.
template <class L, int kAxesIn>
struct PointLanes {
  using V = typename L::V;
  static constexpr int kAxes = kAxesIn;
  const double* const* coord;
  std::size_t i;
  V at(Vertex v, int axis) const { return L::load(coord[kAxes * ((kAxes + 1) * v.time + v.point) + axis] + i); }
  /// The spatial difference a - base, rounded once.
  V diff(Vertex a, Vertex base, int axis) const { return L::sub(at(a, axis), at(base, axis)); }
};

/// The points of `q` projected along spatial axis `drop`: the other axes, in
/// order, and t.
template <class L, int kStoredAxes>
struct ProjectedLanes {
  using V = typename L::V;
  static constexpr int kAxes = kStoredAxes - 1;
  const PointLanes<L, kStoredAxes>& q;
  int drop;
  V at(Vertex v, int axis) const { return q.at(v, axis < drop ? axis : axis + 1); }
  V diff(Vertex a, Vertex base, int axis) const { return L::sub(at(a, axis), at(base, axis)); }
};

/// det[v_i - o] over the Points::kAxes spatial axes of `q`, and its permanent.
template <class L, class Points>
void spatial_det(const Points& q, Vertex o, const Vertex (&v)[Points::kAxes], typename L::V& det,
                 typename L::V& perm) {
  using V = typename L::V;
  if constexpr (Points::kAxes == 1) {
    det = q.diff(v[0], o, 0);
    perm = L::abs(det);
  } else if constexpr (Points::kAxes == 2) {
    const V ax = q.diff(v[0], o, 0), ay = q.diff(v[0], o, 1);
    const V bx = q.diff(v[1], o, 0), by = q.diff(v[1], o, 1);
    det = L::sub(L::mul(ax, by), L::mul(ay, bx));
    perm = L::add(L::mul(L::abs(ax), L::abs(by)), L::mul(L::abs(ay), L::abs(bx)));
  } else {
    const V ax = q.diff(v[0], o, 0), ay = q.diff(v[0], o, 1), az = q.diff(v[0], o, 2);
    const V bx = q.diff(v[1], o, 0), by = q.diff(v[1], o, 1), bz = q.diff(v[1], o, 2);
    const V cx = q.diff(v[2], o, 0), cy = q.diff(v[2], o, 1), cz = q.diff(v[2], o, 2);
    const V x = L::sub(L::mul(by, cz), L::mul(bz, cy));
    const V y = L::sub(L::mul(bz, cx), L::mul(bx, cz));
    const V z = L::sub(L::mul(bx, cy), L::mul(by, cx));
    det = L::add(L::add(L::mul(ax, x), L::mul(ay, y)), L::mul(az, z));
    const V abx = L::abs(bx), aby = L::abs(by), abz = L::abs(bz);
    const V acx = L::abs(cx), acy = L::abs(cy), acz = L::abs(cz);
    const V px = L::add(L::mul(aby, acz), L::mul(abz, acy));
    const V py = L::add(L::mul(abz, acx), L::mul(abx, acz));
    const V pz = L::add(L::mul(abx, acy), L::mul(aby, acx));
    perm = L::add(L::add(L::mul(L::abs(ax), px), L::mul(L::abs(ay), py)), L::mul(L::abs(az), pz));
  }
}

/// orient(p_0..p_{n+1}) = det[(p_i, 1)] (n = Points::kAxes) and its permanent:
/// with p_b at the majority time, det[(p_i, 1)] = (-1)^(b + n + 1) det[p_i - p_b,
/// i != b], expanded along its time column (entries tau_c = 0, 1, -1):
/// sum_c (-1)^(c + n) tau_c spatial_det(the other rows); the sign of a term is
/// (-1)^(b + c + 1).
template <class L, class Points>
void orient(const Points& q, const Vertex (&p)[Points::kAxes + 2], typename L::V& det, typename L::V& perm) {
  using V = typename L::V;
  constexpr int kAxes = Points::kAxes;
  int ones = 0;
  for (const Vertex& v : p) ones += v.time;
  const int base_time = 2 * ones > kAxes + 2 ? 1 : 0;
  int b = 0;
  while (p[b].time != base_time) ++b;
  int col[kAxes + 1];
  for (int i = 0, n = 0; i < kAxes + 2; ++i) {
    if (i != b) col[n++] = i;
  }
  det = L::set(0);
  perm = L::set(0);
  for (int c = 0; c < kAxes + 1; ++c) {
    const int tau = p[col[c]].time - base_time;
    if (tau == 0) continue;
    const int sign = ((b + c + 1) % 2 == 0 ? 1 : -1) * tau;
    Vertex other[kAxes];
    for (int k = 0, n = 0; k < kAxes + 1; ++k) {
      if (k != c) other[n++] = p[col[k]];
    }
    V d, pm;
    spatial_det<L>(q, p[b], other, d, pm);
    det = sign > 0 ? L::add(det, d) : L::sub(det, d);
    perm = L::add(perm, pm);
  }
}

}  // namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE::detail

#endif  // SIMDCCD_SPACETIME_ORIENTATION_INL_H_
