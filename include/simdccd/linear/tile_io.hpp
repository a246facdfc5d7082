// Moving queries into tiles and answers out of them: the part of every batch
// entry (dispatched, xsimd) that is not vector math.
#pragma once

#include <cstddef>

#include "simdccd/linear/tile.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/simd/tile_loop.hpp"

namespace simdccd::linear {

/// A kernel instantiation: decides a loaded tile.
using TileFunction = void (*)(Tile& tile, double tolerance);
/// The minimum-separation kernel (separation-inl.h): decides a loaded tile
/// for Options::min_distance > 0.
using SeparationFunction = void (*)(Tile& tile, double tolerance, double min_distance);

/// Copies queries [begin, begin + count) into the tile (count <= kTileSize).
void load_tile(const SoaQueries& queries, std::size_t begin, std::size_t count, Tile& tile);
/// Gathers them; a pair with an index out of range gets NaN coordinates, so
/// the kernel reports it as invalid input.
void load_tile(const IndexedQueries& queries, std::size_t begin, std::size_t count, Tile& tile);

/// Writes the answers of a decided tile to entries [begin, begin + count) of
/// `out`. Uncertain queries become hits (conservative) or go to the exact
/// oracle (exact); in oracle mode every query goes to the oracle and the
/// tile need not have been decided.
/// With min_distance > 0 the oracle decides minimum separation.
BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, double min_distance, const BatchResults& out,
                      std::size_t begin);

/// The loop over tiles that every entry shares: `decide` for contact,
/// `separate` for Options::min_distance > 0 (invalid_input for every query
/// when the options are not valid_options).
template <class Queries>
BatchStats run_tiles(const Queries& queries, const Options& options, const BatchResults& out,
                     std::size_t begin, std::size_t end, TileFunction decide, SeparationFunction separate) {
  if (!valid_options(options)) return simd::all_invalid(out, begin, end);
  const double d = options.min_distance;
  const auto store = [&](const Tile& tile, std::size_t first) {
    return store_tile(tile, queries.type, options.mode, d, out, first);
  };
  if (d == 0) return simd::for_each_tile<Tile>(queries, options, begin, end, decide, store);
  return simd::for_each_tile<Tile>(
      queries, options, begin, end, [&](Tile& tile, double tolerance) { separate(tile, tolerance, d); }, store);
}

}  // namespace simdccd::linear
