// The method that the 3D space-time kernel (tile_kernel-inl.h, where it is
// described) and the planar one (planar_kernel-inl.h, one dimension down)
// share, written once over the lane type L (see simdccd/linear/lanes.hpp) and
// the number of spatial axes kAxes (3 or 2): reading space-time points, the
// orientation predicate of kAxes + 2 of them, the box screen, deciding one
// piece, choosing the contact piece and the verdict of a query over its pieces.
//
// A query has kAxes + 1 points per time; a piece pairs A (its first kA points)
// with B (the rest): kAxes + 3 space-time points. Point lists are template
// arguments (Points), so that every load, base point and sign is a
// compile-time constant in the unrolled loops. Each dimension's header
// provides, in this namespace, its error constant, its pieces (a type with kA,
// kCount and kPoints[kCount][kAxes + 3]) and
//   spatial_det(const PointLanes<L, kAxes>& q, Vertex o, const Vertex (&v)[kAxes],
//               V& det, V& perm)
// (det[v_i - o], kAxes x kAxes, and its permanent), found by argument-dependent
// lookup when orient() is instantiated.
//
// Defined in namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE::detail:
// `portable` by default, and once per Highway target in
// dispatch/spacetime_ccd.cc, which re-includes this header (toggled by
// HWY_TARGET_TOGGLE) inside each target's region, so that SVE vectors pass
// only through functions compiled for SVE.
#if defined(SIMDCCD_SPACETIME_PIECE_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SPACETIME_PIECE_KERNEL_INL_H_
#undef SIMDCCD_SPACETIME_PIECE_KERNEL_INL_H_
#else
#define SIMDCCD_SPACETIME_PIECE_KERNEL_INL_H_
#endif

#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include "simdccd/linear/error_bounds.hpp"
#include "simdccd/linear/lanes.hpp"
#include "simdccd/linear/tile_common-inl.h"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE::detail {

using linear::SIMDCCD_LINEAR_NAMESPACE::detail::for_each_vector;
using linear::SIMDCCD_LINEAR_NAMESPACE::detail::valid_input;
using linear::SIMDCCD_LINEAR_NAMESPACE::detail::verdict_value;

inline constexpr double kRatioMargin = 0x1p-48;
inline constexpr double kRatioUnderflow = 0x1p-1000;

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
template <class L, int kAxes>
struct PointLanes {
  using V = typename L::V;
  const double* const* coord;
  std::size_t i;
  V at(Vertex v, int axis) const { return L::load(coord[kAxes * ((kAxes + 1) * v.time + v.point) + axis] + i); }
  /// The spatial difference a - base, rounded once.
  V diff(Vertex a, Vertex base, int axis) const { return L::sub(at(a, axis), at(base, axis)); }
};

/// orient(p_0..p_{kAxes+1}) = det[(p_i, 1)] as a sum of signed spatial
/// determinants (computed at compile time): with p_b (`base`) the first point
/// at the majority time, det[(p_i, 1)] = (-1)^(b + kAxes + 1) det[p_i - p_b,
/// i != b], expanded along its time column (entries tau_c = 0, 1, -1): sum_c
/// (-1)^(c + kAxes) tau_c spatial_det(the other rows); the sign of a term is
/// (-1)^(b + c + 1) tau_c.
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
  const int base_time = ones >= 3 ? 1 : 0;
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

/// orient(kP) times the sign of its first term (kNegated<kP>: -1), and its
/// permanent: the terms summed in order as the expansion gives them, the first
/// one's sign folded into the caller's comparisons instead of a negation
/// (rounding is symmetric, so the sum is exactly +-orient).
template <auto kP>
inline constexpr bool kNegated = kExpansion<kP>.sign[0] < 0;

template <class L, auto kP, int kAxes>
void orient(const PointLanes<L, kAxes>& q, typename L::V& det, typename L::V& perm) {
  using V = typename L::V;
  constexpr const Expansion<kAxes>& e = kExpansion<kP>;
  static_assert(static_cast<int>(kP.size()) == kAxes + 2 && e.terms >= 1);
  spatial_det(q, e.base, e.rows[0], det, perm);
  unrolled<e.terms - 1>([&](auto t) {
    V d, pm;
    spatial_det(q, e.base, e.rows[t + 1], d, pm);
    det = e.sign[t + 1] == e.sign[0] ? L::add(det, d) : L::sub(det, d);
    perm = L::add(perm, pm);
  });
}

/// A and B (the first kA points of kP, then the rest) have disjoint spatial boxes.
template <class L, int kA, auto kP, int kAxes>
typename L::M boxes_separated(const PointLanes<L, kAxes>& q) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr int kN = kAxes + 3;
  M separated = L::lt(L::set(1), L::set(0));
  unrolled<kAxes>([&](auto axis) {
    V amin = q.at(kP[0], axis), amax = amin, bmin = q.at(kP[kA], axis), bmax = bmin;
    unrolled<kN>([&](auto k) {
      if constexpr (k != 0 && k != kA) {
        const V x = q.at(kP[k], axis);
        if constexpr (k < kA) {
          amin = L::min(amin, x), amax = L::max(amax, x);
        } else {
          bmin = L::min(bmin, x), bmax = L::max(bmax, x);
        }
      }
    });
    separated = L::either(separated, L::either(L::lt(amax, bmin), L::lt(bmax, amin)));
  });
  return separated;
}

/// Decides one piece: A = kP[0..kA), B = the rest, each orientation with the
/// error bound orient_error * permanent + kTiny. `hit` and `miss` are
/// certified; where `hit`, t* of the piece is in [t_lo, t_hi].
template <class L, int kA, auto kP, int kAxes>
void decide_piece(const PointLanes<L, kAxes>& q, double orient_error, typename L::M& hit, typename L::M& miss,
                  typename L::V& t_lo, typename L::V& t_hi) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr int kN = kAxes + 3;
  static_assert(static_cast<int>(kP.size()) == kN);
  const V zero = L::set(0), error = L::set(orient_error), tiny = L::set(linear::kTiny);
  const M none = L::lt(L::set(1), zero), every = L::le(zero, L::set(1));
  M any_pos = none, any_neg = none, all_pos = every, all_neg = every;
  V num_lo = zero, num_hi = zero, den_lo = zero, den_hi = zero;
  unrolled<kN>([&](auto j) {
    constexpr auto rest = without(kP, j);
    V o, perm;
    orient<L, rest>(q, o, perm);
    const V e = L::add(L::mul(error, perm), tiny);
    const V minus_e = L::sub(zero, e);
    // c_j = -O_j for odd j in A and even j in B; o = -O_j where kNegated.
    constexpr bool flip = (((j % 2) != 0) != (j >= kA)) != kNegated<rest>;
    const M above = L::gt(o, e), below = L::lt(o, minus_e);
    const M pos = flip ? below : above, neg = flip ? above : below;
    any_pos = L::either(any_pos, pos), any_neg = L::either(any_neg, neg);
    all_pos = L::both(all_pos, pos), all_neg = L::both(all_neg, neg);
    if constexpr (j < kA) {
      const V a = L::abs(o);
      const V lo = L::sub(a, e), hi = L::add(a, e);
      den_lo = L::add(den_lo, lo), den_hi = L::add(den_hi, hi);
      if constexpr (kP[j].time == 1) num_lo = L::add(num_lo, lo), num_hi = L::add(num_hi, hi);
    }
  });
  hit = L::either(all_pos, all_neg);
  miss = L::both(any_pos, any_neg);
  // Only meaningful where `hit` (then every lo > 0).
  const V below_one = L::set(1 - kRatioMargin), above_one = L::set(1 + kRatioMargin);
  const V underflow = L::set(kRatioUnderflow);
  t_lo = L::max(zero, L::sub(L::mul(L::div(num_lo, den_hi), below_one), underflow));
  t_hi = L::min(L::set(1), L::add(L::mul(L::div(num_hi, den_lo), above_one), underflow));
}

/// Tracks the contact piece over the hit pieces, taken in increasing index
/// order: `best_hi` (the least t_hi so far, updated by the caller after this)
/// belongs to piece `best` with t_lo `best_lo`; `other_lo` is the least t_lo of
/// the other hit pieces. A piece replaces `best` only with a strictly smaller
/// t_hi, so `best` is the first piece reaching the least t_hi.
template <class L>
void track_best(typename L::M piece_hit, typename L::V piece_lo, typename L::V piece_hi, int k,
                typename L::V best_hi, typename L::V& best, typename L::V& best_lo,
                typename L::V& other_lo) {
  using M = typename L::M;
  const M better = L::both(piece_hit, L::lt(piece_hi, best_hi));
  const M worse = L::but_not(piece_hit, better);
  other_lo = L::select(better, L::min(other_lo, best_lo), other_lo);
  other_lo = L::select(worse, L::min(other_lo, piece_lo), other_lo);
  best_lo = L::select(better, piece_lo, best_lo);
  best = L::select(better, L::set(k), best);
}

/// Stores the contact piece of hit lanes: `best` when every other hit piece's
/// t_lo is above best's t_hi (then t* of every other piece > t* of best, so
/// best is the unique earliest piece, whatever the tie rule), else -1.
template <class L>
void store_piece(typename L::V best, typename L::V other_lo, typename L::V best_hi, double* out) {
  L::store(L::select(L::lt(best_hi, other_lo), best, L::set(-1)), out);
}

/// Decides queries [q.i, q.i + lanes) of tile `t` (Tile or PlanarTile) over
/// the P::kCount pieces P::kPoints (A: the first P::kA points of each), into
/// t.verdict, t.toi and t.piece.
template <class L, class P, class TileT, int kAxes>
void decide_pieces(TileT& t, const PointLanes<L, kAxes>& q, double orient_error, double tolerance) {
  using V = typename L::V;
  using M = typename L::M;
  const std::size_t i = q.i;
  const V zero = L::set(0), inf = L::set(std::numeric_limits<double>::infinity());
  const M none = L::lt(L::set(1), zero);
  const M valid = valid_input<L, 2 * (kAxes + 1) * kAxes>(q.coord, i);
  M uncertain = none, hit = none;
  V lo = inf, hi = inf;
  // The contact piece: `best`, the first hit piece with the least t_hi, and
  // `other_lo`, the least t_lo of the other hit pieces.
  V best = L::set(-1), best_lo = inf, other_lo = inf;
  unrolled<P::kCount>([&](auto k) {
    constexpr Points<kAxes + 3> piece = std::to_array(P::kPoints[k]);
    const M separated = boxes_separated<L, P::kA, piece>(q);
    if (L::all(separated)) return;
    M piece_hit, piece_miss;
    V piece_lo, piece_hi;
    decide_piece<L, P::kA, piece>(q, orient_error, piece_hit, piece_miss, piece_lo, piece_hi);
    piece_hit = L::but_not(piece_hit, separated);
    uncertain = L::either(uncertain, L::but_not(L::but_not(L::but_not(valid, separated), piece_hit), piece_miss));
    hit = L::either(hit, piece_hit);
    track_best<L>(piece_hit, piece_lo, piece_hi, k, hi, best, best_lo, other_lo);
    lo = L::select(piece_hit, L::min(lo, piece_lo), lo);
    hi = L::select(piece_hit, L::min(hi, piece_hi), hi);
  });
  store_piece<L>(best, other_lo, hi, t.piece + i);
  // Certified within the tolerance: hi - lo <= tolerance even after the
  // subtraction's rounding (relative 2^-53 < the 2^-50 taken off).
  const M tight = L::le(L::sub(hi, lo), L::set(tolerance * (1 - 0x1p-50)));
  const M certain_hit = L::but_not(L::both(hit, tight), uncertain);
  const M loose = L::either(uncertain, L::but_not(hit, tight));
  V verdict = L::select(certain_hit, verdict_value<L>(Verdict::hit), verdict_value<L>(Verdict::miss));
  verdict = L::select(loose, verdict_value<L>(Verdict::uncertain), verdict);
  V toi = L::select(L::either(certain_hit, loose), lo, inf);
  toi = L::select(uncertain, zero, toi);
  verdict = L::select(valid, verdict, verdict_value<L>(Verdict::invalid));
  toi = L::select(valid, toi, inf);
  L::store(verdict, t.verdict + i);
  L::store(toi, t.toi + i);
}

}  // namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE::detail

#endif  // SIMDCCD_SPACETIME_PIECE_KERNEL_INL_H_
