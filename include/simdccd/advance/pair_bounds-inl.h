// What a closest-point pair certifies (advance/batch.hpp): a lower bound on
// the distance from the slab between the features along the pair's
// direction, and the time the motion needs to close that slab.
//
// Any direction n gives a valid bound: two convex sets (a triangle, a
// line-swept sphere) whose projections on the unit n are apart by g are at
// least g apart, and as long as the projected motions of their points sum
// to less than g they cannot touch (the slab stays between them). The
// closest-point direction makes g the distance, so the bound is tight where
// the closest points are right; elsewhere it is only looser. Only the
// projections and the bound carry rounding: `Frame::error` for the distances
// and a relative 2^-40 on the motion bound (docs/advance.md).
//
// Re-included per Highway target (see simd/vec3-inl.h).
#if defined(SIMDCCD_ADVANCE_PAIR_BOUNDS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_ADVANCE_PAIR_BOUNDS_INL_H_
#undef SIMDCCD_ADVANCE_PAIR_BOUNDS_INL_H_
#else
#define SIMDCCD_ADVANCE_PAIR_BOUNDS_INL_H_
#endif

#include <limits>

#include "simdccd/advance/batch.hpp"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE {

using simd::SIMDCCD_TARGET_NAMESPACE::cross3;
using simd::SIMDCCD_TARGET_NAMESPACE::dot3;

/// The slab's lower bound: gap / |n| - error (gap = b's smallest projection
/// on n minus a's largest; `inv_len` = 1 / |n|), or -infinity when n is zero
/// (no direction).
template <class L>
typename L::V slab_lower(typename L::V gap, typename L::V len2, typename L::V inv_len, const Frame& f) {
  return L::select(L::gt(len2, L::set(0)), L::sub(L::mul(gap, inv_len), L::set(f.error)),
                   L::set(-std::numeric_limits<double>::infinity()));
}

/// |n x w|, or 0 without computing it when the frame's w is zero (the same
/// value: every target takes the same branch).
template <class L>
typename L::V turn_rate(typename L::V nx, typename L::V ny, typename L::V nz, const double* w) {
  if (w[0] == 0 && w[1] == 0 && w[2] == 0) return L::set(0);
  typename L::V cx, cy, cz;
  cross3<L>(nx, ny, nz, L::set(w[0]), L::set(w[1]), L::set(w[2]), cx, cy, cz);
  return L::sqrt(dot3<L>(cx, cy, cz, cx, cy, cz));
}

/// The time the motion needs to close `lower` along n (0 when lower <= 0):
/// lower / mu with mu the bound of Frame along the unit n / len, computed as
/// lower len / (mu len) so that n is never normalized.
template <class L>
typename L::V closing_time(typename L::V lower, typename L::V nx, typename L::V ny, typename L::V nz,
                           typename L::V len, typename L::V reach_a, typename L::V reach_b, const Frame& f) {
  using V = typename L::V;
  const V along = L::abs(dot3<L>(L::set(f.v[0]), L::set(f.v[1]), L::set(f.v[2]), nx, ny, nz));
  const V ka = L::add(turn_rate<L>(nx, ny, nz, f.wa), L::mul(L::set(f.spin_a), len));
  const V kb = L::add(turn_rate<L>(nx, ny, nz, f.wb), L::mul(L::set(f.spin_b), len));
  V mu_len = L::add(L::add(along, L::mul(L::set(f.lin), len)), L::add(L::mul(ka, reach_a), L::mul(kb, reach_b)));
  mu_len = L::mul(mu_len, L::set(1 + 0x1p-40));
  return L::select(L::gt(lower, L::set(0)), L::div(L::mul(lower, len), mu_len), L::set(0));
}

/// b's body point x -> a's body frame.
template <class L>
void to_frame_a(const Frame& f, typename L::V x, typename L::V y, typename L::V z, typename L::V& ox,
                typename L::V& oy, typename L::V& oz) {
  ox = L::add(dot3<L>(L::set(f.R[0]), L::set(f.R[1]), L::set(f.R[2]), x, y, z), L::set(f.x[0]));
  oy = L::add(dot3<L>(L::set(f.R[3]), L::set(f.R[4]), L::set(f.R[5]), x, y, z), L::set(f.x[1]));
  oz = L::add(dot3<L>(L::set(f.R[6]), L::set(f.R[7]), L::set(f.R[8]), x, y, z), L::set(f.x[2]));
}

}  // namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_ADVANCE_PAIR_BOUNDS_INL_H_
