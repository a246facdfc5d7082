// The rigid kernel instantiations that the batch entries use (dispatch/).
#pragma once

#include <array>

#include "simdccd/query.hpp"
#include "simdccd/rigid/tile.hpp"
#include "simdccd/rigid_motion.hpp"

namespace simdccd::rigid {

/// One implementation's rigid kernels, indexed by kernel_index.
using KernelTable = std::array<TileFunction, 4>;

/// VF translation, VF rotation, EE translation, EE rotation.
constexpr int kernel_index(QueryType type, RigidMotionType motion) {
  return 2 * (type == QueryType::edge_edge) + (motion == RigidMotionType::rotation);
}

/// The kernel of the active implementation (targets.hpp).
TileFunction active_tile_function(QueryType type, RigidMotionType motion);

/// The plain C++ instantiation ("double" in targets.hpp).
KernelTable scalar_kernels();

}  // namespace simdccd::rigid
