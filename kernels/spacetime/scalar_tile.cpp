// The plain C++ instantiation of the space-time kernel ("double" in targets.hpp).
#include "spacetime/scalar_tile.hpp"

#include "simdccd/linear/lanes.hpp"
#include "simdccd/spacetime/tile_kernel-inl.h"

namespace simdccd::spacetime {

TileFunction scalar_tile_function(QueryType type) {
  using linear::ScalarLanes;
  return type == QueryType::vertex_face ? &portable::decide_tile<ScalarLanes, QueryType::vertex_face>
                                        : &portable::decide_tile<ScalarLanes, QueryType::edge_edge>;
}

}  // namespace simdccd::spacetime
