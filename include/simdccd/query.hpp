// A continuous collision query under linear trajectories, in doubles.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace simdccd {

struct Vec3 {
  double x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

/// Which primitives a query pairs.
enum class QueryType : std::uint8_t {
  vertex_face,  ///< a moving vertex against a moving triangle (VF)
  edge_edge,    ///< a moving segment against a moving segment (EE)
};

/// "vf" or "ee".
std::string_view to_string(QueryType type);

/// Eight points, the first four at t=0 and the same four at t=1:
/// - vertex-face: v, f0, f1, f2, then v', f0', f1', f2';
/// - edge-edge:   a0, a1, b0, b1, then a0', a1', b0', b1'.
/// Each vertex moves on the straight line from its t=0 to its t=1 position.
/// The query collides when, for some t in the closed interval [0,1], the closed
/// primitives (point and closed triangle; two closed segments) share a point.
struct Query {
  std::array<Vec3, 8> points{};
  friend bool operator==(const Query&, const Query&) = default;
};

/// True when all 24 coordinates are finite (no NaN, no infinity).
bool is_finite(const Query& q);

}  // namespace simdccd
