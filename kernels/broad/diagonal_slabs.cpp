// DiagonalSlabs of a mesh (broad_phase.hpp).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "broad/blocks.hpp"
#include "simdccd/broad_phase.hpp"
#include "simdccd/simd/error_bounds.hpp"

namespace simdccd {

namespace broad {
namespace {

// Direction k is x[kFirst[k]] + kSign[k] x[kSecond[k]]: x+y, x-y, y+z, y-z, z+x, z-x.
constexpr int kFirst[DiagonalSlabs::kDirections] = {0, 0, 1, 1, 2, 2};
constexpr int kSecond[DiagonalSlabs::kDirections] = {1, 1, 2, 2, 0, 0};
constexpr double kSign[DiagonalSlabs::kDirections] = {1, -1, 1, -1, 1, -1};

// A vertex's slabs, without branches (their outcomes are data): the
// interval in doubles, then a relative margin of 2^-22 of the magnitudes
// (plus 2^-140) that covers the projection's and the widening's roundings
// (2^-52 of them) and the rounding to float (2^-24 of the value, 2^-150
// among subnormals); an end beyond the floats' range becomes infinite.
void vertex_slabs(const Vec3& a, const Vec3& b, double widen, std::array<float, 2 * DiagonalSlabs::kDirections>& out) {
  constexpr int n = DiagonalSlabs::kDirections;
  const double p[3] = {a.x, a.y, a.z}, q[3] = {b.x, b.y, b.z};
  constexpr double inf = std::numeric_limits<double>::infinity();
  bool in_domain = true;  // false also for NaN
  for (int k = 0; k < 3; ++k) {
    in_domain &= (std::abs(p[k]) <= simd::kMaxCoordinate) & (std::abs(q[k]) <= simd::kMaxCoordinate);
  }
  for (int k = 0; k < n; ++k) {
    const double s = p[kFirst[k]] + kSign[k] * p[kSecond[k]], t = q[kFirst[k]] + kSign[k] * q[kSecond[k]];
    const double low = std::min(s, t), high = std::max(s, t);
    const double lo = low - widen - ((std::abs(low) + widen) * 0x1p-22 + 0x1p-140);
    const double hi = high + widen + ((std::abs(high) + widen) * 0x1p-22 + 0x1p-140);
    out[k] = static_cast<float>(in_domain && lo >= -FLT_MAX ? lo : -inf);
    out[n + k] = static_cast<float>(in_domain && hi <= FLT_MAX ? hi : inf);
  }
}

// An element's slabs: the hull of its vertices' (rounding outwards is monotone).
template <class Corners>
void element_slabs(const Corners& corners, const DiagonalSlabs& v, std::array<float, 2 * DiagonalSlabs::kDirections>& out) {
  constexpr int n = DiagonalSlabs::kDirections;
  out = v.bounds[corners[0]];
  for (std::size_t c = 1; c < corners.size(); ++c) {
    const auto& b = v.bounds[corners[c]];
    for (int k = 0; k < n; ++k) out[k] = std::min(out[k], b[k]), out[n + k] = std::max(out[n + k], b[n + k]);
  }
}

}  // namespace
}  // namespace broad

void compute_diagonal_slabs(const Mesh& mesh, double margin, MeshBoxes& out) {
  const std::size_t n = std::min(mesh.x0.size(), mesh.x1.size());
  const double widen = 2 * margin;  // >= sqrt 2 margin, a direction's length
  out.vertex_slabs.bounds.resize(n);
  out.edge_slabs.bounds.resize(mesh.edges.size());
  out.face_slabs.bounds.resize(mesh.faces.size());
  using broad::for_each_block;
  for_each_block(n, [&](std::size_t v) { broad::vertex_slabs(mesh.x0[v], mesh.x1[v], widen, out.vertex_slabs.bounds[v]); });
  for_each_block(mesh.edges.size(), [&](std::size_t e) {
    broad::element_slabs(mesh.edges[e], out.vertex_slabs, out.edge_slabs.bounds[e]);
  });
  for_each_block(mesh.faces.size(), [&](std::size_t f) {
    broad::element_slabs(mesh.faces[f], out.vertex_slabs, out.face_slabs.bounds[f]);
  });
}

}  // namespace simdccd
