#include "simdccd/shapes.hpp"

#include <gmpxx.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace simdccd {

Polyhedron box(const Vec3& lo, const Vec3& hi) {
  Polyhedron b;
  for (int i = 0; i < 8; ++i) {  // bit 0: x, bit 1: y, bit 2: z
    b.vertices.push_back({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
  }
  // Each face as a quad counter-clockwise seen from outside, cut along one diagonal.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    b.triangles.push_back({q[0], q[1], q[2]});
    b.triangles.push_back({q[0], q[2], q[3]});
  }
  return b;
}

Polyhedron prism(const std::vector<Vec3>& outline, double z0, double z1) {
  Polyhedron p;
  const auto n = static_cast<std::int32_t>(outline.size());
  double cx = 0, cy = 0;
  for (const Vec3& v : outline) cx += v.x / n, cy += v.y / n;
  for (const double z : {z0, z1}) {
    for (const Vec3& v : outline) p.vertices.push_back({v.x, v.y, z});
  }
  const std::int32_t bottom = 2 * n, top = 2 * n + 1;
  p.vertices.push_back({cx, cy, z0});
  p.vertices.push_back({cx, cy, z1});
  for (std::int32_t i = 0; i < n; ++i) {
    const std::int32_t j = (i + 1) % n;
    p.triangles.push_back({i, j, n + j});
    p.triangles.push_back({i, n + j, n + i});
    p.triangles.push_back({top, n + i, n + j});
    p.triangles.push_back({bottom, j, i});
  }
  return p;
}

std::vector<Vec3> gear_outline(double cx, double cy, double root, double tip, int teeth, double phase) {
  std::vector<Vec3> outline;
  const double pitch = 2 * std::numbers::pi / teeth;
  const auto at = [&](double r, double angle) { return Vec3{cx + r * std::cos(angle), cy + r * std::sin(angle), 0}; };
  for (int k = 0; k < teeth; ++k) {
    const double a = phase + k * pitch;
    outline.push_back(at(root, a));
    outline.push_back(at(tip, a + 0.15 * pitch));
    outline.push_back(at(tip, a + 0.35 * pitch));
    outline.push_back(at(root, a + 0.5 * pitch));
  }
  return outline;
}

bool strictly_inside(const Polyhedron& convex, const Vec3& p) {
  using Q = std::array<mpq_class, 3>;
  const auto q = [](const Vec3& v) { return Q{mpq_class(v.x), mpq_class(v.y), mpq_class(v.z)}; };
  const auto minus = [](const Q& a, const Q& b) { return Q{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; };
  const Q x = q(p);
  for (const Triangle& t : convex.triangles) {
    const Q f0 = q(convex.vertices[t[0]]);
    const Q d1 = minus(q(convex.vertices[t[1]]), f0), d2 = minus(q(convex.vertices[t[2]]), f0);
    const Q n{d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
    if (sgn(n[0]) == 0 && sgn(n[1]) == 0 && sgn(n[2]) == 0) continue;
    const Q r = minus(x, f0);
    const mpq_class height = n[0] * r[0] + n[1] * r[1] + n[2] * r[2];
    if (sgn(height) >= 0) return false;
  }
  return true;
}

}  // namespace simdccd
