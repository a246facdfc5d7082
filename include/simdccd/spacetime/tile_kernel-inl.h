// The space-time CCD kernel (the Brochu-Bridson model of spacetime_oracle.hpp)
// on a tile of queries, written once over the lane type L (see
// simdccd/linear/lanes.hpp).
//
// Each piece pairs a k-simplex A and an m-simplex B of space-time R^4 with
// k + m = 4 (VF: the vertex's segment and a tetrahedron of the face's prism;
// EE: a triangle of each edge's quad): 6 points. Lifting every point x to
// (x, 1) in R^5, the pieces intersect iff
//   sum_{i in A} alpha_i (X_i, 1) - sum_{j in B} beta_j (Y_j, 1) = 0
// has a solution with alpha, beta >= 0, not all zero (then sum alpha = sum beta
// > 0 and scaling gives the barycentric coordinates). That is a 5 x 6 system;
// when its rank is 5 its null space is spanned by the cofactor vector
//   c_j = (-1)^j (j in B ? -1 : 1) O_j,   O_j = orient(the 5 points but j),
// where orient(q_0..q_4) = det[(q_i, 1)] (5 x 5) is the 4D orientation
// predicate (Cramer's rule; the common factor (-1)^|B| is dropped). So:
// - every c_j certified of one sign: the simplices cross transversally in one
//   point, a hit, at time t* = sum_{i in A, t_i = 1} c_i / sum_{i in A} c_i
//   (the time coordinate of sum alpha_i X_i; all terms of one sign, no
//   cancellation);
// - two c_j certified of opposite signs: the rank is 5 (some c_j != 0), the
//   only solutions are multiples of c, none non-negative: a miss;
// - anything else (a sign within its error bound: touching, lower-dimensional
//   contact, a singular system) is uncertain. The lower-dimensional cases of
//   the paper are NOT handled in floating point: uncertain queries go to the
//   exact oracle (Mode::exact) or count as hits with toi = 0 (conservative).
//
// Each orientation is computed with +, -, x only: subtracting a base point
// (chosen at the time, 0 or 1, of most of the five points) leaves a 4 x 4
// determinant of differences whose time row holds only 0, 1, -1, so it is a
// sum of at most two signed 3 x 3 determinants of spatial differences. Error
// bound, with P the same expression on absolute values (the permanent):
// every monomial of a 3 x 3 determinant collects at most 8 roundings (3 from
// the rounded differences, 2 multiplications, the cross product's
// subtraction, 2 additions), the sum of up to 4 of them (2 in practice) 3
// more, so |fl(O) - O| <= gamma_11 P + underflow; we use kOrientError = 32 u
// (more than twice 11 u, which also covers the rounding of P itself) plus
// linear::kTiny (see linear/error_bounds.hpp for the underflow argument: the
// degree is 3 here).
//
// Time of impact: with all c_j certified, |c_j| lies in [a_j - e_j, a_j + e_j]
// (a_j = |fl(c_j)|, e_j its bound), so t* of the piece lies in
//   [sum_num (a - e) / sum_A (a + e), sum_num (a + e) / sum_A (a - e)],
// evaluated with a relative margin of 2^-48 (> 10 roundings) and 2^-1000 for
// underflow. A query whose every piece is certified has t* = the least t* of
// its hit pieces, in [min lo, min hi]; it is a certified hit with toi = min lo
// when min hi - min lo <= tolerance, else uncertain with toi = min lo. A query
// with an uncertain piece is uncertain with toi = 0 (a piece may touch at any
// time in [0, 1]; every piece spans t = 0 to 1).
//
// Screen: a piece whose A and B have disjoint spatial bounding boxes (exact
// float comparisons) is a miss without the determinants.
//
// Contact piece (t.piece, for SpacetimeResults): with every piece certified,
// the hit piece k with the least t_hi (the first on a tie) is the oracle's
// piece (the least index reaching the least t*) when every other hit piece's
// t_lo exceeds k's t_hi: then each other t* > t*_k. Otherwise -1 (not
// certified; store_tile then treats the hit as uncertain when the caller asks
// for the piece).
//
// Defined in namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE: `portable`
// by default, and once per Highway target in dispatch/spacetime_ccd.cc, which
// re-includes this header (toggled by HWY_TARGET_TOGGLE) inside each target's
// region, so that SVE vectors pass only through functions compiled for SVE.
#if defined(SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
#undef SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
#else
#define SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <limits>

#include "simdccd/linear/error_bounds.hpp"
#include "simdccd/linear/lanes.hpp"
#include "simdccd/query.hpp"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE {

namespace detail {

inline constexpr double kOrientError = 32 * linear::kUnitRoundoff;
inline constexpr double kRatioMargin = 0x1p-48;
inline constexpr double kRatioUnderflow = 0x1p-1000;

/// A space-time point: query point 0..3 (in id order) at time 0 or 1.
struct Vertex {
  int point;
  int time;
};

/// Reads lanes() queries from index `i` of a tile's coordinates.
template <class L>
struct QueryLanes {
  using V = typename L::V;
  const double* const* coord;
  std::size_t i;
  V at(Vertex v, int axis) const { return L::load(coord[3 * (4 * v.time + v.point) + axis] + i); }
  /// The spatial difference a - base, rounded once.
  V diff(Vertex a, Vertex base, int axis) const { return L::sub(at(a, axis), at(base, axis)); }
};

/// det[a - o, b - o, c - o] (spatial, 3 x 3) and its permanent.
template <class L>
void det3(const QueryLanes<L>& q, Vertex o, Vertex a, Vertex b, Vertex c, typename L::V& det,
          typename L::V& perm) {
  using V = typename L::V;
  const V ax = q.diff(a, o, 0), ay = q.diff(a, o, 1), az = q.diff(a, o, 2);
  const V bx = q.diff(b, o, 0), by = q.diff(b, o, 1), bz = q.diff(b, o, 2);
  const V cx = q.diff(c, o, 0), cy = q.diff(c, o, 1), cz = q.diff(c, o, 2);
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

/// orient(p_0..p_4) = det[(p_i, 1)] (5 x 5) and its permanent (see the top).
template <class L>
void orient5(const QueryLanes<L>& q, const Vertex (&p)[5], typename L::V& det, typename L::V& perm) {
  using V = typename L::V;
  int ones = 0;
  for (const Vertex& v : p) ones += v.time;
  const int base_time = ones >= 3 ? 1 : 0;
  int b = 0;
  while (p[b].time != base_time) ++b;
  // det5 = (-1)^b det4[p_i - p_b, i != b]; det4 expands along its time row:
  // sum_c (-1)^(3 + c) tau_c det3(the other three columns).
  int col[4];
  for (int i = 0, n = 0; i < 5; ++i) {
    if (i != b) col[n++] = i;
  }
  det = L::set(0);
  perm = L::set(0);
  for (int c = 0; c < 4; ++c) {
    const int tau = p[col[c]].time - base_time;
    if (tau == 0) continue;
    const int sign = ((3 + c + b) % 2 == 0 ? 1 : -1) * tau;
    int other[3];
    for (int k = 0, n = 0; k < 4; ++k) {
      if (k != c) other[n++] = col[k];
    }
    V d, pm;
    det3<L>(q, p[b], p[other[0]], p[other[1]], p[other[2]], d, pm);
    det = sign > 0 ? L::add(det, d) : L::sub(det, d);
    perm = L::add(perm, pm);
  }
}

/// A and B (the first kA points of `p`, then the rest) have disjoint spatial boxes.
template <class L, int kA>
typename L::M boxes_separated(const QueryLanes<L>& q, const Vertex (&p)[6]) {
  using V = typename L::V;
  using M = typename L::M;
  M separated = L::lt(L::set(1), L::set(0));
  for (int axis = 0; axis < 3; ++axis) {
    V amin = q.at(p[0], axis), amax = amin, bmin = q.at(p[kA], axis), bmax = bmin;
    for (int k = 1; k < 6; ++k) {
      if (k == kA) continue;
      const V x = q.at(p[k], axis);
      if (k < kA) {
        amin = L::min(amin, x), amax = L::max(amax, x);
      } else {
        bmin = L::min(bmin, x), bmax = L::max(bmax, x);
      }
    }
    separated = L::either(separated, L::either(L::lt(amax, bmin), L::lt(bmax, amin)));
  }
  return separated;
}

/// Decides one piece: A = p[0..kA), B = p[kA..6). `hit` and `miss` are
/// certified; where `hit`, t* of the piece is in [t_lo, t_hi].
template <class L, int kA>
void decide_piece(const QueryLanes<L>& q, const Vertex (&p)[6], typename L::M& hit,
                  typename L::M& miss, typename L::V& t_lo, typename L::V& t_hi) {
  using V = typename L::V;
  using M = typename L::M;
  const V zero = L::set(0), error = L::set(kOrientError), tiny = L::set(linear::kTiny);
  const M none = L::lt(L::set(1), zero), every = L::le(zero, L::set(1));
  M any_pos = none, any_neg = none, all_pos = every, all_neg = every;
  V num_lo = zero, num_hi = zero, den_lo = zero, den_hi = zero;
  for (int j = 0; j < 6; ++j) {
    Vertex rest[5];
    for (int k = 0, n = 0; k < 6; ++k) {
      if (k != j) rest[n++] = p[k];
    }
    V o, perm;
    orient5<L>(q, rest, o, perm);
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
  // Only meaningful where `hit` (then every lo > 0).
  const V below_one = L::set(1 - kRatioMargin), above_one = L::set(1 + kRatioMargin);
  const V underflow = L::set(kRatioUnderflow);
  t_lo = L::max(zero, L::sub(L::mul(L::div(num_lo, den_hi), below_one), underflow));
  t_hi = L::min(L::set(1), L::add(L::mul(L::div(num_hi, den_lo), above_one), underflow));
}

template <class L>
typename L::M valid_input(const QueryLanes<L>& q) {
  typename L::M valid = L::le(L::set(0), L::set(1));
  const typename L::V limit = L::set(linear::kMaxCoordinate);
  for (int k = 0; k < 24; ++k) {
    valid = L::both(valid, L::le(L::abs(L::load(q.coord[k] + q.i)), limit));  // false for NaN
  }
  return valid;
}

template <class L>
typename L::V verdict_value(Verdict v) {
  return L::set(static_cast<double>(static_cast<int>(v)));
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

/// The pieces of a query type, in piece order: kPieces sets of 6 points, A first.
template <QueryType kType>
struct Pieces;

template <>
struct Pieces<QueryType::vertex_face> {
  static constexpr int kA = 2, kCount = 3;
  // Segment (v, v'); tetrahedra (x1, x2, x3, x3'), (x1, x2, x2', x3'), (x1, x1', x2', x3').
  static constexpr Vertex kPoints[kCount][6] = {
      {{0, 0}, {0, 1}, {1, 0}, {2, 0}, {3, 0}, {3, 1}},
      {{0, 0}, {0, 1}, {1, 0}, {2, 0}, {2, 1}, {3, 1}},
      {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 1}, {3, 1}},
  };
};

template <>
struct Pieces<QueryType::edge_edge> {
  static constexpr int kA = 3, kCount = 4;
  // Piece 2 i + j: triangle i of edge a ((a, b, b') or (a, a', b')), j of edge b.
  static constexpr Vertex kPoints[kCount][6] = {
      {{0, 0}, {1, 0}, {1, 1}, {2, 0}, {3, 0}, {3, 1}},
      {{0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 1}},
      {{0, 0}, {0, 1}, {1, 1}, {2, 0}, {3, 0}, {3, 1}},
      {{0, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 1}, {3, 1}},
  };
};

/// Decides queries [i, i + lanes).
template <class L, QueryType kType>
void decide_lanes(Tile& t, const double* const* coord, std::size_t i, double tolerance) {
  using V = typename L::V;
  using M = typename L::M;
  using P = Pieces<kType>;
  const QueryLanes<L> q{coord, i};
  const V zero = L::set(0), inf = L::set(std::numeric_limits<double>::infinity());
  const M none = L::lt(L::set(1), zero);
  const M valid = valid_input<L>(q);
  M uncertain = none, hit = none;
  V lo = inf, hi = inf;
  // The contact piece: `best`, the first hit piece with the least t_hi, and
  // `other_lo`, the least t_lo of the other hit pieces.
  V best = L::set(-1), best_lo = inf, other_lo = inf;
  for (int k = 0; k < P::kCount; ++k) {
    const M separated = boxes_separated<L, P::kA>(q, P::kPoints[k]);
    if (L::all(separated)) continue;
    M piece_hit, piece_miss;
    V piece_lo, piece_hi;
    decide_piece<L, P::kA>(q, P::kPoints[k], piece_hit, piece_miss, piece_lo, piece_hi);
    piece_hit = L::but_not(piece_hit, separated);
    uncertain = L::either(uncertain, L::but_not(L::but_not(L::but_not(valid, separated), piece_hit), piece_miss));
    hit = L::either(hit, piece_hit);
    track_best<L>(piece_hit, piece_lo, piece_hi, k, hi, best, best_lo, other_lo);
    lo = L::select(piece_hit, L::min(lo, piece_lo), lo);
    hi = L::select(piece_hit, L::min(hi, piece_hi), hi);
  }
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

}  // namespace detail

/// Decides the `t.count` queries of the tile (coord filled; 1 <= count <=
/// kTileSize) into `t.verdict`, `t.toi` and `t.piece`.
template <class L, QueryType kType>
void decide_tile(Tile& t, double tolerance) {
  const std::size_t lanes = L::lanes();
  const std::size_t padded = (t.count + lanes - 1) / lanes * lanes;
  for (auto& row : t.coord) std::fill(row + t.count, row + padded, row[t.count - 1]);
  const double* coord[24];
  for (int k = 0; k < 24; ++k) coord[k] = t.coord[k];
  for (std::size_t i = 0; i < padded; i += lanes) detail::decide_lanes<L, kType>(t, coord, i, tolerance);
}

}  // namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE

#endif  // SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
