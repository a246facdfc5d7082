// The three simulation steps of tests/data/simulation, as the tests load them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "simdccd/io/pair_json.hpp"
#include "simdccd/mesh.hpp"

namespace simdccd::test {

struct Scene {
  std::string name, frame0, frame1, step;  ///< folder, frame files, step number of the other files
  std::uint64_t vf_candidates, ee_candidates;  ///< swept-box overlaps, as the issue measured them

  std::filesystem::path dir() const {
    return std::filesystem::path(SIMDCCD_TEST_DATA) / "simulation" / name;
  }
  Mesh mesh() const { return read_mesh(dir() / "frames" / frame0, dir() / "frames" / frame1); }
  std::filesystem::path boxes(const char* type) const { return dir() / "boxes" / (step + type + ".json"); }
  std::filesystem::path truth(const char* type) const {
    return dir() / "mma_bool" / (step + type + "_mma_bool.json");
  }
};

inline const std::array<Scene, 3> kScenes = {{
    {"cloth-funnel", "227.ply", "228.ply", "227", 7319, 33770},
    {"rod-twist", "3036.ply", "3037.ply", "3036", 448270, 2041334},
    {"n-body-simulation", "balls16_18.ply", "balls16_19.ply", "18", 9396388, 22366873},
}};

/// A listed pair in mesh indices: VF (vertex, face), EE (edge, edge) ascending.
struct ListedPair {
  std::array<std::int32_t, 2> pair;
  bool collides;
};

/// The pairs of boxes/<step><type>.json with their truth, converted from the
/// data set's element ids (vertex i, edge nV + k, face nV + nE + j).
inline std::vector<ListedPair> listed_pairs(const Scene& scene, const Mesh& mesh, bool vf) {
  const char* type = vf ? "vf" : "ee";
  const std::vector<IdPair> ids = read_pair_list_json(scene.boxes(type));
  const std::vector<std::uint8_t> truth = read_bool_list_json(scene.truth(type));
  const ElementIds e(mesh);
  std::vector<ListedPair> out;
  for (std::size_t k = 0; k < ids.size() && k < truth.size(); ++k) {
    const auto pair = e.mesh_pair(vf ? QueryType::vertex_face : QueryType::edge_edge, ids[k][0], ids[k][1]);
    if (!pair) throw std::runtime_error(scene.boxes(type).string() + ": a pair not of this mesh");
    out.push_back({*pair, truth[k] != 0});
  }
  return out;
}

}  // namespace simdccd::test
