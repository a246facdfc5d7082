// What the tile I/O of both models (linear/tile_io.cpp, spacetime/tile_io.cpp)
// shares: gathering an indexed query's vertices from the mesh into a tile, and
// reading a tile entry back. Both tiles hold `coord[3 * (4 * time + point) +
// axis]`. Internal to the library.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/query.hpp"
#include "simdccd/simd/tile.hpp"

namespace simdccd::simd {

/// The number of vertices that have both positions.
inline std::size_t vertex_count(const IndexedQueries& queries) {
  return std::min(queries.x0.size(), queries.x1.size());
}

/// The four vertex indices of pair `n` (VF: the vertex, then the face's three;
/// EE: each edge's two), -1 where the vertex or the face or edge is out of
/// range. (The face's and edges' vertex indices are checked by gather_point.)
inline void query_vertices(const IndexedQueries& queries, std::size_t n, std::size_t vertices,
                           std::int64_t (&v)[4]) {
  const auto [first, second] = queries.pairs[n];
  for (std::int64_t& index : v) index = -1;
  if (queries.type == QueryType::vertex_face) {
    if (first >= 0 && static_cast<std::size_t>(first) < vertices) v[0] = first;
    if (second >= 0 && static_cast<std::size_t>(second) < queries.faces.size()) {
      for (int j = 0; j < 3; ++j) v[j + 1] = queries.faces[second][j];
    }
  } else {
    for (int e = 0; e < 2; ++e) {
      const std::int32_t edge = e == 0 ? first : second;
      if (edge < 0 || static_cast<std::size_t>(edge) >= queries.edges.size()) continue;
      v[2 * e] = queries.edges[edge][0];
      v[2 * e + 1] = queries.edges[edge][1];
    }
  }
}

/// Writes vertex `index`'s positions at times 0 and 1 to point `point` of
/// entry i of a tile's coordinates; NaN where the index is out of range, so
/// the kernel reports the query as invalid input.
inline void gather_point(const IndexedQueries& queries, std::size_t vertices, std::int64_t index,
                         double (&coord)[24][kTileSize], int point, std::size_t i) {
  const int k = 3 * point;
  if (index < 0 || static_cast<std::size_t>(index) >= vertices) [[unlikely]] {
    for (int c = 0; c < 3; ++c) coord[k + c][i] = coord[k + 12 + c][i] = NAN;
    return;
  }
  // Six doubles read before any store (a store to the tile could alias the
  // mesh), as scalars: GCC 12 copied a whole Vec3 through the stack, and a
  // select between the mesh and a NaN point kept that point on the stack.
  const Vec3 &a = queries.x0[index], &b = queries.x1[index];
  const double ax = a.x, ay = a.y, az = a.z, bx = b.x, by = b.y, bz = b.z;
  coord[k][i] = ax, coord[k + 1][i] = ay, coord[k + 2][i] = az;
  coord[k + 12][i] = bx, coord[k + 13][i] = by, coord[k + 14][i] = bz;
}

/// Coordinate k of tile entry i as the caller gave it (undoing scale_up_query:
/// exact). Tile, spacetime::Tile or spacetime::PlanarTile.
template <class TileT>
double caller_coordinate(const TileT& tile, int k, std::size_t i) {
  return std::ldexp(tile.coord[k][i], -tile.scale[i]);
}

/// The query of tile entry i, its points in tile order (Tile or spacetime::Tile).
template <class TileT>
Query query_of(const TileT& tile, std::size_t i) {
  Query q;
  for (int p = 0; p < 8; ++p) {
    q.points[p] = {caller_coordinate(tile, 3 * p, i), caller_coordinate(tile, 3 * p + 1, i),
                   caller_coordinate(tile, 3 * p + 2, i)};
  }
  return q;
}

}  // namespace simdccd::simd
