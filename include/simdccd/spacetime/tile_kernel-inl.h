// The space-time CCD kernel (the Brochu-Bridson model of spacetime_oracle.hpp)
// on a tile of queries, written once over the lane type L (see
// simdccd/simd/lanes.hpp).
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
//   cancellation); the same where the others are exactly zero because their
//   five points share a hyperplane x_a = c(t) (piece_kernel-inl.h's
//   shared_hyperplane: a contact on an edge or face, in meshes with exactly
//   shared coordinates);
// - two c_j certified of opposite signs: the rank is 5 (some c_j != 0), the
//   only solutions are multiples of c, none non-negative: a miss;
// - anything else (a sign within its error bound: touching, lower-dimensional
//   contact, a singular system) is uncertain, and goes to the paper's
//   lower-dimensional fallback (piece_kernel-inl.h: the piece projected to
//   x-y-t, x-z-t or y-z-t, where the segment against the tetrahedron's faces
//   and the endpoints against the tetrahedron, or each edge against the other
//   triangle, are pieces one dimension down). It certifies a miss, or bounds
//   the piece's earliest contact from below; what it cannot certify goes to
//   the exact oracle (Mode::exact) or counts as a hit at that bound
//   (conservative).
//
// Each orientation is computed with +, -, x only (orientation-inl.h, where its
// error bound kOrientError[3] = 32 u of the permanent, plus simd::kTiny, is
// derived): subtracting a base point at the majority time leaves a 4 x 4
// determinant of differences whose time row holds only 0, 1, -1, so it is a
// sum of at most two signed 3 x 3 determinants of spatial differences.
//
// Time of impact: with all c_j certified, |c_j| lies in [a_j - e_j, a_j + e_j]
// (a_j = |fl(c_j)|, e_j its bound), so t* of the piece lies in
//   [sum_num (a - e) / sum_A (a + e), sum_num (a + e) / sum_A (a - e)],
// evaluated with a relative margin of 2^-48 (> 10 roundings) and 2^-1000 for
// underflow. A query whose every piece is certified has t* = the least t* of
// its hit pieces, in [min lo, min hi]; it is a certified hit with toi = min lo
// when min hi - min lo <= tolerance, else uncertain with toi = min lo. A query
// with an uncertain piece is uncertain with toi = the least of min lo and the
// fallback's bounds of its uncertain pieces.
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
// The method's code shared with the planar kernel (box screen, piece decision,
// fallback, contact piece, verdicts) is in piece_kernel-inl.h.
//
// Defined in namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE: `portable`
// by default, and once per Highway target in dispatch/spacetime_ccd.cc, which
// re-includes this header (toggled by HWY_TARGET_TOGGLE) inside each target's
// region, so that SVE vectors pass only through functions compiled for SVE.
#if defined(SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
#undef SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
#else
#define SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
#endif

#include <cstddef>

#include "simdccd/query.hpp"
#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/spacetime/piece_kernel-inl.h"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE {

namespace detail {

/// The pieces of a query type, in piece order: kCount sets of 6 points, A first.
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

}  // namespace detail

/// Decides the `t.count` queries of the tile (coord filled; 1 <= count <=
/// kTileSize) into `t.verdict`, `t.toi` and `t.piece`, tiny queries scaled up
/// on the way (`t.scale`).
template <class L, QueryType kType>
void decide_tile(Tile& t, double tolerance) {
  using P = detail::Pieces<kType>;
  std::fill(t.scale, t.scale + kTileSize, std::int16_t{0});
  detail::for_each_vector<L>(t.coord, t.count, [&](const double* const* coord, std::size_t i) {
    detail::decide_pieces<L, P>(t, detail::PointLanes<L, 3>{coord, i}, tolerance);
  });
}

}  // namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_SPACETIME_TILE_KERNEL_INL_H_
