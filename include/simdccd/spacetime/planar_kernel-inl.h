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
// too) plus linear::kTiny (degree 2 here). The orientation's expansion, toi
// bracket, tolerance rule, box screen, piece rule and validity test are those
// of the 3D kernel, the same code (piece_kernel-inl.h).
#if defined(SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#undef SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#else
#define SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#endif

#include <cstddef>

#include "simdccd/linear/error_bounds.hpp"
#include "simdccd/linear/lanes.hpp"
#include "simdccd/spacetime/piece_kernel-inl.h"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE {

namespace detail {

inline constexpr double kPlanarOrientError = 16 * linear::kUnitRoundoff;

/// det[a - o, b - o] (spatial, 2 x 2) and its permanent (v = a, b).
template <class L>
void spatial_det(const PointLanes<L, 2>& q, Vertex o, const Vertex (&v)[2], typename L::V& det,
                 typename L::V& perm) {
  using V = typename L::V;
  const V ax = q.diff(v[0], o, 0), ay = q.diff(v[0], o, 1);
  const V bx = q.diff(v[1], o, 0), by = q.diff(v[1], o, 1);
  det = L::sub(L::mul(ax, by), L::mul(ay, bx));
  perm = L::add(L::mul(L::abs(ax), L::abs(by)), L::mul(L::abs(ay), L::abs(bx)));
}

struct PlanarPieces {
  static constexpr int kA = 2, kCount = 2;
  // Segment (p, p'); triangles (a, b, b') and (a, a', b').
  static constexpr Vertex kPoints[kCount][5] = {
      {{0, 0}, {0, 1}, {1, 0}, {2, 0}, {2, 1}},
      {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 1}},
  };
};

}  // namespace detail

/// Decides the `t.count` planar queries of the tile (coord filled; 1 <= count
/// <= kTileSize) into `t.verdict`, `t.toi` and `t.piece`.
template <class L>
void decide_planar_tile(PlanarTile& t, double tolerance) {
  detail::for_each_vector<L>(t.coord, t.count, [&](const double* const* coord, std::size_t i) {
    detail::decide_pieces<L, detail::PlanarPieces>(t, detail::PointLanes<L, 2>{coord, i},
                                                   detail::kPlanarOrientError, tolerance);
  });
}

}  // namespace simdccd::spacetime::SIMDCCD_LINEAR_NAMESPACE

#endif  // SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
