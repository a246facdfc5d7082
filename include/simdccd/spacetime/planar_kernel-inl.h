// The planar space-time CCD kernel (spacetime_oracle.hpp's planar case: a point
// against a moving edge in the x-y plane) on a tile of queries, written once
// over the lane type L (see simdccd/simd/lanes.hpp), instantiated as the 3D
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
// c_{p'} / (c_p + c_{p'}); two of opposite signs: a miss; anything else goes to
// the lower-dimensional fallback (the piece projected to x-t or y-t), then,
// if still uncertain, to the oracle (exact) or counts as a hit at the
// fallback's bound (conservative).
//
// orient is orientation-inl.h's with 2 spatial axes: a sum of at most two
// signed 2 x 2 determinants of spatial differences, error bound
// kOrientError[2] = 16 u of the permanent plus simd::kTiny. The toi bracket,
// tolerance rule, box screen, fallback, piece rule and validity test are those
// of the 3D kernel, the same code (piece_kernel-inl.h).
#if defined(SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#undef SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#else
#define SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
#endif

#include <cstddef>

#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/spacetime/piece_kernel-inl.h"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE {

namespace detail {

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
/// <= kTileSize) into `t.verdict`, `t.toi` and `t.piece`, tiny queries scaled
/// up on the way (`t.scale`).
template <class L>
void decide_planar_tile(PlanarTile& t, double tolerance) {
  std::fill(t.scale, t.scale + kTileSize, std::int16_t{0});
  detail::for_each_vector<L>(t.coord, t.count, [&](const double* const* coord, std::size_t i) {
    detail::decide_pieces<L, detail::PlanarPieces>(t, detail::PointLanes<L, 2>{coord, i}, tolerance);
  });
}

}  // namespace simdccd::spacetime::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_SPACETIME_PLANAR_KERNEL_INL_H_
