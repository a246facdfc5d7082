#pragma once

#include "simdccd/linear/tile_io.hpp"

namespace simdccd::linear {

/// decide_tile instantiated on ScalarLanes.
TileFunction scalar_tile_function(QueryType type);
/// decide_separation_tile instantiated on ScalarLanes.
SeparationFunction scalar_separation_function(QueryType type);

}  // namespace simdccd::linear
