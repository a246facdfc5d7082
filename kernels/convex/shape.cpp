// Convex shapes, their supports and feature ids (convex/shape.hpp).
#include "simdccd/convex/shape.hpp"

#include <algorithm>
#include <cmath>

#include "common/vec3_math.hpp"
#include "convex/gjk_valid.hpp"
#include "convex/support.hpp"

namespace simdccd::convex {
namespace {

bool size_ok(double s) { return std::isfinite(s) && s > 0 && s <= max_magnitude; }
bool coordinate_ok(double c) { return std::abs(c) <= max_magnitude; }  // false for NaN and infinities

}  // namespace

ConvexShape sphere(double radius) {
  ConvexShape s;
  s.kind = ShapeKind::sphere;
  s.radius = radius;
  return s;
}

ConvexShape box(const Vec3& half_extents) {
  ConvexShape s;
  s.kind = ShapeKind::box;
  s.half = half_extents;
  return s;
}

ConvexShape capsule(double radius, double half_height) {
  return {ShapeKind::capsule, radius, half_height, {}, {}};
}

ConvexShape cylinder(double radius, double half_height) {
  return {ShapeKind::cylinder, radius, half_height, {}, {}};
}

ConvexShape polytope(std::vector<Vec3> vertices) {
  ConvexShape s;
  s.kind = ShapeKind::polytope;
  s.vertices = std::move(vertices);
  return s;
}

bool is_valid(const ConvexShape& shape) {
  switch (shape.kind) {
    case ShapeKind::sphere:
      return size_ok(shape.radius);
    case ShapeKind::box:
      return size_ok(shape.half.x) && size_ok(shape.half.y) && size_ok(shape.half.z);
    case ShapeKind::capsule:
    case ShapeKind::cylinder:
      return size_ok(shape.radius) && size_ok(shape.half_height);
    case ShapeKind::polytope:
      if (shape.vertices.empty() || shape.vertices.size() > max_polytope_vertices) return false;
      for (const Vec3& v : shape.vertices) {
        if (!coordinate_ok(v.x) || !coordinate_ok(v.y) || !coordinate_ok(v.z)) return false;
      }
      return true;
  }
  return false;
}

bool is_valid(const Pose& pose) {
  return is_rotation(pose.R) && coordinate_ok(pose.x.x) && coordinate_ok(pose.x.y) && coordinate_ok(pose.x.z) &&
         norm(pose.x) <= max_magnitude;
}

double reach(const ConvexShape& shape) {
  switch (shape.kind) {
    case ShapeKind::sphere:
      return shape.radius;
    case ShapeKind::box:
      return norm(shape.half);
    case ShapeKind::capsule:
      return shape.radius + shape.half_height;
    case ShapeKind::cylinder:
      return std::sqrt(shape.radius * shape.radius + shape.half_height * shape.half_height);
    case ShapeKind::polytope: {
      double r2 = 0;
      for (const Vec3& v : shape.vertices) r2 = std::max(r2, dot(v, v));
      return std::sqrt(r2);
    }
  }
  return 0;
}

double checked_reach(const ConvexShape& shape) {
  if (shape.kind != ShapeKind::polytope) return is_valid(shape) ? reach(shape) : NAN;
  if (shape.vertices.empty() || shape.vertices.size() > max_polytope_vertices) return NAN;
  double r2 = 0;
  bool ok = true;
  for (const Vec3& v : shape.vertices) {  // no branch a vertex: a bad one is rare
    ok &= coordinate_ok(v.x) & coordinate_ok(v.y) & coordinate_ok(v.z);
    r2 = std::max(r2, dot(v, v));
  }
  return ok ? std::sqrt(r2) : NAN;
}

Vec3 box_vertex(const Vec3& half, std::uint32_t index) {
  // Indexed, not branched on: support directions are random to the predictor.
  const double x[2] = {-half.x, half.x}, y[2] = {-half.y, half.y}, z[2] = {-half.z, half.z};
  return {x[index & 1], y[(index >> 1) & 1], z[(index >> 2) & 1]};
}

std::vector<Vec3> body_vertices(const ConvexShape& shape) {
  if (shape.kind == ShapeKind::polytope) return shape.vertices;
  std::vector<Vec3> out;
  if (shape.kind == ShapeKind::box) {
    for (std::uint32_t i = 0; i < 8; ++i) out.push_back(box_vertex(shape.half, i));
  }
  return out;
}

std::vector<Vec3> world_vertices(const ConvexShape& shape, const Pose& pose) {
  std::vector<Vec3> out = body_vertices(shape);
  for (Vec3& v : out) v = apply(pose, v);
  return out;
}

std::vector<Vec3> world_core(const ConvexShape& shape, const Pose& pose) {
  switch (shape.kind) {
    case ShapeKind::sphere:
      return {pose.x};
    case ShapeKind::capsule:
      return {capsule_end(shape, pose, 0), capsule_end(shape, pose, 1)};
    default:
      return world_vertices(shape, pose);
  }
}

double core_radius(const ConvexShape& shape) {
  return shape.kind == ShapeKind::sphere || shape.kind == ShapeKind::capsule ? shape.radius : 0;
}

SupportPoint support(const ConvexShape& shape, const Vec3& d) {
  switch (shape.kind) {
    case ShapeKind::sphere:
      return {scaled_to(d, shape.radius), 0};
    case ShapeKind::box:
      return box_support(shape.half, d);
    case ShapeKind::capsule: {
      const std::uint32_t end = d.z > 0 ? 1 : 0;
      const Vec3 s = scaled_to(d, shape.radius);
      return {{s.x, s.y, (end != 0 ? shape.half_height : -shape.half_height) + s.z}, end};
    }
    case ShapeKind::cylinder:
      return {cylinder_support(shape.radius, shape.half_height, d), no_vertex};
    case ShapeKind::polytope:
      if (shape.vertices.empty()) return {};
      return polytope_support(shape.vertices.data(), shape.vertices.size(), d);
  }
  return {};
}

SupportPoint support(const ConvexShape& shape, const Pose& pose, const Vec3& d) {
  SupportPoint s = support(shape, transpose_times(pose.R, d));
  s.point = apply(pose, s.point);
  return s;
}

std::uint64_t edge_index(std::uint32_t i, std::uint32_t j) {
  const std::uint64_t lo = std::min(i, j), hi = std::max(i, j);
  return lo | hi << 21;
}

std::uint64_t face_index(std::uint32_t i, std::uint32_t j, std::uint32_t k) {
  std::uint64_t v[3] = {i, j, k};
  std::sort(v, v + 3);
  return v[0] | v[1] << 21 | v[2] << 42;
}

std::size_t FeatureIdHash::operator()(const FeatureId& f) const noexcept {
  // splitmix64's finalizer over the index and type.
  std::uint64_t h = f.index * 4 + static_cast<std::uint64_t>(f.type) + 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::size_t>(h ^ (h >> 31));
}

}  // namespace simdccd::convex
