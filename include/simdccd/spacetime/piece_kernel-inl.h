// The method that the 3D space-time kernel (tile_kernel-inl.h, where it is
// described) and the planar one (planar_kernel-inl.h, one dimension down)
// share, written once over the lane type L (see simdccd/simd/lanes.hpp) and
// the number of spatial axes kAxes (3 or 2): the box screen, deciding one
// piece, the lower-dimensional fallback, choosing the contact piece and the
// verdict of a query over its pieces. The orientation predicate is in
// orientation-inl.h.
//
// A query has kAxes + 1 points per time; a piece pairs A (its first kA points)
// with B (the rest): kAxes + 3 space-time points.
//
// The lower-dimensional fallback (project_piece) is the paper's answer to a
// singular system, run on the lanes where a piece is uncertain. Drop one
// spatial axis, in each lane the one along which the piece's points spread
// least (the normal's dominant axis when they are coplanar in space): the
// projection keeps t, and the projected A and B must meet wherever A and B
// do, at the same t. In the projection (n = kAxes - 1 spatial
// axes and t) the kAxes + 3 points are one more than a Cramer system takes, and
// the reduction is exact: the projected intersection, if any, has a vertex
// (a basic solution of the linear program in the barycentric coordinates, with
// at most n + 3 = kAxes + 2 non-zero ones), so it meets a sub-pair that drops
// one point (VF: the segment against each face of the tetrahedron, and each
// endpoint against the tetrahedron; EE: an edge against a triangle), and the
// earliest projected contact is the earliest over those sub-pairs. Each
// sub-pair is a piece one dimension down, decided by decide_piece; one that
// meets cannot be certified a miss (that needs two exact cofactors of opposite
// signs, hence a unique solution, not a non-negative one). So:
// - every sub-pair a certified miss (or box-separated): the piece is a
//   certified miss;
// - else the piece's earliest contact is at least the least over its
//   sub-pairs not certified a miss of their decide_piece t_lo
//   (a bound from the cofactors, certified or not, wherever one is certified),
//   raised to the earliest time both sides' points allow (1 for an endpoint at
//   t = 1 or a face at t = 1). The piece stays uncertain with the greater of
//   this bound and its own t_lo, which is what makes coplanar sliding (flat
//   cloth, resting contact) a certified miss or a tight conservative toi
//   without the oracle.
// Certifying a hit needs exact coplanarity, which floating point cannot
// certify (but where the input makes a cofactor exactly zero:
// shared_hyperplane): those lanes stay uncertain (exact mode: the oracle).
//
// Defined in namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE::detail:
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

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>

#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile_common-inl.h"
#include "simdccd/spacetime/orientation-inl.h"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE::detail {

using simd::SIMDCCD_TARGET_NAMESPACE::for_each_vector;
using simd::SIMDCCD_TARGET_NAMESPACE::scale_up_tiny_lanes;
using simd::SIMDCCD_TARGET_NAMESPACE::valid_input;
using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;

inline constexpr double kRatioMargin = 0x1p-48;
inline constexpr double kRatioUnderflow = 0x1p-1000;

/// A and B (the first kA points of kP, then the rest) have disjoint spatial
/// boxes (over the Q::kAxes axes of q).
template <class L, int kA, auto kP, class Q>
typename L::M boxes_separated(const Q& q) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr int kN = Q::kAxes + 3;
  M separated = L::lt(L::set(1), L::set(0));
  unrolled<Q::kAxes>([&](auto axis) {
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

/// Where the points kR (a piece's points but one) lie in one hyperplane
/// x_a = c(t) of space-time for some spatial axis a: coordinate a equal
/// among kR's time-0 points and among its time-1 points, exactly. Then they
/// are Q::kAxes + 2 points in a Q::kAxes-dimensional affine subspace and
/// their orientation is exactly zero: meshes with exactly shared
/// coordinates (cloth rows in a plane) put a contact on an edge of the
/// other primitive there, a zero no error bound can certify.
template <class L, auto kR, class Q>
typename L::M shared_hyperplane(const Q& q) {
  using M = typename L::M;
  constexpr int kN = static_cast<int>(kR.size());
  // The first point of each time in kR (-1: none).
  constexpr auto first = [](int time) {
    for (int k = 0; k < kN; ++k) {
      if (kR[k].time == time) return k;
    }
    return -1;
  };
  constexpr int kFirst[2] = {first(0), first(1)};
  M any = L::lt(L::set(1), L::set(0));
  unrolled<Q::kAxes>([&](auto axis) {
    M same = L::le(L::set(0), L::set(1));
    unrolled<kN>([&](auto k) {
      constexpr int f = kFirst[kR[k].time];
      if constexpr (k != f) {
        const auto x = q.at(kR[k], axis), y = q.at(kR[f], axis);
        same = L::both(same, L::eq(x, y));
      }
    });
    any = L::either(any, same);
  });
  return any;
}

/// The cofactor signs of one piece (decide_piece), with kZeros also the
/// exact zeros of shared_hyperplane: such a c_j neither breaks a hit (the
/// unique solution c is still >= 0, some c_j certified) nor counts in t*'s
/// sums.
template <class L, int kA, auto kP, bool kZeros, class Q>
void cofactor_signs(const Q& q, typename L::M& hit, typename L::M& miss, typename L::V& t_lo, typename L::V& t_hi) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr int kN = Q::kAxes + 3;
  static_assert(static_cast<int>(kP.size()) == kN);
  const V zero = L::set(0), error = L::set(kOrientError[Q::kAxes]), tiny = L::set(simd::kTiny);
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
    V lo = L::sub(L::abs(o), e), hi = L::add(L::abs(o), e);
    if constexpr (kZeros) {
      const M exact_zero = shared_hyperplane<L, rest>(q);
      all_pos = L::both(all_pos, L::either(pos, exact_zero)), all_neg = L::both(all_neg, L::either(neg, exact_zero));
      lo = L::select(exact_zero, zero, lo), hi = L::select(exact_zero, zero, hi);
    } else {
      all_pos = L::both(all_pos, pos), all_neg = L::both(all_neg, neg);
    }
    if constexpr (j < kA) {
      den_lo = L::add(den_lo, lo), den_hi = L::add(den_hi, hi);
      if constexpr (kP[j].time == 1) num_lo = L::add(num_lo, L::max(lo, zero)), num_hi = L::add(num_hi, hi);
    }
  });
  hit = L::either(L::both(all_pos, any_pos), L::both(all_neg, any_neg));
  miss = L::both(any_pos, any_neg);
  const V below_one = L::set(1 - kRatioMargin), above_one = L::set(1 + kRatioMargin);
  const V underflow = L::set(kRatioUnderflow);
  t_lo = L::max(zero, L::sub(L::mul(L::div(num_lo, den_hi), below_one), underflow));
  t_lo = L::select(L::either(any_pos, any_neg), t_lo, zero);
  // Only meaningful where `hit` (then every lo > 0).
  t_hi = L::min(L::set(1), L::add(L::mul(L::div(num_hi, den_lo), above_one), underflow));
}

/// The lanes of `undecided` that exact zeros make hits, with their t*
/// bounds. Not inlined: it is cold (meshes with shared coordinates).
template <class L, int kA, auto kP, class Q>
__attribute__((noinline)) void exact_zero_hits(const Q& q, typename L::M undecided, typename L::M& hit,
                                               typename L::V& t_lo, typename L::V& t_hi) {
  typename L::M zero_hit, zero_miss;
  typename L::V zero_lo, zero_hi;
  cofactor_signs<L, kA, kP, true>(q, zero_hit, zero_miss, zero_lo, zero_hi);
  const typename L::M now_hit = L::both(undecided, zero_hit);
  hit = L::either(hit, now_hit);
  t_lo = L::select(now_hit, zero_lo, t_lo);
  t_hi = L::select(now_hit, zero_hi, t_hi);
}

/// Decides one piece: A = kP[0..kA), B = the rest, each orientation with the
/// error bound kOrientError * permanent + kTiny. `hit` and `miss` are
/// certified; where `hit`, t* of the piece is in [t_lo, t_hi]; elsewhere
/// every contact of the piece is at t >= t_lo. (Where some c_j is certified,
/// the rank is full and a contact is the one solution c, all c_j of that
/// sign or exactly zero: |c_j| in [max(a_j - e_j, 0), a_j + e_j] for each j,
/// certified or not. Where none is, t_lo = 0.)
template <class L, int kA, auto kP, class Q>
void decide_piece(const Q& q, typename L::M& hit, typename L::M& miss, typename L::V& t_lo, typename L::V& t_hi) {
  cofactor_signs<L, kA, kP, false>(q, hit, miss, t_lo, t_hi);
  // Exact zeros on the undecided lanes only: a certified c_j is never one.
  const typename L::M undecided = L::but_not(L::but_not(L::le(L::set(0), L::set(1)), hit), miss);
  if (L::any(undecided)) exact_zero_hits<L, kA, kP>(q, undecided, hit, t_lo, t_hi);
}

/// The earliest time at which points kP[0..kA) can meet the rest: the later of
/// the two sides' earliest times.
template <int kA, auto kP>
constexpr double earliest_meeting() {
  int a = 1, b = 1;
  for (int k = 0; k < static_cast<int>(kP.size()); ++k) {
    int& side = k < kA ? a : b;
    side = std::min(side, kP[k].time);
  }
  return std::max(a, b);
}

/// The lower-dimensional test of piece kP (described at the top of this
/// file): `miss` is certified; elsewhere the piece's earliest contact is >=
/// t_lo. Not inlined: it is cold, and flattening its determinants into every
/// kernel entry takes the dispatch file's compile time from half a minute to
/// over two.
template <class L, int kA, auto kP, int kAxes>
__attribute__((noinline)) void project_piece(const PointLanes<L, kAxes>& q, typename L::M& miss, typename L::V& t_lo) {
  using V = typename L::V;
  using M = typename L::M;
  // Each lane's axis of least spread (the first on a tie).
  V drop = L::set(0), least = L::set(std::numeric_limits<double>::infinity());
  unrolled<kAxes>([&](auto axis) {
    V lo = q.at(kP[0], axis), hi = lo;
    unrolled<kAxes + 2>([&](auto k) {
      const V x = q.at(kP[k + 1], axis);
      lo = L::min(lo, x), hi = L::max(hi, x);
    });
    const V spread = L::sub(hi, lo);
    drop = L::select(L::lt(spread, least), L::set(axis), drop);
    least = L::min(least, spread);
  });
  alignas(64) double drop_lanes[kTileSize];
  L::store(drop, drop_lanes);
  const ProjectedLanes<L, kAxes> r{q, drop_lanes};
  miss = L::le(L::set(0), L::set(1));
  t_lo = L::set(std::numeric_limits<double>::infinity());
  unrolled<kAxes + 3>([&](auto j) {
    constexpr auto sub = without(kP, j);
    constexpr int kSubA = j < kA ? kA - 1 : kA;
    M sub_hit, sub_miss;
    V sub_lo, sub_hi;
    decide_piece<L, kSubA, sub>(r, sub_hit, sub_miss, sub_lo, sub_hi);
    sub_miss = L::either(sub_miss, boxes_separated<L, kSubA, sub>(r));
    sub_lo = L::max(sub_lo, L::set(earliest_meeting<kSubA, sub>()));
    miss = L::both(miss, sub_miss);
    t_lo = L::select(sub_miss, t_lo, L::min(t_lo, sub_lo));
  });
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
/// t.verdict, t.toi, t.piece and t.screened.
template <class L, class P, class TileT, int kAxes>
void decide_pieces(TileT& t, const PointLanes<L, kAxes>& q, double tolerance) {
  using V = typename L::V;
  using M = typename L::M;
  const std::size_t i = q.i;
  const V zero = L::set(0), inf = L::set(std::numeric_limits<double>::infinity());
  const M none = L::lt(L::set(1), zero);
  V largest;
  const M valid = valid_input<L, 2 * (kAxes + 1) * kAxes>(q.coord, i, largest);
  scale_up_tiny_lanes<L>(t.coord, t.count, t.scale, i, largest);  // before any other load
  M uncertain = none, hit = none, screened = L::le(zero, L::set(1));
  V lo = inf, hi = inf;
  // The least lower bound of the uncertain pieces' earliest contact.
  V uncertain_lo = inf;
  // The contact piece: `best`, the first hit piece with the least t_hi, and
  // `other_lo`, the least t_lo of the other hit pieces.
  V best = L::set(-1), best_lo = inf, other_lo = inf;
  unrolled<P::kCount>([&](auto k) {
    constexpr Points<kAxes + 3> piece = std::to_array(P::kPoints[k]);
    const M separated = boxes_separated<L, P::kA, piece>(q);
    screened = L::both(screened, separated);
    if (L::all(separated)) return;
    M piece_hit, piece_miss;
    V piece_lo, piece_hi;
    decide_piece<L, P::kA, piece>(q, piece_hit, piece_miss, piece_lo, piece_hi);
    piece_hit = L::but_not(piece_hit, separated);
    M piece_uncertain = L::but_not(L::but_not(L::but_not(valid, separated), piece_hit), piece_miss);
    if (L::any(piece_uncertain)) {
      M lower_miss;
      V lower_lo;
      project_piece<L, P::kA, piece>(q, lower_miss, lower_lo);
      piece_uncertain = L::but_not(piece_uncertain, lower_miss);
      uncertain_lo = L::select(piece_uncertain, L::min(uncertain_lo, L::max(piece_lo, lower_lo)), uncertain_lo);
    }
    uncertain = L::either(uncertain, piece_uncertain);
    hit = L::either(hit, piece_hit);
    track_best<L>(piece_hit, piece_lo, piece_hi, k, hi, best, best_lo, other_lo);
    lo = L::select(piece_hit, L::min(lo, piece_lo), lo);
    hi = L::select(piece_hit, L::min(hi, piece_hi), hi);
  });
  store_piece<L>(best, other_lo, hi, t.piece + i);
  L::store(L::select(screened, L::set(1), zero), t.screened + i);
  // Certified within the tolerance: hi - lo <= tolerance even after the
  // subtraction's rounding (relative 2^-53 < the 2^-50 taken off).
  const M tight = L::le(L::sub(hi, lo), L::set(tolerance * (1 - 0x1p-50)));
  const M certain_hit = L::but_not(L::both(hit, tight), uncertain);
  const M loose = L::either(uncertain, L::but_not(hit, tight));
  V verdict = L::select(certain_hit, verdict_value<L>(Verdict::hit), verdict_value<L>(Verdict::miss));
  verdict = L::select(loose, verdict_value<L>(Verdict::uncertain), verdict);
  V toi = L::select(L::either(certain_hit, loose), lo, inf);
  toi = L::select(uncertain, L::min(lo, uncertain_lo), toi);
  verdict = L::select(valid, verdict, verdict_value<L>(Verdict::invalid));
  toi = L::select(valid, toi, inf);
  L::store(verdict, t.verdict + i);
  L::store(toi, t.toi + i);
}

}  // namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE::detail

#endif  // SIMDCCD_SPACETIME_PIECE_KERNEL_INL_H_
