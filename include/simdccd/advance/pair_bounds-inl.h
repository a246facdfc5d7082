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

#include <cmath>
#include <limits>

#include "simdccd/advance/batch.hpp"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE {

using simd::SIMDCCD_TARGET_NAMESPACE::cross3;
using simd::SIMDCCD_TARGET_NAMESPACE::dot3;

/// The least |n|^2 of a direction the kernels use. Above it, |n|^2 is a
/// normal double (its rounding relative) and |n| >= 2^-500, so a projection's
/// underflow (at most a few 2^-1074) costs at most a few 2^-574 of distance,
/// far inside Frame::error (certifiable() keeps the models' scale above
/// 2^-400 and make_frame() the error at least 2^-440). The rates' underflow, a few 2^-574 a
/// unit of time, is as harmless: it matters only to rates too slow to close
/// any positive lower bound (at least an ulp of Frame::error, 2^-492) within
/// the step. A subnormal |n|^2 (a thin node's normal) would overstate
/// gap / |n| by its lost bits: such an n is no direction.
constexpr double kLeastLen2 = 0x1p-1000;

/// The slab's lower bound: gap / |n| - error (gap = b's smallest projection
/// on n minus a's largest; len2 = |n|^2, len = |n|), or -infinity when n is
/// too short to be a direction (kLeastLen2).
template <class L>
typename L::V slab_lower(typename L::V gap, typename L::V len2, typename L::V len, const Frame& f) {
  const auto some = L::ge(len2, L::set(kLeastLen2));
  return L::select(some, L::sub(L::div(gap, L::select(some, len, L::set(1))), L::set(f.error)),
                   L::set(-std::numeric_limits<double>::infinity()));
}

/// m = n x w, or false without computing it when the frame's w is zero (every
/// target takes the same branch).
template <class L>
bool turn_axis(typename L::V nx, typename L::V ny, typename L::V nz, const double* w, typename L::V& mx,
               typename L::V& my, typename L::V& mz) {
  if (w[0] == 0 && w[1] == 0 && w[2] == 0) return false;
  cross3<L>(nx, ny, nz, L::set(w[0]), L::set(w[1]), L::set(w[2]), mx, my, mz);
  return true;
}

/// The time the motion needs to close `lower` along n (0 when lower <= 0),
/// n of length len pointing from a's side of the slab to b's, never
/// normalized. Over the step n is fixed in the world; a point r (from its
/// body's origin) of a body turning at w moves along n at v.n + m.r with
/// m = n x w, so the slab closes at the rate v.n + m_a.r_a - m_b.r_b (v =
/// v_a - v_b), signed: a motion that opens the slab counts against one that
/// closes it. Two bounds on the time, the larger kept (both hold):
/// - the paper's directional bound: |m.r| <= |m| reach, so the slab closes
///   at most at mu = v.n + |m_a| reach_a + |m_b| reach_b (+ the articulated
///   terms lin + spin reach): lower / mu (never, when mu <= 0);
/// - the features' own points (the paper's generator points): m is normal to
///   w, so only r's part normal to w turns, by the angle |w| s after s:
///   m.r <= m.r0 + |m| |r0| |w| s. With A = v.n + lever_a + lever_b (+ the
///   articulated terms) and C = |m_a| reach_a |w_a| + |m_b| reach_b |w_b|,
///   the gap closes by at most A s + C s^2 / 2 by time s: the root of that =
///   lower. `lever_a(m)` bounds m.r0 over the pair's points of a and
///   `lever_b(m)` bounds -m.r0 over b's (at t, in a's frame; b's from b's
///   origin).
/// The levers grow by |m| Frame::error (their dot products cancel); mu and A
/// by 2^-40 of the sum of their terms' magnitudes (with |n| |v| for v.n and
/// |n| |w| reach for each turn's, which also bound the rounding of m and of
/// the frame's v and w), which bounds the rounding of the signed sums; C by a
/// relative 2^-40; the result shrinks by 2^-40. The rates are divided by |n|
/// before the root, so its squares stay far from underflow whatever the
/// size of n (a thin rectangle's normal, a model at a tiny scale); where
/// A^2 still underflows, the root is kept at least 2 A.
template <class L, class LeverA, class LeverB>
typename L::V closing_time(typename L::V lower, typename L::V nx, typename L::V ny, typename L::V nz,
                           typename L::V len, typename L::V reach_a, typename L::V reach_b, const Frame& f,
                           const LeverA& lever_a, const LeverB& lever_b) {
  using V = typename L::V;
  const V zero = L::set(0);
  const double speed = std::sqrt(f.v[0] * f.v[0] + f.v[1] * f.v[1] + f.v[2] * f.v[2]);
  // The terms without a turning axis (articulated links: direction-free).
  const V free = L::add(L::mul(L::set(f.lin), len),
                        L::add(L::mul(L::mul(L::set(f.spin_a), len), reach_a), L::mul(L::mul(L::set(f.spin_b), len), reach_b)));
  const V along = dot3<L>(L::set(f.v[0]), L::set(f.v[1]), L::set(f.v[2]), nx, ny, nz);
  const V scale = L::add(L::mul(L::set(speed), len), free);  // >= |along| + free
  V mu = L::add(along, free), a = mu, c = zero, mu_scale = scale, a_scale = scale;
  const auto body = [&](const double* w, V reach, const auto& lever) {
    V mx, my, mz;
    if (!turn_axis<L>(nx, ny, nz, w, mx, my, mz)) return;
    const V m = L::sqrt(dot3<L>(mx, my, mz, mx, my, mz));
    const double rate = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    const V swing = L::mul(m, reach), slack = L::mul(m, L::set(f.error)), lever_m = lever(mx, my, mz, m);
    const V most = L::mul(L::mul(L::set(rate), len), reach);  // >= |m| reach, with m's rounding
    mu = L::add(mu, swing);
    mu_scale = L::add(mu_scale, most);
    a = L::add(a, L::add(lever_m, slack));
    a_scale = L::add(a_scale, L::add(L::add(L::abs(lever_m), slack), most));
    c = L::add(c, L::mul(swing, L::set(rate)));
  };
  body(f.wa, reach_a, lever_a);
  body(f.wb, reach_b, lever_b);
  // Upper bounds on the rates, none below 0 (a slab that only opens), per
  // unit of n: lower is already a distance.
  const V tiny = L::set(0x1p-40), per = L::div(L::set(1), len);
  mu = L::mul(L::max(L::add(mu, L::mul(mu_scale, tiny)), zero), per);
  a = L::mul(L::max(L::add(a, L::mul(a_scale, tiny)), zero), per);
  c = L::mul(L::mul(c, L::set(1 + 0x1p-40)), per);
  // By reach: lower / mu. By points: 2 lower / (A + sqrt(A^2 + 2 C lower)),
  // the root of A s + C s^2 / 2 = lower without cancellation (A >= 0). The
  // larger of the two is 2 lower over the smaller of 2 mu and the root: one
  // division (a zero denominator gives +infinity: the pair never touches).
  const V root = L::add(a, L::max(a, L::sqrt(L::add(L::mul(a, a), L::mul(L::add(c, c), lower)))));
  const V denominator = L::min(L::add(mu, mu), root);
  const V dt = L::mul(L::div(L::add(lower, lower), denominator), L::set(1 - 0x1p-40));
  return L::select(L::gt(lower, zero), dt, zero);  // lower > 0: also no 0 / 0 without motion
}

/// b's body vector (no translation) -> a's body frame.
template <class L>
void rotate_to_a(const Frame& f, typename L::V x, typename L::V y, typename L::V z, typename L::V& ox,
                 typename L::V& oy, typename L::V& oz) {
  ox = dot3<L>(L::set(f.R[0]), L::set(f.R[1]), L::set(f.R[2]), x, y, z);
  oy = dot3<L>(L::set(f.R[3]), L::set(f.R[4]), L::set(f.R[5]), x, y, z);
  oz = dot3<L>(L::set(f.R[6]), L::set(f.R[7]), L::set(f.R[8]), x, y, z);
}

/// b's body point x -> a's body frame.
template <class L>
void to_frame_a(const Frame& f, typename L::V x, typename L::V y, typename L::V z, typename L::V& ox,
                typename L::V& oy, typename L::V& oz) {
  rotate_to_a<L>(f, x, y, z, ox, oy, oz);
  ox = L::add(ox, L::set(f.x[0]));
  oy = L::add(oy, L::set(f.x[1]));
  oz = L::add(oz, L::set(f.x[2]));
}

}  // namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_ADVANCE_PAIR_BOUNDS_INL_H_
