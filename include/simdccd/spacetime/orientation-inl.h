// The orientation predicate of space-time points, with its forward error
// bound, written once over the lane type L (see simdccd/simd/lanes.hpp) and
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
// itself) and the bound adds simd::kTiny for underflow (see
// simd/error_bounds.hpp: the degree is n <= 3 here).
//
// Point lists are template arguments (Points), so that every load, base point
// and sign is a compile-time constant in the unrolled loops (unrolled()): GCC
// does not unroll the same loops over run-time tables, and they cost half the
// kernel's speed.
//
// Defined in namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE::detail:
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

#include <array>
#include <cstddef>
#include <utility>

#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"

namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE::detail {

/// The relative error bound of orient() over n spatial axes, index n.
inline constexpr double kOrientError[4] = {0, 4 * simd::kUnitRoundoff, 16 * simd::kUnitRoundoff,
                                           32 * simd::kUnitRoundoff};

/// A space-time point: query point 0..kAxes (in id order) at time 0 or 1.
struct Vertex {
  int point;
  int time;
};

/// kN space-time points, passed as a template argument.
template <std::size_t kN>
using Points = std::array<Vertex, kN>;

/// p without its j-th point.
template <std::size_t kN>
constexpr Points<kN - 1> without(const Points<kN>& p, int j) {
  Points<kN - 1> rest{};
  for (int k = 0, n = 0; k < static_cast<int>(kN); ++k) {
    if (k != j) rest[n++] = p[k];
  }
  return rest;
}

/// Calls f(std::integral_constant<int, i>()) for i = 0, ..., kN - 1 in order:
/// a loop whose index is a compile-time constant in its body.
template <int kN, class F>
void unrolled(F&& f) {
  [&]<int... i>(std::integer_sequence<int, i...>) {
    (f(std::integral_constant<int, i>()), ...);
  }(std::make_integer_sequence<int, kN>());
}

/// Reads lanes() queries from index `i` of a tile's coordinates,
/// `coord[kAxes * ((kAxes + 1) * time + point) + axis]`.
template <class L, int kAxesIn>
struct PointLanes {
  using V = typename L::V;
  static constexpr int kAxes = kAxesIn;
  const double* const* coord;
  std::size_t i;
  V at(Vertex v, int axis) const { return L::load(coord[kAxes * ((kAxes + 1) * v.time + v.point) + axis] + i); }
};

/// The points of `q` projected, in each lane, along the spatial axis that
/// `drop` (lanes() doubles) holds for it: the other axes, in order, and t.
template <class L, int kStoredAxes>
struct ProjectedLanes {
  using V = typename L::V;
  static constexpr int kAxes = kStoredAxes - 1;
  const PointLanes<L, kStoredAxes>& q;
  const double* drop;
  V at(Vertex v, int axis) const {
    return L::select(L::le(L::load(drop), L::set(axis)), q.at(v, axis + 1), q.at(v, axis));
  }
};

/// The spatial difference a - base along `axis` of q (PointLanes or
/// ProjectedLanes), rounded once.
template <class L, class Q>
typename L::V diff(const Q& q, Vertex a, Vertex base, int axis) {
  return L::sub(q.at(a, axis), q.at(base, axis));
}

/// det[v_i - o] over the Q::kAxes spatial axes of `q`, and its permanent.
template <class L, class Q>
void spatial_det(const Q& q, Vertex o, const Vertex (&v)[Q::kAxes], typename L::V& det,
                 typename L::V& perm) {
  using V = typename L::V;
  if constexpr (Q::kAxes == 1) {
    det = diff<L>(q, v[0], o, 0);
    perm = L::abs(det);
  } else if constexpr (Q::kAxes == 2) {
    const V ax = diff<L>(q, v[0], o, 0), ay = diff<L>(q, v[0], o, 1);
    const V bx = diff<L>(q, v[1], o, 0), by = diff<L>(q, v[1], o, 1);
    det = L::sub(L::mul(ax, by), L::mul(ay, bx));
    perm = L::add(L::mul(L::abs(ax), L::abs(by)), L::mul(L::abs(ay), L::abs(bx)));
  } else {
    const V ax = diff<L>(q, v[0], o, 0), ay = diff<L>(q, v[0], o, 1), az = diff<L>(q, v[0], o, 2);
    const V bx = diff<L>(q, v[1], o, 0), by = diff<L>(q, v[1], o, 1), bz = diff<L>(q, v[1], o, 2);
    const V cx = diff<L>(q, v[2], o, 0), cy = diff<L>(q, v[2], o, 1), cz = diff<L>(q, v[2], o, 2);
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

/// orient(p_0..p_{n+1}) = det[(p_i, 1)] over n spatial axes as a sum of
/// signed spatial determinants (computed at compile time): with p_b (`base`)
/// the first point at the majority time, det[(p_i, 1)] = (-1)^(b + n + 1)
/// det[p_i - p_b, i != b], expanded along its time column (entries tau_c = 0,
/// 1, -1): sum_c (-1)^(c + n) tau_c spatial_det(the other rows); the sign of a
/// term is (-1)^(b + c + 1) tau_c.
template <int kAxes>
struct Expansion {
  Vertex base{};
  int terms = 0;
  int sign[kAxes + 1]{};
  Vertex rows[kAxes + 1][kAxes]{};
};

template <int kAxes>
constexpr Expansion<kAxes> expand(const Points<kAxes + 2>& p) {
  Expansion<kAxes> e;
  int ones = 0;
  for (const Vertex& v : p) ones += v.time;
  const int base_time = 2 * ones > kAxes + 2 ? 1 : 0;
  int b = 0;
  while (p[b].time != base_time) ++b;
  e.base = p[b];
  const Points<kAxes + 1> col = without(p, b);
  for (int c = 0; c < kAxes + 1; ++c) {
    const int tau = col[c].time - base_time;
    if (tau == 0) continue;
    e.sign[e.terms] = ((b + c + 1) % 2 == 0 ? 1 : -1) * tau;
    const Points<kAxes> other = without(col, c);
    for (int k = 0; k < kAxes; ++k) e.rows[e.terms][k] = other[k];
    ++e.terms;
  }
  return e;
}

template <auto kP>
inline constexpr Expansion<static_cast<int>(kP.size()) - 2> kExpansion =
    expand<static_cast<int>(kP.size()) - 2>(kP);

/// Whether orient<L, kP> returns -orient(kP): the sign of the first term is
/// folded into the caller's comparisons instead of a negation (rounding is
/// symmetric, so the sum is exactly +-orient).
template <auto kP>
inline constexpr bool kNegated = kExpansion<kP>.terms > 0 && kExpansion<kP>.sign[0] < 0;

/// orient(kP) (n = Q::kAxes spatial axes of q), negated where kNegated<kP>,
/// and its permanent: the terms summed in order as the expansion gives them.
/// With all points at one time it is exactly 0 (they span no time).
template <class L, auto kP, class Q>
void orient(const Q& q, typename L::V& det, typename L::V& perm) {
  using V = typename L::V;
  constexpr const Expansion<Q::kAxes>& e = kExpansion<kP>;
  static_assert(static_cast<int>(kP.size()) == Q::kAxes + 2);
  if constexpr (e.terms == 0) {
    det = L::set(0), perm = L::set(0);
  } else {
    spatial_det<L>(q, e.base, e.rows[0], det, perm);
    unrolled<e.terms - 1>([&](auto t) {
      V d, pm;
      spatial_det<L>(q, e.base, e.rows[t + 1], d, pm);
      det = e.sign[t + 1] == e.sign[0] ? L::add(det, d) : L::sub(det, d);
      perm = L::add(perm, pm);
    });
  }
}

}  // namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE::detail

#endif  // SIMDCCD_SPACETIME_ORIENTATION_INL_H_
