// Random queries with contacts on an edge, for the kernel tests of both
// motion models (test_linear_kernels.cpp, test_spacetime_kernels.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/splitmix.hpp"
#include "common/vec3_math.hpp"
#include "simdccd/query.hpp"

namespace simdccd::test {

/// `count` queries of `type` whose contacts, if any, lie on an edge: three
/// points share one coordinate exactly all step (equal at t = 0 and at
/// t = 1), a random axis, and the fourth stays strictly off it; one of the
/// three crosses the line of the other two at t = 1/2, inside their segment
/// or past an end. With `in_plane`, the fourth shares the coordinate too: the
/// four lie in one plane all step and their coplanarity cubic vanishes
/// identically. On a dyadic grid, so that every coordinate is exact.
inline std::vector<Query> edge_contact_queries(QueryType type, std::size_t count, std::uint64_t seed,
                                               bool in_plane = false) {
  Random random(seed);
  const auto grid = [&](double range) { return std::ldexp(std::floor(random.uniform() * range * 64), -6); };
  // (mover, segment end, segment end, fourth) of each shared triple.
  constexpr int kVf[3][4] = {{0, 2, 3, 1}, {0, 1, 2, 3}, {0, 3, 1, 2}};
  constexpr int kEe[4][4] = {{1, 2, 3, 0}, {2, 0, 1, 3}, {3, 0, 1, 2}, {0, 2, 3, 1}};
  std::vector<Query> out(count);
  for (Query& q : out) {
    const int* roles = type == QueryType::vertex_face ? kVf[random.next() % 3] : kEe[random.next() % 4];
    const int axis = int(random.next() % 3);
    const double c0 = grid(4), c1 = grid(4), side = random.next() % 2 ? 1 : -1;
    Vec3 p[8];
    for (int time = 0; time < 2; ++time) {
      for (int k = 1; k < 4; ++k) {
        Vec3& x = p[4 * time + roles[k]];
        x = {grid(4), grid(4), grid(4)};
        double& a = axis == 0 ? x.x : axis == 1 ? x.y : x.z;
        a = (time == 0 ? c0 : c1) + (k == 3 && !in_plane ? side * (0.25 + grid(2)) : 0);
      }
    }
    // The mover at t = 1/2 on the segment's line at parameter s, off by d.
    const double s = grid(2) - 0.5;  // in [-1/2, 3/2): inside about two thirds
    Vec3 d{grid(2) - 1, grid(2) - 1, grid(2) - 1};
    (axis == 0 ? d.x : axis == 1 ? d.y : d.z) = 0.5 * (c0 - c1);
    const auto mid = [&](int point) { return 0.5 * (p[point] + p[point + 4]); };
    const Vec3 m = mid(roles[1]) + s * (mid(roles[2]) - mid(roles[1]));
    p[roles[0]] = m + d;
    p[roles[0] + 4] = m - d;
    for (int k = 0; k < 8; ++k) q.points[k] = p[k];
  }
  return out;
}

}  // namespace simdccd::test
