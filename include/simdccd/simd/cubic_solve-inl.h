// Stage 2 of the kernels that reduce a query to a cubic in time (the linear
// model's coplanarity cubic; the rigid models' contact polynomials, elevated
// to cubics): certified root isolation piece by piece in time order, each
// root refined to a bracket and judged by the family's inclusion test.
//
// The cubic's pieces come from simd/cubic_roots-inl.h (cut at the
// approximate critical points, with a small gap piece around each). For every
// open lane at once, a pass settles the lane's next piece that may hold a
// root: a certified simple root is refined to a bracket of width `tolerance`
// and the inclusion test runs on the bracket; a piece that cannot be
// classified is first probed near its certified end, then cut in parts, each
// classified again. The first certified inclusion is a hit with toi =
// bracket low end (earlier pieces were certified root-free or outside).
// Anything not certified is uncertain, with toi = the low end of the piece or
// bracket where certainty ended. The candidates run in two rounds of full
// vectors: one pass each, then those with a piece left, compacted, to the
// end (the passes after the first would otherwise run for a lane or two a
// vector).
//
// The inclusion test is a callable `inclusion(lo, hi, enough, inside,
// outside)` (lanes: V lo, V hi, M enough, M& inside, M& outside): `inside`
// where the features certainly meet at every root in [lo, hi], `outside`
// where they certainly do not (or are apart all along [lo, hi]); neither:
// uncertain. On the lanes of `enough` that are inside, `outside` is not
// needed (it may be left uncertified, to skip costlier checks).
//
// Defined in namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target like the kernels that use it.
#if defined(SIMDCCD_SIMD_CUBIC_SOLVE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SIMD_CUBIC_SOLVE_INL_H_
#undef SIMDCCD_SIMD_CUBIC_SOLVE_INL_H_
#else
#define SIMDCCD_SIMD_CUBIC_SOLVE_INL_H_
#endif

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "simdccd/simd/cubic_roots-inl.h"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile.hpp"
#include "simdccd/simd/tile_common-inl.h"

namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE {

/// Decides the lanes of `mask` on the piece [lo, hi], classified already:
/// refines a single root, tests inclusion; updates the verdict of the lanes
/// it settles and removes them from `open`.
template <class L, class Inclusion>
void settle_piece(const Inclusion& inclusion, typename L::V b0, typename L::V b1, typename L::V b2,
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
  inclusion(lo, hi, closed, inside, outside);
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
template <class L, class Inclusion>
typename L::M settle_near_end(const Inclusion& inclusion, typename L::V b0, typename L::V b1,
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
  inclusion(a, b, L::lt(L::set(1), zero), inside, outside);
  const M uncertain = L::but_not(probed, outside);
  verdict = L::select(uncertain, verdict_value<L>(Verdict::uncertain), verdict);
  toi = L::select(uncertain, a, toi);
  open = L::but_not(open, uncertain);
  return probed;
}

/// Half-width of the gap pieces around the approximate critical points.
inline constexpr double kCriticalGap = 0x1p-26;
/// Pieces of a cubic on [0,1] (solve_cubic's cuts 0, c1, ..., c4, 1): a lane
/// whose cursor reaches kPieces has none left.
inline constexpr int kPieces = 5;
/// An uncertain piece is cut into this many equal parts before giving up.
inline constexpr int kSubpieces = 4;

/// Stage 2 on the candidates among queries [i, i + lanes): their cubics in
/// `cubic` (kCubicRows rows: b0..b3, e0..e3, the window w0, w1), their
/// verdicts (candidate or not), tois and the first piece each has not
/// settled (`cursor_row`). Runs at most `passes`
/// passes: a lane with a piece that may hold a root left after them stays a
/// candidate, its cursor stored at that piece, to be resumed by another call.
template <class L, class Inclusion>
void solve_cubic(const double* const* cubic, double* verdict_row, double* toi_row, double* cursor_row,
                 std::size_t i, int passes, double tolerance, const Inclusion& inclusion) {
  using V = typename L::V;
  using M = typename L::M;
  const V b0 = L::load(cubic[0] + i), b1 = L::load(cubic[1] + i);
  const V b2 = L::load(cubic[2] + i), b3 = L::load(cubic[3] + i);
  const V e0 = L::load(cubic[4] + i), e1 = L::load(cubic[5] + i);
  const V e2 = L::load(cubic[6] + i), e3 = L::load(cubic[7] + i);
  const V w0 = L::load(cubic[8] + i), w1 = L::load(cubic[9] + i);
  const V before = L::load(verdict_row + i);
  const M candidate = has_verdict<L>(before, Verdict::candidate);
  const V error = blossom_error<L>(b0, b1, b2, b3, e0, e1, e2, e3);
  const V d0 = L::sub(b1, b0), d1 = L::sub(b2, b1), d2 = L::sub(b3, b2);
  const V derror = derivative_error<L>(d0, d1, d2, e0, e1, e2, e3);
  const M monotone_everywhere = derivative_never_zero<L>(d0, d1, d2, e0, e1, e2, e3);
  V r1, r2;
  critical_points<L>(b0, b1, b2, b3, r1, r2);
  r1 = L::select(monotone_everywhere, L::set(1), r1);
  r2 = L::select(monotone_everywhere, L::set(1), r2);
  // Cuts 0 <= c1 <= ... <= c4 <= 1: pieces, with gaps [r - gap, r + gap],
  // clipped to the window (the roots outside it are no contacts).
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
  V cursor = L::load(cursor_row + i);  // the first piece a lane has not settled yet
  for (int pass = 0; L::any(open); ++pass) {
    M found = none, one_root = none, rising = none, monotone = none;
    V lo = zero, hi = zero, end_sign = zero, index = zero;
    for (int k = 0; k < kPieces; ++k) {
      const V a = L::max(cut(k), w0), b = L::min(cut(k + 1), w1);
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
    if (pass == passes) {  // left for another call, from the piece found
      cursor = L::select(open, index, cursor);
      break;
    }
    cursor = L::add(index, one);
    settle_piece<L>(inclusion, b0, b1, b2, b3, error, L::both(open, one_root), none, one_root,
                           rising, lo, hi, tolerance, verdict, toi, open);
    // Pieces that could not be classified: a possible root near one end, or
    // cut in parts.
    M split = L::but_not(open, one_root);
    const M near_end = L::both(split, monotone);
    if (L::any(near_end)) {
      split = L::but_not(split, settle_near_end<L>(inclusion, b0, b1, b2, b3, error, near_end, end_sign,
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
      settle_piece<L>(inclusion, b0, b1, b2, b3, error, L::both(open, split), part_no_root,
                             part_one_root, part_rising, a, b, tolerance, verdict, toi, open);
    }
  }
  verdict = L::select(open, verdict_value<L>(Verdict::candidate), verdict);
  L::store(L::select(candidate, verdict, before), verdict_row + i);
  L::store(toi, toi_row + i);  // +inf where not a candidate or still open
  L::store(cursor, cursor_row + i);
}

/// The lanes of `rows` (a whole number of vectors) whose verdict is
/// `candidate`, moved to the front in order by `move(i, keep, n)` (the
/// vector at row i, its lanes to keep, the rows kept before it; returns how
/// many it kept). In place is safe: n <= i, so a vector is loaded before any
/// store reaches it, and a store of lanes() values from n stays below i + lanes().
template <class L, class Move>
std::size_t compact_candidates(const double* verdict, std::size_t rows, const Move& move) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < rows; i += L::lanes()) {
    // A vector without one is skipped: most vectors of a simulation step
    // (rod-twist: 98% of its candidates screened), whose compressed stores
    // (33 rows in the linear kernel) were a tenth of its edge kernel's time.
    const typename L::M keep = has_verdict<L>(L::load(verdict + i), Verdict::candidate);
    if (L::any(keep)) n += move(i, keep, n);
  }
  return n;
}

/// Compacts the candidates of a screened tile (verdict `candidate`; members
/// count, coord, cubic, verdict, toi and their candidate_ copies, index,
/// candidates, as linear::Tile and rigid::Tile have), so that vectors of stage
/// 2 are full, solves them with solve_cubic, the inclusion test of each vector
/// made by `make_inclusion(coord, i)` (coord: the compacted rows), and writes
/// the answers back. `dismiss(coord, i)`, the lanes of a compacted vector
/// certainly without contact, runs first: a screen of stage 1 that decides
/// few queries costs there a vector for nearly every query, here one for the
/// few candidates (its misses leave before root isolation, as if screened,
/// and `candidates` counts only the others). A first round runs one pass,
/// which settles most candidates; those with pieces left are compacted again
/// for a second round, which finishes them, so that both rounds run on full
/// vectors. Only the candidates' query numbers are compacted; each round then
/// copies their rows one double at a time, all before the first vector is
/// solved, so that no vector load waits on those stores (a gather a row for
/// each vector of candidates was slower on AMD Zen 5, and a compress and a
/// store a row for nearly every vector of the tile slower still).
template <class L, class TileT, class MakeInclusion, class Dismiss>
void solve_candidates(TileT& t, double tolerance, const MakeInclusion& make_inclusion, const Dismiss& dismiss) {
  using M = typename L::M;
  constexpr std::size_t kRows = std::extent_v<decltype(t.coord)>;
  const std::size_t lanes = L::lanes();
  const double candidate = static_cast<double>(static_cast<int>(Verdict::candidate));
  const double settled = static_cast<double>(static_cast<int>(Verdict::miss));
  alignas(64) double origin[kTileSize];  // the tile's query in each compacted row
  alignas(64) double cursor[kTileSize];
  // Each query's index in the tile.
  alignas(64) static constexpr auto kQuery = [] {
    std::array<double, kTileSize> query{};
    for (std::size_t i = 0; i < kTileSize; ++i) query[i] = static_cast<double>(i);
    return query;
  }();
  const auto compact_origin = [&](std::size_t i, M keep, std::size_t n) {
    return L::compress_store(L::load(origin + i), keep, origin + n);
  };
  // The rows of the candidates in `origin`, padding repeating the last one;
  // returns the padded count.
  const auto copy_rows = [&](std::size_t rows) {
    const std::size_t padded = padded_count(rows, lanes);
    std::fill(origin + rows, origin + padded, origin[rows - 1]);
    for (std::size_t c = 0; c < padded; ++c) {
      const auto o = static_cast<std::size_t>(origin[c]);
      for (std::size_t k = 0; k < kRows; ++k) t.candidate_coord[k][c] = t.coord[k][o];
      for (std::size_t k = 0; k < kCubicRows; ++k) t.candidate_cubic[k][c] = t.cubic[k][o];
    }
    std::fill(t.candidate_verdict, t.candidate_verdict + padded, candidate);
    return padded;
  };
  const double* coord[kRows];
  for (std::size_t k = 0; k < kRows; ++k) coord[k] = t.candidate_coord[k];
  const double* cubic[kCubicRows];
  for (std::size_t k = 0; k < kCubicRows; ++k) cubic[k] = t.candidate_cubic[k];
  // Stage 1's padding repeats the last query: its copies are no candidates.
  const std::size_t screened = padded_count(t.count, lanes);
  std::fill(t.verdict + t.count, t.verdict + screened, settled);
  std::size_t rows = compact_candidates<L>(t.verdict, screened, [&](std::size_t i, M keep, std::size_t n) {
    return L::compress_store(L::load(kQuery.data() + i), keep, origin + n);
  });
  std::size_t padded = rows > 0 ? copy_rows(rows) : 0;
  bool dismissed = false;
  for (std::size_t i = 0; i < padded; i += lanes) {
    const M gone = dismiss(static_cast<const double* const*>(coord), i);
    if (!L::any(gone)) continue;
    L::store(L::select(gone, verdict_value<L>(Verdict::miss), L::set(candidate)), t.candidate_verdict + i);
    dismissed = true;
  }
  if (dismissed) {
    for (std::size_t c = 0; c < rows; ++c) {
      if (t.candidate_verdict[c] != candidate) t.verdict[static_cast<std::size_t>(origin[c])] = settled;
    }
    std::fill(t.candidate_verdict + rows, t.candidate_verdict + padded, settled);
    rows = compact_candidates<L>(t.candidate_verdict, padded, compact_origin);
    padded = rows > 0 ? copy_rows(rows) : 0;
  }
  t.candidates = rows;
  for (std::size_t c = 0; c < rows; ++c) t.index[c] = static_cast<std::uint16_t>(origin[c]);
  std::fill(cursor, cursor + rows, 0.0);
  for (int round = 0; rows > 0; ++round) {
    if (round > 0) padded = copy_rows(rows);
    std::fill(cursor + rows, cursor + padded, cursor[rows - 1]);
    const int passes = round == 0 ? 1 : kPieces;
    for (std::size_t i = 0; i < padded; i += lanes) {
      solve_cubic<L>(cubic, t.candidate_verdict, t.candidate_toi, cursor, i, passes, tolerance,
                     make_inclusion(static_cast<const double* const*>(coord), i));
    }
    // Answers out; the rows still open move forward, in order.
    for (std::size_t c = 0; c < rows; ++c) {
      if (t.candidate_verdict[c] == candidate) continue;
      const auto o = static_cast<std::size_t>(origin[c]);
      t.verdict[o] = t.candidate_verdict[c];
      t.toi[o] = t.candidate_toi[c];
    }
    std::fill(t.candidate_verdict + rows, t.candidate_verdict + padded, settled);
    rows = compact_candidates<L>(t.candidate_verdict, padded, [&](std::size_t i, M keep, std::size_t n) {
      L::compress_store(L::load(cursor + i), keep, cursor + n);
      return compact_origin(i, keep, n);
    });
  }
}

/// solve_candidates with nothing dismissed before root isolation.
template <class L, class TileT, class MakeInclusion>
void solve_candidates(TileT& t, double tolerance, const MakeInclusion& make_inclusion) {
  solve_candidates<L>(t, tolerance, make_inclusion,
                      [](const double* const*, std::size_t) { return L::lt(L::set(1), L::set(0)); });
}

}  // namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_SIMD_CUBIC_SOLVE_INL_H_
