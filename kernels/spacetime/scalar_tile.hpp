#pragma once

#include "simdccd/query.hpp"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::spacetime {

/// decide_tile instantiated on ScalarLanes ("double").
TileFunction scalar_tile_function(QueryType type);
PlanarTileFunction scalar_planar_tile_function();

/// The space-time tile kernel of the active implementation (targets.hpp).
TileFunction active_tile_function(QueryType type);
PlanarTileFunction active_planar_tile_function();

}  // namespace simdccd::spacetime
