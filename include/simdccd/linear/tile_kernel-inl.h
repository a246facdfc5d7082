// The linear-model CCD kernel on a tile of queries, written once over the lane
// type L (see simdccd/simd/lanes.hpp) and run in two stages:
//  1. screen every query: input validity, swept-box separation (exact float
//     comparisons), the coplanarity cubic's Bernstein signs (no root on [0,1]),
//     certified separation along the direction between the primitives;
//  2. compact the remaining candidates and, piece by piece between the
//     critical points of the cubic in time order, certify each root, refine it
//     to a bracket of width `tolerance` and run the area-inclusion test on the
//     bracket. A piece that cannot be classified (a nearly double root, or a
//     cubic that may vanish identically: the degenerate case of section 4.2 of
//     Huh et al.) is cut in parts, and a part is dismissed only when the
//     projected primitives are certified apart during all of it (a contact in
//     3D would be one in the projection too, coplanar or not).
// The first certified inclusion is a hit with toi = bracket low end, a lower
// bound of the earliest contact time (earlier pieces were certified root-free
// or outside). Anything not certified is uncertain, with toi = the low end of
// the piece or bracket where certainty ended.
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE: `portable`
// by default, and once per Highway target in dispatch/linear_ccd.cc, which
// re-includes this header (toggled by HWY_TARGET_TOGGLE) inside each target's
// region, so that SVE vectors pass only through functions compiled for SVE.
#if defined(SIMDCCD_LINEAR_TILE_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
#undef SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
#else
#define SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "simdccd/linear/area_inclusion-inl.h"
#include "simdccd/linear/coplanarity_cubic-inl.h"
#include "simdccd/linear/tile.hpp"
#include "simdccd/query.hpp"
#include "simdccd/simd/cubic_roots-inl.h"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile_common-inl.h"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

namespace detail {

using simd::SIMDCCD_TARGET_NAMESPACE::blossom;
using simd::SIMDCCD_TARGET_NAMESPACE::blossom_error;
using simd::SIMDCCD_TARGET_NAMESPACE::classify_piece;
using simd::SIMDCCD_TARGET_NAMESPACE::critical_points;
using simd::SIMDCCD_TARGET_NAMESPACE::derivative_error;
using simd::SIMDCCD_TARGET_NAMESPACE::derivative_never_zero;
using simd::SIMDCCD_TARGET_NAMESPACE::for_each_vector;
using simd::SIMDCCD_TARGET_NAMESPACE::pad_to_vectors;
using simd::SIMDCCD_TARGET_NAMESPACE::refine_root;
using simd::SIMDCCD_TARGET_NAMESPACE::valid_input;
using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;

template <class L, QueryType kType>
typename L::M boxes_separated(const QueryLanes<L>& q) {
  using V = typename L::V;
  using M = typename L::M;
  // The swept boxes of the two primitives: VF {v} vs {f0, f1, f2}; EE {a0, a1} vs {b0, b1}.
  const bool vf = kType == QueryType::vertex_face;
  M separated = L::lt(L::set(1), L::set(0));
  for (int axis = 0; axis < 3; ++axis) {
    const auto x = [&](int time, int point) { return q.at(time, point, axis); };
    const V a0 = L::min(x(0, 0), x(1, 0)), a1 = L::max(x(0, 0), x(1, 0));
    const V amin = vf ? a0 : L::min(a0, L::min(x(0, 1), x(1, 1)));
    const V amax = vf ? a1 : L::max(a1, L::max(x(0, 1), x(1, 1)));
    V bmin = L::min(L::min(x(0, 2), x(1, 2)), L::min(x(0, 3), x(1, 3)));
    V bmax = L::max(L::max(x(0, 2), x(1, 2)), L::max(x(0, 3), x(1, 3)));
    if (vf) {
      bmin = L::min(bmin, L::min(x(0, 1), x(1, 1)));
      bmax = L::max(bmax, L::max(x(0, 1), x(1, 1)));
    }
    separated = L::either(separated, L::either(L::lt(amax, bmin), L::lt(bmax, amin)));
  }
  return separated;
}

/// Stage 1 on queries [i, i + lanes).
template <class L, QueryType kType>
void screen(Tile& t, const double* const* coord, std::size_t i) {
  using V = typename L::V;
  using M = typename L::M;
  const QueryLanes<L> q{coord, i};
  V b0, b1, b2, b3, e0, e1, e2, e3;
  coplanarity_cubic<L>(q, b0, b1, b2, b3, e0, e1, e2, e3);
  const V zero = L::set(0);
  const auto positive = [&](V b, V e) { return L::gt(b, e); };
  const auto negative = [&](V b, V e) { return L::lt(b, L::sub(zero, e)); };
  const M no_root = L::either(
      L::both(L::both(positive(b0, e0), positive(b1, e1)), L::both(positive(b2, e2), positive(b3, e3))),
      L::both(L::both(negative(b0, e0), negative(b1, e1)), L::both(negative(b2, e2), negative(b3, e3))));
  const M valid = valid_input<L, 24>(q.coord, q.i);
  // Separation over the whole step decides the bodies that move side by side
  // (rigidly or nearly), whose cubic is too small to certify.
  const M miss = L::either(L::either(boxes_separated<L, kType>(q), no_root),
                           separated_over_interval<L, kType, false>(q, L::set(0), L::set(1)));
  V verdict = L::select(miss, verdict_value<L>(Verdict::miss), verdict_value<L>(Verdict::candidate));
  L::store(L::select(valid, verdict, verdict_value<L>(Verdict::invalid)), t.verdict + i);
  L::store(b0, t.cubic[0] + i), L::store(b1, t.cubic[1] + i);
  L::store(b2, t.cubic[2] + i), L::store(b3, t.cubic[3] + i);
  L::store(e0, t.cubic[4] + i), L::store(e1, t.cubic[5] + i);
  L::store(e2, t.cubic[6] + i), L::store(e3, t.cubic[7] + i);
}

/// Decides the lanes of `mask` on the piece [lo, hi], classified already:
/// refines a single root, tests inclusion; updates the verdict of the lanes
/// it settles and removes them from `open`.
template <class L, QueryType kType>
void settle_piece(const QueryLanes<L>& q, typename L::V b0, typename L::V b1, typename L::V b2,
                  typename L::V b3, typename L::V error, typename L::M mask, typename L::M no_root,
                  typename L::M one_root, typename L::M rising, typename L::V lo, typename L::V hi,
                  double tolerance, typename L::V& verdict, typename L::V& toi, typename L::M& open) {
  using M = typename L::M;
  const M refine = L::both(mask, one_root);
  M closed = L::lt(L::set(1), L::set(0));
  if (L::any(refine)) closed = refine_root<L>(b0, b1, b2, b3, error, refine, rising, tolerance, lo, hi);
  const M test = L::but_not(mask, no_root);
  if (!L::any(test)) return;
  M inside, outside;
  area_inclusion<L, kType>(q, lo, hi, inside, outside);
  const M hit = L::both(L::both(test, closed), inside);
  const M uncertain = L::but_not(L::but_not(test, outside), hit);
  verdict = L::select(hit, verdict_value<L>(Verdict::hit), verdict);
  verdict = L::select(uncertain, verdict_value<L>(Verdict::uncertain), verdict);
  toi = L::select(L::either(hit, uncertain), lo, toi);
  open = L::but_not(open, L::either(hit, uncertain));
}

/// Settles the lanes of `mask`, uncertain pieces [lo, hi] on which c is
/// monotone and certified at one end only: their one possible root lies
/// where |c| is within its error bound near the other end. When c is
/// certified at that end's neighbour x (at distance `tolerance`), the root can
/// only be in [lo, x] (or [x, hi]), which the inclusion test then judges.
/// Returns the lanes it settled or dismissed.
template <class L, QueryType kType>
typename L::M settle_near_end(const QueryLanes<L>& q, typename L::V b0, typename L::V b1,
                              typename L::V b2, typename L::V b3, typename L::V error,
                              typename L::M mask, typename L::V end_sign, typename L::V lo,
                              typename L::V hi, double tolerance, typename L::V& verdict,
                              typename L::V& toi, typename L::M& open) {
  using V = typename L::V;
  using M = typename L::M;
  const V zero = L::set(0), tol = L::set(tolerance);
  // Which end is certified: the sign at hi (probe near lo) or at lo only.
  const V at_hi = blossom<L>(b0, b1, b2, b3, hi, hi, hi);
  const M hi_known = L::either(L::gt(at_hi, error), L::lt(at_hi, L::sub(zero, error)));
  const V x = L::select(hi_known, L::min(hi, L::add(lo, tol)), L::max(lo, L::sub(hi, tol)));
  const V f = L::mul(blossom<L>(b0, b1, b2, b3, x, x, x), end_sign);
  const M probed = L::both(L::both(mask, L::gt(L::abs(end_sign), zero)), L::gt(f, error));
  if (!L::any(probed)) return probed;
  const V a = L::select(hi_known, lo, x), b = L::select(hi_known, x, hi);
  M inside, outside;
  area_inclusion<L, kType>(q, a, b, inside, outside);
  const M uncertain = L::but_not(probed, outside);
  verdict = L::select(uncertain, verdict_value<L>(Verdict::uncertain), verdict);
  toi = L::select(uncertain, a, toi);
  open = L::but_not(open, uncertain);
  return probed;
}

/// Half-width of the gap pieces around the approximate critical points.
inline constexpr double kCriticalGap = 0x1p-26;
/// An uncertain piece is cut into this many equal parts before giving up.
inline constexpr int kSubpieces = 4;

/// Where stage 2 reads queries and their cubics and writes verdicts.
struct SolveView {
  const double* coord[24];
  const double* cubic[8];
  double* verdict;
  double* toi;
};

/// Stage 2 on the candidates among queries [i, i + lanes) of the view.
template <class L, QueryType kType>
void solve(const SolveView& view, std::size_t i, double tolerance) {
  using V = typename L::V;
  using M = typename L::M;
  const QueryLanes<L> q{view.coord, i};
  const V b0 = L::load(view.cubic[0] + i), b1 = L::load(view.cubic[1] + i);
  const V b2 = L::load(view.cubic[2] + i), b3 = L::load(view.cubic[3] + i);
  const V e0 = L::load(view.cubic[4] + i), e1 = L::load(view.cubic[5] + i);
  const V e2 = L::load(view.cubic[6] + i), e3 = L::load(view.cubic[7] + i);
  const V before = L::load(view.verdict + i);
  const M candidate = L::both(L::le(before, verdict_value<L>(Verdict::candidate)),
                              L::ge(before, verdict_value<L>(Verdict::candidate)));
  const V error = blossom_error<L>(b0, b1, b2, b3, e0, e1, e2, e3);
  const V d0 = L::sub(b1, b0), d1 = L::sub(b2, b1), d2 = L::sub(b3, b2);
  const V derror = derivative_error<L>(d0, d1, d2, e0, e1, e2, e3);
  const M monotone_everywhere = derivative_never_zero<L>(d0, d1, d2, e0, e1, e2, e3);
  V r1, r2;
  critical_points<L>(b0, b1, b2, b3, r1, r2);
  r1 = L::select(monotone_everywhere, L::set(1), r1);
  r2 = L::select(monotone_everywhere, L::set(1), r2);
  // Cuts 0 <= c1 <= ... <= c4 <= 1: pieces, with gaps [r - gap, r + gap].
  const V zero = L::set(0), one = L::set(1);
  const V gap = L::select(monotone_everywhere, zero, L::set(kCriticalGap));
  const V c1 = L::max(zero, L::sub(r1, gap)), c2 = L::min(one, L::add(r1, gap));
  const V c3 = L::max(c2, L::sub(r2, gap)), c4 = L::max(c3, L::min(one, L::add(r2, gap)));
  const auto cut = [&](int k) {
    return k == 0 ? zero : k == 1 ? c1 : k == 2 ? c2 : k == 3 ? c3 : k == 4 ? c4 : one;
  };
  V verdict = verdict_value<L>(Verdict::miss);
  V toi = L::set(std::numeric_limits<double>::infinity());
  M open = candidate;
  const M none = L::lt(one, zero);
  // Each pass settles, for every open lane at once, its next piece that may
  // hold a root (most lanes need one pass), so the costly refinement and
  // inclusion run once per pass rather than once per piece.
  V cursor = zero;  // the first piece a lane has not settled yet
  for (int pass = 0; pass < 5 && L::any(open); ++pass) {
    M found = none, one_root = none, rising = none, monotone = none;
    V lo = zero, hi = zero, end_sign = zero, index = zero;
    for (int k = 0; k < 5; ++k) {
      const V a = cut(k), b = cut(k + 1);
      // An empty piece holds nothing its closed neighbours do not.
      const M want = L::both(L::but_not(open, found), L::both(L::le(cursor, L::set(k)), L::lt(a, b)));
      if (!L::any(want)) continue;
      M piece_no_root, piece_one_root, piece_rising, piece_monotone;
      V piece_end_sign;
      classify_piece<L>(b0, b1, b2, b3, error, d0, d1, d2, derror, monotone_everywhere, a, b,
                        piece_no_root, piece_one_root, piece_rising, piece_monotone, piece_end_sign);
      const M take = L::but_not(want, piece_no_root);
      const auto merge = [&](M into, M from) { return L::either(L::but_not(into, take), L::both(take, from)); };
      one_root = merge(one_root, piece_one_root);
      rising = merge(rising, piece_rising);
      monotone = merge(monotone, piece_monotone);
      lo = L::select(take, a, lo), hi = L::select(take, b, hi);
      end_sign = L::select(take, piece_end_sign, end_sign);
      index = L::select(take, L::set(k), index);
      found = L::either(found, take);
    }
    open = L::both(open, found);  // the others have no root left: misses
    if (!L::any(open)) break;
    cursor = L::add(index, one);
    settle_piece<L, kType>(q, b0, b1, b2, b3, error, L::both(open, one_root), none, one_root,
                           rising, lo, hi, tolerance, verdict, toi, open);
    // Pieces that could not be classified: a possible root near one end, or
    // cut in parts.
    M split = L::but_not(open, one_root);
    const M near_end = L::both(split, monotone);
    if (L::any(near_end)) {
      split = L::but_not(split, settle_near_end<L, kType>(q, b0, b1, b2, b3, error, near_end, end_sign,
                                                          lo, hi, tolerance, verdict, toi, open));
    }
    const V step = L::div(L::sub(hi, lo), L::set(kSubpieces));
    for (int part = 0; part < kSubpieces && L::any(L::both(open, split)); ++part) {
      const V a = L::add(lo, L::mul(L::set(part), step));
      const V b = part + 1 == kSubpieces ? hi : L::add(lo, L::mul(L::set(part + 1), step));
      M part_no_root, part_one_root, part_rising, part_monotone;
      V part_end_sign;
      classify_piece<L>(b0, b1, b2, b3, error, d0, d1, d2, derror, monotone_everywhere, a, b,
                        part_no_root, part_one_root, part_rising, part_monotone, part_end_sign);
      settle_piece<L, kType>(q, b0, b1, b2, b3, error, L::both(open, split), part_no_root,
                             part_one_root, part_rising, a, b, tolerance, verdict, toi, open);
    }
  }
  L::store(L::select(candidate, verdict, before), view.verdict + i);
  L::store(toi, view.toi + i);  // +inf where not a candidate
}

}  // namespace detail

/// Decides the `t.count` queries of the tile (coord filled; 1 <= count <=
/// kTileSize) into `t.verdict` and `t.toi`.
template <class L, QueryType kType>
void decide_tile(Tile& t, double tolerance) {
  const std::size_t lanes = L::lanes();
  detail::for_each_vector<L>(t.coord, t.count,
                             [&](const double* const* coord, std::size_t i) { detail::screen<L, kType>(t, coord, i); });

  const double candidate = static_cast<double>(static_cast<int>(Verdict::candidate));
  t.candidates = 0;
  for (std::size_t i = 0; i < t.count; ++i) {
    if (t.verdict[i] == candidate) t.index[t.candidates++] = static_cast<std::uint16_t>(i);
  }
  if (t.candidates == 0) return;
  // Compacted, so that vectors of stage 2 are full.
  for (std::size_t c = 0; c < t.candidates; ++c) {
    for (int k = 0; k < 24; ++k) t.candidate_coord[k][c] = t.coord[k][t.index[c]];
    for (int k = 0; k < 8; ++k) t.candidate_cubic[k][c] = t.cubic[k][t.index[c]];
    t.candidate_verdict[c] = candidate;
  }
  detail::pad_to_vectors(t.candidate_cubic, t.candidates, lanes);
  const std::size_t candidates_padded = detail::pad_to_vectors(t.candidate_coord, t.candidates, lanes);
  std::fill(t.candidate_verdict + t.candidates, t.candidate_verdict + candidates_padded, candidate);
  detail::SolveView view;
  for (int k = 0; k < 24; ++k) view.coord[k] = t.candidate_coord[k];
  for (int k = 0; k < 8; ++k) view.cubic[k] = t.candidate_cubic[k];
  view.verdict = t.candidate_verdict, view.toi = t.candidate_toi;
  for (std::size_t i = 0; i < candidates_padded; i += lanes) detail::solve<L, kType>(view, i, tolerance);
  for (std::size_t c = 0; c < t.candidates; ++c) {
    t.verdict[t.index[c]] = t.candidate_verdict[c];
    t.toi[t.index[c]] = t.candidate_toi[c];
  }
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_TILE_KERNEL_INL_H_
