// The rigid motions of rigid_motion.hpp as formulas generic in the number
// type: one source for the double evaluation (apply, motion.cpp) and the
// exact oracle's polynomials in u (rigid_oracle.cpp).
#pragma once

#include <type_traits>
#include <utility>

#include "simdccd/rigid_ccd.hpp"

namespace simdccd::rigid {

/// (g(u), s(u)) of rigid_motion.hpp: (1, u tau) for a finite tau
/// (`infinity` = 0), (1 - u, +-u) for tau = +-infinity (`infinity` = +-1).
/// T is a number (u given) or a polynomial (u the variable); `one` is 1 in T.
template <class T, class Tau>
std::pair<T, T> cayley_parameters(const T& u, const T& one, const Tau& tau, int infinity) {
  if (infinity != 0) return {one - u, infinity > 0 ? u : T{} - u};
  return {one, tau * u};
}

/// The rotation of a point x about the line through c along a, in parts:
/// with w = x - c,
///   W x(u) = g^2 x + g s k1 + s^2 k2,   W = g^2 + s^2 |a|^2,
///   k1 = 2 a x w,   k2 = |a|^2 (2c - x) + 2 (a . w) a,
/// which is c + R(u) w of rigid_motion.hpp multiplied out: W c + (g^2 - s^2
/// |a|^2) w + 2 s^2 (a . w) a + 2 g s a x w. X and W are homogeneous of
/// degree 2 in (g, s a), so scaling g and s a by one factor changes no point.
/// V is Vec3 or RationalVec3.
template <class V>
struct RotationTerms {
  using Scalar = std::remove_cvref_t<decltype(std::declval<V>().x)>;
  V x, k1, k2;
  Scalar aa;  ///< |a|^2
};

template <class V>
RotationTerms<V> rotation_terms(const V& x, const V& c, const V& a) {
  using S = typename RotationTerms<V>::Scalar;
  const V w{x.x - c.x, x.y - c.y, x.z - c.z};
  const S aa = a.x * a.x + a.y * a.y + a.z * a.z;
  const S aw = a.x * w.x + a.y * w.y + a.z * w.z;
  const V k1{2 * (a.y * w.z - a.z * w.y), 2 * (a.z * w.x - a.x * w.z), 2 * (a.x * w.y - a.y * w.x)};
  const V k2{aa * (2 * c.x - x.x) + 2 * aw * a.x, aa * (2 * c.y - x.y) + 2 * aw * a.y,
             aa * (2 * c.z - x.z) + 2 * aw * a.z};
  return {x, k1, k2, aa};
}

/// W x(u) (as [0..2]) and W (as [3]) for given g and s, in T (a number, or a
/// polynomial in u with Scalar * T defined).
template <class V, class T>
std::array<T, 4> rotate(const RotationTerms<V>& k, const T& g, const T& s) {
  const T gg = g * g, gs = g * s, ss = s * s;
  return {T(k.x.x * gg + k.k1.x * gs + k.k2.x * ss), T(k.x.y * gg + k.k1.y * gs + k.k2.y * ss),
          T(k.x.z * gg + k.k1.z * gs + k.k2.z * ss), T(gg + k.aa * ss)};
}

/// inverse() of rigid_motion.hpp for RigidMotion and RationalRigidMotion:
/// the translation, or the axis, negated.
template <class Motion>
Motion inverse_motion(Motion m) {
  auto& v = m.type == RigidMotionType::translation ? m.translation : m.axis;
  v = {-v.x, -v.y, -v.z};
  return m;
}

/// relative_to_still() of rigid_ccd.hpp for RigidQuery and RationalRigidQuery.
template <class Query>
Query relative_to_still_of(Query q) {
  if (q.mover == Mover::second) q.motion = inverse_motion(q.motion);
  q.mover = Mover::first;
  return q;
}

}  // namespace simdccd::rigid
