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

/// Copies queries [begin, begin + count) into the tile (count <= kTileSize).
void load_tile(const SoaQueries& queries, std::size_t begin, std::size_t count, Tile& tile);
/// Gathers them; a pair with an index out of range gets NaN coordinates, so
/// the kernel reports it as invalid input.
void load_tile(const IndexedQueries& queries, std::size_t begin, std::size_t count, Tile& tile);

/// Writes the answers of a decided tile to entries [begin, begin + count) of
/// `out`. Uncertain queries become hits (conservative) or go to the exact
/// oracle (exact); in oracle mode every query goes to the oracle and the
/// tile need not have been decided.
BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, const BatchResults& out,
                      std::size_t begin);

/// The loop over tiles that every entry shares.
template <class Queries>
BatchStats run_tiles(const Queries& queries, const Options& options, const BatchResults& out,
                     std::size_t begin, std::size_t end, TileFunction decide) {
  return simd::for_each_tile<Tile>(queries, options, begin, end, decide, [&](const Tile& tile, std::size_t first) {
    return store_tile(tile, queries.type, options.mode, out, first);
  });
}

}  // namespace simdccd::linear
