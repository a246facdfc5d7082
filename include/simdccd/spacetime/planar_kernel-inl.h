// The planar space-time CCD kernel (spacetime_oracle.hpp's planar case: a point
// against a moving edge in the x-y plane) on a tile of queries, written once
// over the lane type L (see simdccd/linear/lanes.hpp), instantiated as the 3D
// kernel is (tile_kernel-inl.h, whose method this is, one dimension down).
//
// Space-time is R^3 = (x, y, t). Each piece pairs the point's segment A =
// ((p, 0), (p', 1)) with a triangle B of the edge's quad (triangle 0 = (a, b,
// b'), 1 = (a, a', b'), a and b the endpoints in id order): 5 points. Lifting
// every point x to (x, 1) in R^4, the pieces intersect iff
//   sum_{i in A} alpha_i (X_i, 1) - sum_{j in B} beta_j (Y_j, 1) = 0
// has a non-negative non-zero solution; when the 4 x 5 system has rank 4 its
// null space is spanned by c_j = (-1)^j (j in B ? -1 : 1) O_j, O_j =
// orient(the 4 points but j) = det[(q_i, 1)] (4 x 4), the 3D orientation
// predicate. Every c_j certified of one sign: a transversal hit at t* =
// c_{p'} / (c_p + c_{p'}); two of opposite signs: a miss; anything else is
// uncertain (exact: the oracle; conservative: a hit with toi = 0).
//
// orient with +, -, x only: subtracting a base point (at the majority time of
// the four) leaves a 3 x 3 determinant of differences whose time column holds
// only 0, 1, -1, a sum of at most two signed 2 x 2 determinants of spatial
// differences: det4[(q_i, 1)] = (-1)^(b + 3) det3[q_i - q_b, i != b], and
// det3 = sum_c (-1)^(c + 2) tau_c det2(the other two rows). Error: each
// monomial of a 2 x 2 determinant collects at most 4 roundings (2 rounded
// differences, the product, the subtraction), the sum of up to 3 of them 2
// more, so |fl(O) - O| <= gamma_6 P + underflow, P the permanent; we use
// kPlanarOrientError = 16 u (more than twice 6 u, covering the rounding of P
// too) plus linear::kTiny (degree 2 here). The toi bracket, tolerance rule,
// box screen, piece rule (tile_kernel-inl.h's track_best and store_piece) and
// validity test are those of the 3D kernel.
#if defined(SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#undef SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#else
#define SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <limits>

#include "simdccd/linear/error_bounds.hpp"
#include "simdccd/linear/lanes.hpp"
#include "simdccd/spacetime/tile.hpp"
#include "simdccd/spacetime/tile_kernel-inl.h"

namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE {

namespace planar {

inline constexpr double kPlanarOrientError = 16 * linear::kUnitRoundoff;

using detail::Vertex;

/// Reads lanes() planar queries from index `i` of a planar tile's coordinates.
template <class L>
struct PlanarLanes {
  using V = typename L::V;
  const double* const* coord;
  std::size_t i;
  V at(Vertex v, int axis) const { return L::load(coord[2 * (3 * v.time + v.point) + axis] + i); }
  V diff(Vertex a, Vertex base, int axis) const { return L::sub(at(a, axis), at(base, axis)); }
};

/// det[a - o, b - o] (spatial, 2 x 2) and its permanent.
template <class L>
void det2(const PlanarLanes<L>& q, Vertex o, Vertex a, Vertex b, typename L::V& det, typename L::V& perm) {
  using V = typename L::V;
  const V ax = q.diff(a, o, 0), ay = q.diff(a, o, 1);
  const V bx = q.diff(b, o, 0), by = q.diff(b, o, 1);
  det = L::sub(L::mul(ax, by), L::mul(ay, bx));
  perm = L::add(L::mul(L::abs(ax), L::abs(by)), L::mul(L::abs(ay), L::abs(bx)));
}

/// orient(p_0..p_3) = det[(p_i, 1)] (4 x 4) and its permanent (see the top).
template <class L>
void orient4(const PlanarLanes<L>& q, const Vertex (&p)[4], typename L::V& det, typename L::V& perm) {
  using V = typename L::V;
  int ones = 0;
  for (const Vertex& v : p) ones += v.time;
  const int base_time = ones >= 3 ? 1 : 0;
  int b = 0;
  while (p[b].time != base_time) ++b;
  int row[3];
  for (int i = 0, n = 0; i < 4; ++i) {
    if (i != b) row[n++] = i;
  }
  det = L::set(0);
  perm = L::set(0);
  for (int c = 0; c < 3; ++c) {
    const int tau = p[row[c]].time - base_time;
    if (tau == 0) continue;
    const int sign = ((b + 3 + c + 2) % 2 == 0 ? 1 : -1) * tau;
    int other[2];
    for (int k = 0, n = 0; k < 3; ++k) {
      if (k != c) other[n++] = row[k];
    }
    V d, pm;
    det2<L>(q, p[b], p[other[0]], p[other[1]], d, pm);
    det = sign > 0 ? L::add(det, d) : L::sub(det, d);
    perm = L::add(perm, pm);
  }
}

/// The segment (p[0], p[1]) and the triangle (p[2..5)) have disjoint spatial boxes.
template <class L>
typename L::M boxes_separated(const PlanarLanes<L>& q, const Vertex (&p)[5]) {
  using V = typename L::V;
  using M = typename L::M;
  M separated = L::lt(L::set(1), L::set(0));
  for (int axis = 0; axis < 2; ++axis) {
    const V a0 = q.at(p[0], axis), a1 = q.at(p[1], axis);
    const V amin = L::min(a0, a1), amax = L::max(a0, a1);
    const V b0 = q.at(p[2], axis), b1 = q.at(p[3], axis), b2 = q.at(p[4], axis);
    const V bmin = L::min(L::min(b0, b1), b2), bmax = L::max(L::max(b0, b1), b2);
    separated = L::either(separated, L::either(L::lt(amax, bmin), L::lt(bmax, amin)));
  }
  return separated;
}

/// Decides one piece: A = p[0..2), B = p[2..5). As detail::decide_piece.
template <class L>
void decide_piece(const PlanarLanes<L>& q, const Vertex (&p)[5], typename L::M& hit,
                  typename L::M& miss, typename L::V& t_lo, typename L::V& t_hi) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr int kA = 2;
  const V zero = L::set(0), error = L::set(kPlanarOrientError), tiny = L::set(linear::kTiny);
  const M none = L::lt(L::set(1), zero), every = L::le(zero, L::set(1));
  M any_pos = none, any_neg = none, all_pos = every, all_neg = every;
  V num_lo = zero, num_hi = zero, den_lo = zero, den_hi = zero;
  for (int j = 0; j < 5; ++j) {
    Vertex rest[4];
    for (int k = 0, n = 0; k < 5; ++k) {
      if (k != j) rest[n++] = p[k];
    }
    V o, perm;
    orient4<L>(q, rest, o, perm);
    const V e = L::add(L::mul(error, perm), tiny);
    const V minus_e = L::sub(zero, e);
    const bool flip = ((j % 2) != 0) != (j >= kA);  // c_j = -O_j
    const M above = L::gt(o, e), below = L::lt(o, minus_e);
    const M pos = flip ? below : above, neg = flip ? above : below;
    any_pos = L::either(any_pos, pos), any_neg = L::either(any_neg, neg);
    all_pos = L::both(all_pos, pos), all_neg = L::both(all_neg, neg);
    if (j < kA) {
      const V a = L::abs(o);
      const V lo = L::sub(a, e), hi = L::add(a, e);
      den_lo = L::add(den_lo, lo), den_hi = L::add(den_hi, hi);
      if (p[j].time == 1) num_lo = L::add(num_lo, lo), num_hi = L::add(num_hi, hi);
    }
  }
  hit = L::either(all_pos, all_neg);
  miss = L::both(any_pos, any_neg);
  const V below_one = L::set(1 - detail::kRatioMargin), above_one = L::set(1 + detail::kRatioMargin);
  const V underflow = L::set(detail::kRatioUnderflow);
  t_lo = L::max(zero, L::sub(L::mul(L::div(num_lo, den_hi), below_one), underflow));
  t_hi = L::min(L::set(1), L::add(L::mul(L::div(num_hi, den_lo), above_one), underflow));
}

template <class L>
typename L::M valid_input(const PlanarLanes<L>& q) {
  typename L::M valid = L::le(L::set(0), L::set(1));
  const typename L::V limit = L::set(linear::kMaxCoordinate);
  for (int k = 0; k < 12; ++k) {
    valid = L::both(valid, L::le(L::abs(L::load(q.coord[k] + q.i)), limit));  // false for NaN
  }
  return valid;
}

/// Segment (p, p'); triangles (a, b, b') and (a, a', b'), in piece order.
inline constexpr Vertex kPieces[2][5] = {
    {{0, 0}, {0, 1}, {1, 0}, {2, 0}, {2, 1}},
    {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 1}},
};

/// Decides queries [i, i + lanes).
template <class L>
void decide_lanes(PlanarTile& t, const double* const* coord, std::size_t i, double tolerance) {
  using V = typename L::V;
  using M = typename L::M;
  const PlanarLanes<L> q{coord, i};
  const V zero = L::set(0), inf = L::set(std::numeric_limits<double>::infinity());
  const M none = L::lt(L::set(1), zero);
  const M valid = valid_input<L>(q);
  M uncertain = none, hit = none;
  V lo = inf, hi = inf;
  V best = L::set(-1), best_lo = inf, other_lo = inf;
  for (int k = 0; k < 2; ++k) {
    const M separated = boxes_separated<L>(q, kPieces[k]);
    if (L::all(separated)) continue;
    M piece_hit, piece_miss;
    V piece_lo, piece_hi;
    decide_piece<L>(q, kPieces[k], piece_hit, piece_miss, piece_lo, piece_hi);
    piece_hit = L::but_not(piece_hit, separated);
    uncertain = L::either(uncertain, L::but_not(L::but_not(L::but_not(valid, separated), piece_hit), piece_miss));
    hit = L::either(hit, piece_hit);
    detail::track_best<L>(piece_hit, piece_lo, piece_hi, k, hi, best, best_lo, other_lo);
    lo = L::select(piece_hit, L::min(lo, piece_lo), lo);
    hi = L::select(piece_hit, L::min(hi, piece_hi), hi);
  }
  detail::store_piece<L>(best, other_lo, hi, t.piece + i);
  const M tight = L::le(L::sub(hi, lo), L::set(tolerance * (1 - 0x1p-50)));
  const M certain_hit = L::but_not(L::both(hit, tight), uncertain);
  const M loose = L::either(uncertain, L::but_not(hit, tight));
  V verdict = L::select(certain_hit, detail::verdict_value<L>(Verdict::hit), detail::verdict_value<L>(Verdict::miss));
  verdict = L::select(loose, detail::verdict_value<L>(Verdict::uncertain), verdict);
  V toi = L::select(L::either(certain_hit, loose), lo, inf);
  toi = L::select(uncertain, zero, toi);
  verdict = L::select(valid, verdict, detail::verdict_value<L>(Verdict::invalid));
  toi = L::select(valid, toi, inf);
  L::store(verdict, t.verdict + i);
  L::store(toi, t.toi + i);
}

}  // namespace planar

/// Decides the `t.count` planar queries of the tile (coord filled; 1 <= count
/// <= kTileSize) into `t.verdict`, `t.toi` and `t.piece`.
template <class L>
void decide_planar_tile(PlanarTile& t, double tolerance) {
  const std::size_t lanes = L::lanes();
  const std::size_t padded = (t.count + lanes - 1) / lanes * lanes;
  for (auto& row : t.coord) std::fill(row + t.count, row + padded, row[t.count - 1]);
  const double* coord[12];
  for (int k = 0; k < 12; ++k) coord[k] = t.coord[k];
  for (std::size_t i = 0; i < padded; i += lanes) planar::decide_lanes<L>(t, coord, i, tolerance);
}

}  // namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE

#endif  // SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
