// Moving rigid queries into tiles and answers out of them: the part of the
// batch entries that is not vector math.
#pragma once

#include <cstddef>

#include "simdccd/rigid/tile.hpp"
#include "simdccd/rigid_ccd.hpp"

namespace simdccd::rigid {

/// Copies queries [begin, begin + count) into the tile (count <= kTileSize)
/// in the still primitive's frame (relative_to_still); a mover byte other
/// than 0 and 1 gets a NaN coordinate, so the kernel reports invalid input.
void load_tile(const RigidSoaQueries& queries, std::size_t begin, std::size_t count, Tile& tile);
/// Gathers them from the two bodies; a pair with an index out of range or a
/// mover byte other than 0 and 1 gets NaN coordinates, so the kernel reports
/// it as invalid input.
void load_tile(const RigidIndexedQueries& queries, std::size_t begin, std::size_t count, Tile& tile);

/// The query of tile entry i (in the still primitive's frame).
RigidQuery query_of(const Tile& tile, RigidMotionType motion, std::size_t i);

/// Writes the answers of a decided tile to entries [begin, begin + count) of
/// `out`. Uncertain queries become hits (conservative) or go to the exact
/// oracle (exact); in oracle mode every query goes to the oracle and the
/// tile need not have been decided.
BatchStats store_tile(const Tile& tile, QueryType type, RigidMotionType motion,
                      const RigidOptions& options, const BatchResults& out, std::size_t begin);

/// Whether the options are in their domain: mode and time_tolerance as
/// valid_options (options.hpp), the expel finite, 0 <= e <= 2^60.
bool valid_options(const RigidOptions& options);

/// The loop over tiles that every entry shares: load, decide with `decide`
/// (unless the mode is oracle), store. Options that are not valid_options
/// make every query invalid input.
template <class Queries>
BatchStats run_tiles(const Queries& queries, RigidMotionType motion, const RigidOptions& options,
                     const BatchResults& out, std::size_t begin, std::size_t end, TileFunction decide);

}  // namespace simdccd::rigid
