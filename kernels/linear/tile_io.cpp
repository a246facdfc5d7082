#include "simdccd/linear/tile_io.hpp"

#include <algorithm>
#include <cstdint>

#include "common/indexed_gather.hpp"
#include "common/store_answers.hpp"
#include "simdccd/exact_oracle.hpp"

namespace simdccd::linear {

using simd::gather_point;
using simd::query_of;
using simd::query_vertices;
using simd::vertex_count;

void load_tile(const SoaQueries& queries, std::size_t begin, std::size_t count, Tile& tile) {
  tile.count = count;
  for (int k = 0; k < 24; ++k) std::copy_n(queries.coord[k] + begin, count, tile.coord[k]);
}

void load_tile(const IndexedQueries& queries, std::size_t begin, std::size_t count, Tile& tile) {
  tile.count = count;
  const std::size_t vertices = vertex_count(queries);
  for (std::size_t i = 0; i < count; ++i) {
    std::int64_t v[4];
    query_vertices(queries, begin + i, vertices, v);
    for (int p = 0; p < 4; ++p) gather_point(queries, vertices, v[p], tile.coord, p, i);
  }
}

BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, double min_distance, const BatchResults& out,
                      std::size_t begin) {
  return simd::store_answers(tile, mode, out, begin, [&](std::size_t i) {
    return exact_ccd(type, query_of(tile, i), min_distance);
  });
}

}  // namespace simdccd::linear
