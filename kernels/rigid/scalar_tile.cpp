// The plain C++ instantiation of the rigid kernels ("double" in targets.hpp).
#include "rigid/tile_dispatch.hpp"
#include "simdccd/rigid/tile_kernel-inl.h"
#include "simdccd/simd/lanes.hpp"

namespace simdccd::rigid {

KernelTable scalar_kernels() {
  using simd::ScalarLanes;
  using portable::decide_tile;
  return {&decide_tile<ScalarLanes, QueryType::vertex_face, RigidMotionType::translation>,
          &decide_tile<ScalarLanes, QueryType::vertex_face, RigidMotionType::rotation>,
          &decide_tile<ScalarLanes, QueryType::edge_edge, RigidMotionType::translation>,
          &decide_tile<ScalarLanes, QueryType::edge_edge, RigidMotionType::rotation>};
}

}  // namespace simdccd::rigid
