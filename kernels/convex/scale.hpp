// A query run at 2^k times its size, exactly: GJK (gjk.cpp) and the time of
// impact (time_of_impact.cpp) bring a tiny query up to lengths near 1, where
// their squares of lengths neither underflow nor lose bits: its shapes,
// poses, motions and paths scaled, and the GJK answer's lengths back. Internal.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "common/vec3_math.hpp"
#include "convex/gjk_valid.hpp"
#include "simdccd/convex/gjk.hpp"
#include "simdccd/convex/shape.hpp"
#include "simdccd/pose.hpp"
#include "simdccd/rigid_motion.hpp"

namespace simdccd::convex {

/// k such that a query whose largest length is max(lengths) runs at 2^k times
/// its size: 0, or where that is below kTinyPair (and not 0) the k that
/// brings it to [1, 2).
inline int query_scale(std::initializer_list<double> lengths) {
  const double m = std::max(lengths);
  return m < kTinyPair ? unit_exponent(m) : 0;
}

/// The largest magnitude of a shape's defining numbers (sizes, half extents,
/// vertex coordinates): at most its reach, at least half of it.
inline double largest_coordinate(const ConvexShape& s) {
  switch (s.kind) {
    case ShapeKind::sphere:
      return s.radius;
    case ShapeKind::box:
      return max_abs(s.half);
    case ShapeKind::capsule:
    case ShapeKind::cylinder:
      return std::max(s.radius, s.half_height);
    case ShapeKind::polytope: {
      double m = 0;
      for (const Vec3& v : s.vertices) m = std::max(m, max_abs(v));
      return m;
    }
  }
  return 0;
}

/// s at 2^k times its size (exact while nothing leaves the normal range).
inline ConvexShape scaled(ConvexShape s, int k) {
  s.radius = std::ldexp(s.radius, k);
  s.half_height = std::ldexp(s.half_height, k);
  s.half = ldexp(s.half, k);
  for (Vec3& v : s.vertices) v = ldexp(v, k);
  return s;
}

/// p translated to 2^k times its place (the rotation stays).
inline Pose scaled(const Pose& p, int k) { return {p.R, ldexp(p.x, k)}; }

/// A motion's lengths (displacement, center) times 2^k; its axis and
/// tan_half are no lengths.
inline RigidMotion scaled(RigidMotion m, int k) {
  m.translation = ldexp(m.translation, k);
  m.center = ldexp(m.center, k);
  return m;
}

/// A path's lengths (start, velocity) times 2^k; axis and angle stay.
inline RigidPath scaled(RigidPath p, int k) {
  p.start.x = ldexp(p.start.x, k);
  p.velocity = ldexp(p.velocity, k);
  return p;
}

/// The lengths of a GJK answer (distance, bounds, tolerance, points, warm
/// direction) times 2^k: a scaled query's answer brought back.
inline void scale_lengths(GjkResult& r, int k) {
  r.distance = std::ldexp(r.distance, k);
  r.lower_bound = std::ldexp(r.lower_bound, k);
  r.tolerance = std::ldexp(r.tolerance, k);
  r.point_a = ldexp(r.point_a, k);
  r.point_b = ldexp(r.point_b, k);
  r.warm.direction = ldexp(r.warm.direction, k);
}

}  // namespace simdccd::convex
