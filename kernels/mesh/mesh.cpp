#include "simdccd/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "simdccd/io/ply.hpp"

namespace simdccd {

std::vector<Edge> extract_edges(std::span<const Triangle> faces) {
  // Keyed (b, a) so that one integer sort gives the data set's order.
  std::vector<std::uint64_t> keys;
  keys.reserve(3 * faces.size());
  for (const Triangle& f : faces) {
    for (int k = 0; k < 3; ++k) {
      const auto [lo, hi] = std::minmax(f[k], f[(k + 1) % 3]);
      keys.push_back(std::uint64_t(std::uint32_t(hi)) << 32 | std::uint32_t(lo));
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<Edge> edges(keys.size());
  std::transform(keys.begin(), keys.end(), edges.begin(), [](std::uint64_t k) {
    return Edge{std::int32_t(k & 0xffffffffu), std::int32_t(k >> 32)};
  });
  return edges;
}

void check_indices(const Mesh& mesh) {
  if (mesh.x0.size() != mesh.x1.size()) {
    throw std::invalid_argument("mesh: " + std::to_string(mesh.x0.size()) + " vertices at t=0 but " +
                                std::to_string(mesh.x1.size()) + " at t=1");
  }
  const auto check = [&](const char* element, std::size_t j, std::span<const std::int32_t> vertices) {
    for (const std::int32_t v : vertices) {
      if (v < 0 || std::size_t(v) >= mesh.x0.size()) {
        throw std::invalid_argument("mesh: " + std::string(element) + " " + std::to_string(j) + " has vertex index " +
                                    std::to_string(v) + ", out of range");
      }
    }
  };
  for (std::size_t j = 0; j < mesh.faces.size(); ++j) check("face", j, mesh.faces[j]);
  for (std::size_t k = 0; k < mesh.edges.size(); ++k) check("edge", k, mesh.edges[k]);
}

Mesh make_mesh(std::vector<Vec3> x0, std::vector<Vec3> x1, std::vector<Triangle> faces) {
  Mesh mesh{std::move(x0), std::move(x1), std::move(faces), {}};
  check_indices(mesh);  // before extract_edges, which needs indices >= 0
  const auto finite = [](const Vec3& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
  };
  for (const auto* positions : {&mesh.x0, &mesh.x1}) {
    if (const auto it = std::find_if_not(positions->begin(), positions->end(), finite);
        it != positions->end()) {
      throw std::invalid_argument("mesh: vertex " + std::to_string(it - positions->begin()) +
                                  " has a non-finite coordinate");
    }
  }
  mesh.edges = extract_edges(mesh.faces);
  return mesh;
}

void transform(Mesh& mesh, const Pose& pose) {
  for (std::vector<Vec3>* frame : {&mesh.x0, &mesh.x1}) {
    for (Vec3& p : *frame) p = apply(pose, p);
  }
}

Mesh read_mesh(const std::filesystem::path& frame0, const std::filesystem::path& frame1) {
  PlyMesh a = read_ply(frame0);
  PlyMesh b = read_ply(frame1);
  const std::string files = frame0.string() + " and " + frame1.string();
  if (a.vertices.size() != b.vertices.size()) {
    throw std::invalid_argument(files + ": vertex counts differ (" +
                                std::to_string(a.vertices.size()) + " and " +
                                std::to_string(b.vertices.size()) + ")");
  }
  if (a.faces != b.faces) throw std::invalid_argument(files + ": the faces differ");
  return make_mesh(std::move(a.vertices), std::move(b.vertices), std::move(a.faces));
}

}  // namespace simdccd
