// Support functions of the convex shapes in body space (convex/shape.hpp),
// shared by the public support() and GJK's inner loop. Internal.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "common/vec3_math.hpp"
#include "simdccd/convex/shape.hpp"

namespace simdccd::convex {

/// r d/|d|, zero for d = 0; scaled first by 2^600 or 2^-600 (exact) where
/// |d|^2 would under- or overflow: the rule of GJK's lanes (gjk_kernel-inl.h).
inline Vec3 scaled_to(Vec3 d, double r) {
  const double m = max_abs(d);
  if (m == 0) return {};
  if (m < 0x1p-500) d = 0x1p600 * d;
  if (m > 0x1p500) d = 0x1p-600 * d;
  const double k = r / std::sqrt(dot(d, d));
  return k * d;
}

/// A posed capsule's core end: apply(pose, -h z) (end 0) or apply(pose, +h z)
/// (end 1); GJK's support points and the judge's core (world_core) both.
inline Vec3 capsule_end(const ConvexShape& capsule, const Pose& pose, int end) {
  return apply(pose, {0, 0, end == 0 ? -capsule.half_height : capsule.half_height});
}

/// The box vertex of largest d . v, ties to the lowest index (bit i set when d_i > 0).
inline SupportPoint box_support(const Vec3& half, const Vec3& d) {
  const std::uint32_t i = (d.x > 0 ? 1u : 0u) | (d.y > 0 ? 2u : 0u) | (d.z > 0 ? 4u : 0u);
  return {box_vertex(half, i), i};
}

/// The PA199 slides' cylinder support: r d_xy/|d_xy| + sign(d_z) h z.
inline Vec3 cylinder_support(double r, double h, const Vec3& d) {
  const Vec3 xy = scaled_to({d.x, d.y, 0}, r);
  return {xy.x, xy.y, d.z > 0 ? h : (d.z < 0 ? -h : 0.0)};
}

/// The vertex of largest d . v (first of equals), by a linear scan.
inline SupportPoint polytope_support(const Vec3* v, std::size_t n, const Vec3& d) {
  std::size_t best = 0;
  double best_dot = dot(v[0], d);
  for (std::size_t i = 1; i < n; ++i) {  // selects, not branches: the winner is unpredictable
    const double s = dot(v[i], d);
    const bool better = s > best_dot;
    best = better ? i : best;
    best_dot = better ? s : best_dot;
  }
  return {v[best], static_cast<std::uint32_t>(best)};
}

}  // namespace simdccd::convex
