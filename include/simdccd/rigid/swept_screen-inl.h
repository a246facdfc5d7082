// What every rigid kernel (tile_kernel-inl.h, expel_zone-inl.h) checks first:
// the input's validity, and whether the moving primitive's sweep certainly
// stays away from the still primitive.
//
// Defined in namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target by dispatch/rigid_ccd.cc.
#if defined(SIMDCCD_RIGID_SWEPT_SCREEN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_RIGID_SWEPT_SCREEN_INL_H_
#undef SIMDCCD_RIGID_SWEPT_SCREEN_INL_H_
#else
#define SIMDCCD_RIGID_SWEPT_SCREEN_INL_H_
#endif

#include <limits>

#include "simdccd/query.hpp"
#include "simdccd/rigid/cayley_forms-inl.h"
#include "simdccd/rigid/rotation_contact-inl.h"
#include "simdccd/rigid_motion.hpp"
#include "simdccd/simd/tile_common-inl.h"

namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE {

using simd::SIMDCCD_TARGET_NAMESPACE::valid_input;

/// The lanes whose points and motion lie in the valid domain (rigid_motion.hpp).
template <class L, RigidMotionType kMotion>
typename L::M valid_rigid_input(const QueryLanes<L>& q) {
  using V = typename L::V;
  typename L::M valid = valid_input<L, kParam + 3>(q.row, q.i);  // points, and the translation or center
  if constexpr (kMotion == RigidMotionType::rotation) {
    valid = L::both(valid, valid_input<L, 3>(q.row + kParam + 3, q.i));  // the axis
    const V tau = L::abs(q.param(6)), zero = L::set(0);
    const V axis = L::max(L::max(L::abs(q.param(3)), L::abs(q.param(4))), L::abs(q.param(5)));
    const typename L::M half_turn = L::both(L::ge(tau, L::set(std::numeric_limits<double>::infinity())),
                                            L::gt(axis, zero));
    valid = L::both(valid, L::either(L::le(tau, L::set(simd::kMaxCoordinate)), half_turn));
  }
  return valid;
}

/// What the underflow of products can take off a sum of a few of them, and
/// more: every margin of the screens adds it.
inline constexpr double kUnderflow = 0x1p-1000;

/// A bound on the error of a.w computed from rounded w (pw = |w|).
template <class L, class AbsA>
typename L::V projection_error(const AbsA& abs_a, typename L::V pwx, typename L::V pwy, typename L::V pwz) {
  const typename L::V p = dot<L>(abs_a, vec<L>(pwx, pwy, pwz));
  return L::add(L::mul(L::set(0x1p-40), p), L::set(kUnderflow));
}

/// Lanes where the moving primitive (points 0..kMoving-1) certainly never
/// comes within `gap` of the still one (points kMoving..3) during the move.
/// Translation: the boxes of the moving points at both ends against the
/// still box, widened by gap and by 2^-50 of the magnitudes (x + v rounds).
/// Rotation: the moving points keep their projections on the axis, a.(x - c),
/// and stay in the ball about the center of radius max |x - c|; the still
/// primitive's projections or box must clear those by gap, with margins for
/// the rounding of the dot products (2^-40 relative, and kUnderflow for
/// products below the normal range). Lengths are bounded by the sum of the
/// components' magnitudes, which needs no squares (the squares of coordinates
/// below 2^-511 underflow).
template <class L, QueryType kType, RigidMotionType kMotion>
typename L::M swept_apart(const QueryLanes<L>& q, typename L::V gap) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr int kMoving = kType == QueryType::vertex_face ? 1 : 2;
  const V eps = L::set(0x1p-50), zero = L::set(0);
  M apart = L::lt(L::set(1), zero);
  if constexpr (kMotion == RigidMotionType::translation) {
    for (int axis = 0; axis < 3; ++axis) {
      const V v = q.param(axis);
      V amin = L::set(std::numeric_limits<double>::infinity()), amax = L::sub(zero, amin);
      for (int p = 0; p < kMoving; ++p) {
        const V x0 = q.point(p, axis), x1 = L::add(x0, v);
        amin = L::min(amin, L::min(x0, x1)), amax = L::max(amax, L::max(x0, x1));
      }
      V bmin = q.point(kMoving, axis), bmax = bmin;
      for (int p = kMoving + 1; p < 4; ++p) bmin = L::min(bmin, q.point(p, axis)), bmax = L::max(bmax, q.point(p, axis));
      const V margin = L::add(L::add(gap, L::mul(eps, L::add(L::add(L::abs(amin), L::abs(amax)), L::abs(v)))),
                              L::set(kUnderflow));
      apart = L::either(apart, L::either(L::lt(L::add(amax, margin), bmin), L::lt(L::add(bmax, margin), amin)));
    }
  } else {
    const V ax = q.param(3), ay = q.param(4), az = q.param(5);
    const auto a = vec<L>(ax, ay, az);
    const auto abs_a = [&](int k) { return L::abs(a(k)); };
    const V alen = L::add(L::add(abs_a(0), abs_a(1)), abs_a(2));
    const V rel = L::set(0x1p-40);
    V lo = L::set(std::numeric_limits<double>::infinity()), hi = L::sub(zero, lo), radius = zero;
    for (int p = 0; p < kMoving; ++p) {
      V wx, wy, wz, pwx, pwy, pwz;
      difference<L>(q, p, -1, wx, wy, wz, pwx, pwy, pwz);
      const V h = dot<L>(a, vec<L>(wx, wy, wz)), e = projection_error<L>(abs_a, pwx, pwy, pwz);
      lo = L::min(lo, L::sub(h, e)), hi = L::max(hi, L::add(h, e));
      // |w| <= |wx| + |wy| + |wz| (pw = |w|, the rounded difference), plus
      // what rounding w can have taken off.
      const V length = L::mul(L::add(L::add(pwx, pwy), pwz), L::add(L::set(1), rel));
      radius = L::max(radius, length);
    }
    // Along the axis, the gap scaled by |a| (rounded up).
    const V agap = L::mul(L::mul(gap, alen), L::add(L::set(1), rel));
    V slo = L::set(std::numeric_limits<double>::infinity()), shi = L::sub(zero, slo);
    for (int p = kMoving; p < 4; ++p) {
      V wx, wy, wz, pwx, pwy, pwz;
      difference<L>(q, p, -1, wx, wy, wz, pwx, pwy, pwz);
      const V h = dot<L>(a, vec<L>(wx, wy, wz)), e = projection_error<L>(abs_a, pwx, pwy, pwz);
      slo = L::min(slo, L::sub(h, e)), shi = L::max(shi, L::add(h, e));
    }
    apart = L::either(L::lt(L::add(hi, agap), slo), L::lt(L::add(shi, agap), lo));
    // The ball: the still box's distance from the center along an axis.
    const V reach = L::mul(L::add(radius, gap), L::add(L::set(1), rel));
    for (int axis = 0; axis < 3; ++axis) {
      const V c = q.param(axis);
      V bmin = q.point(kMoving, axis), bmax = bmin;
      for (int p = kMoving + 1; p < 4; ++p) bmin = L::min(bmin, q.point(p, axis)), bmax = L::max(bmax, q.point(p, axis));
      const V slack = L::add(L::mul(eps, L::add(L::abs(c), L::max(L::abs(bmin), L::abs(bmax)))), L::set(kUnderflow));
      apart = L::either(apart, L::either(L::gt(L::sub(L::sub(bmin, c), slack), reach),
                                         L::gt(L::sub(L::sub(c, bmax), slack), reach)));
    }
  }
  return apart;
}

}  // namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_RIGID_SWEPT_SCREEN_INL_H_
