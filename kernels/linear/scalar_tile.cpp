// The plain C++ instantiation of the kernel ("double" in targets.hpp).
#include "linear/scalar_tile.hpp"

#include "simdccd/linear/separation-inl.h"
#include "simdccd/linear/tile_kernel-inl.h"
#include "simdccd/simd/lanes.hpp"

namespace simdccd::linear {

TileFunction scalar_tile_function(QueryType type) {
  return type == QueryType::vertex_face ? &portable::decide_tile<simd::ScalarLanes, QueryType::vertex_face>
                                        : &portable::decide_tile<simd::ScalarLanes, QueryType::edge_edge>;
}

SeparationFunction scalar_separation_function(QueryType type) {
  return type == QueryType::vertex_face
             ? &portable::decide_separation_tile<simd::ScalarLanes, QueryType::vertex_face>
             : &portable::decide_separation_tile<simd::ScalarLanes, QueryType::edge_edge>;
}

}  // namespace simdccd::linear
