// Moving space-time queries into tiles and answers out of them: the part of
// every space-time batch entry that is not vector math.
#pragma once

#include <cstddef>

#include "simdccd/simd/tile_loop.hpp"
#include "simdccd/spacetime/tile.hpp"
#include "simdccd/spacetime_ccd.hpp"

namespace simdccd::spacetime {

/// SoaQueries with their ids.
struct IdentifiedQueries {
  const SoaQueries& queries;
  const SpacetimeIdArrays& ids;
  QueryType type() const { return queries.type; }
};

/// Copies queries [begin, begin + count) into the tile (count <= kTileSize),
/// each primitive's vertices put in id order.
void load_tile(const IdentifiedQueries& queries, std::size_t begin, std::size_t count, Tile& tile);
/// Gathers them (ids: the vertex indices); a pair with an index out of range
/// gets NaN coordinates, so the kernel reports it as invalid input.
void load_tile(const IndexedQueries& queries, std::size_t begin, std::size_t count, Tile& tile);

/// Writes the answers of a decided tile to entries [begin, begin + count) of
/// `out`. Uncertain queries become hits (conservative) or go to the exact
/// oracle (exact); in oracle mode every query goes to the oracle and the tile
/// need not have been decided. With `out.wants_contact()`, also the piece and
/// normal, hits with an uncertified piece taken as uncertain (spacetime_ccd.hpp).
BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, const SpacetimeResults& out,
                      std::size_t begin);
inline BatchStats store_tile(const Tile& tile, QueryType type, Mode mode, const BatchResults& out,
                             std::size_t begin) {
  return store_tile(tile, type, mode, SpacetimeResults{out}, begin);
}

/// Answers queries [begin, end) invalid_input, without contact.
BatchStats invalid_answers(const SpacetimeResults& out, std::size_t begin, std::size_t end);

/// valid_options, with Options::min_distance 0: the space-time model decides
/// contact only.
inline bool valid_spacetime_options(const Options& options) {
  return valid_options(options) && options.min_distance == 0;
}

inline QueryType type_of(const IdentifiedQueries& q) { return q.type(); }
inline QueryType type_of(const IndexedQueries& q) { return q.type; }

/// The loop over tiles that every entry shares (Results: BatchResults or
/// SpacetimeResults).
template <class Queries, class Results>
BatchStats run_tiles(const Queries& queries, const Options& options, const Results& out,
                     std::size_t begin, std::size_t end, TileFunction decide) {
  if (!valid_spacetime_options(options)) return invalid_answers(SpacetimeResults{out}, begin, end);
  return simd::for_each_tile<Tile>(queries, options, begin, end, decide, [&](const Tile& tile, std::size_t first) {
    return store_tile(tile, type_of(queries), options.mode, out, first);
  });
}

// The planar case.

/// PlanarSoaQueries with their ids.
struct PlanarIdentifiedQueries {
  const PlanarSoaQueries& queries;
  const PlanarIdArrays& ids;
};

/// Copies queries [begin, begin + count) into the tile, the edge's endpoints in id order.
void load_tile(const PlanarIdentifiedQueries& queries, std::size_t begin, std::size_t count,
               PlanarTile& tile);
/// As store_tile for the planar tile.
BatchStats store_tile(const PlanarTile& tile, Mode mode, const SpacetimeResults& out, std::size_t begin);

template <class Results>
BatchStats run_planar_tiles(const PlanarIdentifiedQueries& queries, const Options& options,
                            const Results& out, std::size_t begin, std::size_t end,
                            PlanarTileFunction decide) {
  if (!valid_spacetime_options(options)) return invalid_answers(SpacetimeResults{out}, begin, end);
  return simd::for_each_tile<PlanarTile>(queries, options, begin, end, decide, [&](const PlanarTile& tile, std::size_t first) {
    return store_tile(tile, options.mode, SpacetimeResults{out}, first);
  });
}

}  // namespace simdccd::spacetime
