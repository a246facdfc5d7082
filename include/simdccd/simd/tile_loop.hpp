// The loop over tiles that every batch entry shares (the run_tiles of
// linear/tile_io.hpp, spacetime/tile_io.hpp and kernels/rigid/tile_io.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/simd/tile.hpp"

namespace simdccd::simd {

/// Asks for queries [first, first + count) in the cache ahead of their
/// tile's load. A tile reads 24 arrays, more streams than the hardware
/// prefetchers keep up with; asked one tile ahead, the lines come while the
/// tile before is decided.
inline void prefetch_queries(const SoaQueries& queries, std::size_t first, std::size_t count) {
  for (const double* c : queries.coord) {
    for (std::size_t i = 0; i < count; i += 8) __builtin_prefetch(c + first + i);
    __builtin_prefetch(c + first + count - 1);  // the last line of an unaligned array
  }
}
/// Other queries (gathered by index): nothing.
template <class Queries>
void prefetch_queries(const Queries&, std::size_t, std::size_t) {}

/// Loads queries [begin, end) tile by tile (`load_tile(queries, first, count,
/// tile)`, found by argument-dependent lookup), decides each tile with
/// `decide(tile, options.time_tolerance)` unless the mode is oracle, and
/// writes its answers with `store(tile, first)`, which returns the tile's
/// BatchStats.
template <class TileT, class Queries, class Decide, class Store>
BatchStats for_each_tile(const Queries& queries, const Options& options, std::size_t begin, std::size_t end,
                         Decide decide, Store store) {
  BatchStats stats;
  TileT tile;
  for (std::size_t first = begin; first < end; first += kTileSize) {
    const std::size_t count = std::min(kTileSize, end - first);
    load_tile(queries, first, count, tile);
    if (end - first > kTileSize) prefetch_queries(queries, first + kTileSize, std::min(kTileSize, end - first - kTileSize));
    if (options.mode != Mode::oracle) decide(tile, options.time_tolerance);
    stats += store(static_cast<const TileT&>(tile), first);
  }
  return stats;
}

/// Answers queries [begin, end) invalid_input (options out of their
/// domain, such as a bad Options::min_distance): every query counted.
inline BatchStats all_invalid(const BatchResults& out, std::size_t begin, std::size_t end) {
  for (std::size_t o = begin; o < end; ++o) {
    out.hit[o] = 0, out.toi[o] = std::numeric_limits<double>::infinity(), out.status[o] = Status::invalid_input;
  }
  BatchStats stats;
  stats.queries = stats.invalid = end - begin;
  return stats;
}

}  // namespace simdccd::simd
