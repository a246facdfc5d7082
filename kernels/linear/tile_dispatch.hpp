// The kernel instantiation that the batch entries use (dispatch/).
#pragma once

#include "simdccd/linear/tile_io.hpp"
#include "simdccd/query.hpp"

namespace simdccd::linear {

/// The tile kernel of the active implementation (targets.hpp) for `type`.
TileFunction active_tile_function(QueryType type);
/// Its minimum-separation kernel.
SeparationFunction active_separation_function(QueryType type);

}  // namespace simdccd::linear
