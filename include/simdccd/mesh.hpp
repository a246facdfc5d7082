// A triangle mesh over one time step: vertex positions at t=0 and t=1 and the
// (fixed) triangles, with the edges and element ids of the simulation data set.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "simdccd/pose.hpp"
#include "simdccd/query.hpp"

namespace simdccd {

using Triangle = std::array<std::int32_t, 3>;
using Edge = std::array<std::int32_t, 2>;  ///< oriented a -> b with a < b

struct Mesh {
  std::vector<Vec3> x0, x1;      ///< vertex positions at t=0 and t=1 (same count)
  std::vector<Triangle> faces;   ///< vertex indices, in file order
  std::vector<Edge> edges;       ///< `extract_edges(faces)`
};

/// The unique undirected edges (a, b), a <= b, of all faces, sorted by (b, a)
/// ascending: the edge numbering of the simulation data set. a = b only for
/// a face that repeats a vertex: its edge (a, a) is a point, queried as any
/// edge (the kernels and oracles take degenerate edges).
/// Precondition: indices are non-negative.
std::vector<Edge> extract_edges(std::span<const Triangle> faces);

/// Throws std::invalid_argument when the vertex counts at t=0 and t=1 differ
/// or a face or edge names a vertex out of range: every index a step reads
/// (make_mesh and ccd_step both check it).
void check_indices(const Mesh& mesh);

/// A mesh from positions at both ends of the step and its triangles. Throws
/// std::invalid_argument when the vertex counts differ, a face index is out of
/// range, or a coordinate is not finite.
Mesh make_mesh(std::vector<Vec3> x0, std::vector<Vec3> x1, std::vector<Triangle> faces);

/// Reads two PLY frames (io/ply.hpp) of the same mesh: positions at t=0 from
/// the first, at t=1 from the second. Throws ParseError for a malformed file
/// and std::invalid_argument (naming both files) when their vertex counts or
/// faces differ.
Mesh read_mesh(const std::filesystem::path& frame0, const std::filesystem::path& frame1);

/// Moves both frames of `mesh` by the rigid placement `pose` (each position
/// rounded to doubles once): the same motion in another orientation, for
/// checking that answers and costs do not hinge on the axes.
void transform(Mesh& mesh, const Pose& pose);

/// Element ids of the simulation data set (its README): vertex i is i, edge k
/// is nV + k, face j is nV + nE + j.
struct ElementIds {
  std::int64_t vertices = 0, edges = 0, faces = 0;
  explicit ElementIds(const Mesh& mesh)
      : vertices(static_cast<std::int64_t>(mesh.x0.size())),
        edges(static_cast<std::int64_t>(mesh.edges.size())),
        faces(static_cast<std::int64_t>(mesh.faces.size())) {}
  std::int64_t vertex(std::int32_t i) const { return i; }
  std::int64_t edge(std::int32_t k) const { return vertices + k; }
  std::int64_t face(std::int32_t j) const { return vertices + edges + j; }

  /// A pair of the data set's ids in mesh indices: VF [vertex id, face id] ->
  /// (vertex, face); EE [edge id, edge id] -> (edge, edge), ascending, as the
  /// broad phase lists candidates. Nullopt when the ids are no such pair here.
  std::optional<std::array<std::int32_t, 2>> mesh_pair(QueryType type, std::int64_t first,
                                                       std::int64_t second) const {
    const bool vf = type == QueryType::vertex_face;
    const std::int64_t a = vf ? first : std::min(first, second) - edge(0);
    const std::int64_t b = vf ? second - face(0) : std::max(first, second) - edge(0);
    const bool in_range = a >= 0 && b >= 0 && (vf ? a < vertices && b < faces : b < edges);
    if (!in_range) return std::nullopt;
    return std::array<std::int32_t, 2>{static_cast<std::int32_t>(a), static_cast<std::int32_t>(b)};
  }
};

}  // namespace simdccd
