// Convex shapes and poses decoded from a fuzzer's bytes, shared by fuzz_gjk
// and fuzz_toi: points on a grid of small integers times a power of two
// (exact contacts, flat, collinear and repeated points come up often) or raw
// doubles; poses the identity, an exact signed axis permutation or a
// quaternion's rotation, translated on the grid, a quarter of them far from
// the origin against the shapes' size; print_pair writes a failing pair out.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "hard_queries.hpp"
#include "simdccd/convex/shape.hpp"
#include "simdccd/pose.hpp"

namespace simdccd::fuzz {

using test::Entropy;

inline double grid_value(Entropy& e, double scale) { return e.range(-8, 8) * scale; }

inline std::vector<Vec3> decode_points(Entropy& e, int count, int flavour, double scale) {
  std::vector<Vec3> points(static_cast<std::size_t>(count));
  for (Vec3& p : points) {
    if (flavour == 1) {
      double c[3];
      for (double& x : c) {
        const std::uint64_t bits = e.bits(64);
        std::memcpy(&x, &bits, sizeof x);
      }
      p = {c[0], c[1], c[2]};
    } else {
      p = {grid_value(e, scale), grid_value(e, scale), grid_value(e, scale)};
    }
  }
  return points;
}

inline Pose decode_pose(Entropy& e, double scale) {
  Pose pose;
  switch (e.range(0, 2)) {
    case 0: break;
    case 1: {  // a signed permutation of the axes with determinant +1: exact
      static constexpr int kPermutations[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}};
      const int k = e.range(0, 5);
      const double s0 = e.chance(1, 2) ? -1 : 1, s1 = e.chance(1, 2) ? -1 : 1;
      const double s2 = (k < 3 ? 1 : -1) * s0 * s1;  // the odd permutations flip the sign
      pose.R = {};
      pose.R[kPermutations[k][0]] = s0;
      pose.R[3 + kPermutations[k][1]] = s1;
      pose.R[6 + kPermutations[k][2]] = s2;
      break;
    }
    default: {
      double q[4];
      for (double& c : q) c = e.range(-127, 127);
      const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
      if (n == 0) break;
      pose.R = quaternion_rotation(q[0] / n, q[1] / n, q[2] / n, q[3] / n);
    }
  }
  // Sometimes far from the origin against the shapes' size: posing then rounds
  // the vertices by more than a tolerance relative to the size alone.
  const double offset = scale * std::ldexp(1.0, e.chance(1, 4) ? e.range(1, 50) : 0);
  pose.x = {grid_value(e, offset), grid_value(e, offset), grid_value(e, offset)};
  return pose;
}

/// The shape of `kind` (0 polytope, 1 sphere, 2 capsule, 3 box) from the decoded points.
inline convex::ConvexShape decode_shape(int kind, const std::vector<Vec3>& points, double scale) {
  const Vec3 size{std::abs(points[0].x) + scale / 8, std::abs(points[0].y) + scale / 8,
                  std::abs(points[0].z) + scale / 8};
  switch (kind) {
    case 1: return convex::sphere(size.x);
    case 2: return convex::capsule(size.x, size.y);
    case 3: return convex::box(size);
    default: return convex::polytope(points);
  }
}

/// Both shapes and poses to stderr in hexadecimal floats (a failing input).
inline void print_pair(const convex::ConvexShape& a, const Pose& pa, const convex::ConvexShape& b, const Pose& pb) {
  for (const auto& [name, s, p] : {std::tuple{"a", &a, &pa}, std::tuple{"b", &b, &pb}}) {
    std::fprintf(stderr, "%s: kind %d radius %a half_height %a half (%a %a %a); R", name, static_cast<int>(s->kind),
                 s->radius, s->half_height, s->half.x, s->half.y, s->half.z);
    for (double r : p->R) std::fprintf(stderr, " %a", r);
    std::fprintf(stderr, " x %a %a %a; vertices", p->x.x, p->x.y, p->x.z);
    for (const Vec3& q : s->vertices) std::fprintf(stderr, " (%a %a %a)", q.x, q.y, q.z);
    std::fprintf(stderr, "\n");
  }
}

}  // namespace simdccd::fuzz
