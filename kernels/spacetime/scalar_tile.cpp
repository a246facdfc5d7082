// The plain C++ instantiation of the space-time kernel ("double" in targets.hpp).
#include "spacetime/scalar_tile.hpp"

#include "simdccd/simd/lanes.hpp"
#include "simdccd/spacetime/planar_kernel-inl.h"
#include "simdccd/spacetime/tile_kernel-inl.h"

namespace simdccd::spacetime {

TileFunction scalar_tile_function(QueryType type) {
  using simd::ScalarLanes;
  return type == QueryType::vertex_face ? &portable::decide_tile<ScalarLanes, QueryType::vertex_face>
                                        : &portable::decide_tile<ScalarLanes, QueryType::edge_edge>;
}

PlanarTileFunction scalar_planar_tile_function() { return &portable::decide_planar_tile<simd::ScalarLanes>; }

}  // namespace simdccd::spacetime
