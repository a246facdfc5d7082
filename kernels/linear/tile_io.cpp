#include "simdccd/linear/tile_io.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "common/indexed_gather.hpp"
#include "simdccd/exact_oracle.hpp"

namespace simdccd::linear {

using simd::gather_point;
using simd::is_verdict;
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

BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, const BatchResults& out,
                      std::size_t begin) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  BatchStats stats;
  stats.queries = tile.count;
  bool candidate[kTileSize] = {};
  if (mode != Mode::oracle) {
    for (std::size_t c = 0; c < tile.candidates; ++c) candidate[tile.index[c]] = true;
    stats.root_stage = tile.candidates;
  }
  for (std::size_t i = 0; i < tile.count; ++i) {
    const std::size_t o = begin + i;
    const double verdict = tile.verdict[i];
    bool hit = false;
    double toi = kNever;
    Status status = Status::certified;
    if (mode == Mode::oracle || (mode == Mode::exact && is_verdict(verdict, Verdict::uncertain))) {
      const Result r = exact_ccd(type, query_of(tile, i));
      hit = r.hit, toi = r.toi_lo, status = r.status;
      stats.uncertain += mode != Mode::oracle;
    } else if (is_verdict(verdict, Verdict::invalid)) {
      status = Status::invalid_input;
    } else if (is_verdict(verdict, Verdict::uncertain)) {
      hit = true, toi = tile.toi[i], status = Status::uncertain;
      ++stats.uncertain;
    } else if (is_verdict(verdict, Verdict::hit)) {
      hit = true, toi = tile.toi[i];
    } else if (!candidate[i]) {
      ++stats.screened_out;
    }
    stats.invalid += status == Status::invalid_input;
    stats.hits += hit;
    out.hit[o] = hit;
    out.toi[o] = toi;
    out.status[o] = status;
  }
  return stats;
}

}  // namespace simdccd::linear
