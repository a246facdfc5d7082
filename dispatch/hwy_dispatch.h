// Between dispatch/linear_ccd.cc (the Highway instantiations of the kernel)
// and dispatch/targets.cc (the choice among them). Internal to the library.
#pragma once

#include <cstdint>
#include <vector>

#include "simdccd/linear/tile_io.hpp"

namespace simdccd::linear::dispatch {

/// One Highway target compiled into dispatch/linear_ccd.cc.
struct HwyTarget {
  std::int64_t target;  ///< its HWY_* bit
  TileFunction vertex_face, edge_edge;
};

/// Every compiled Highway target (HWY_TARGETS), best first, with the kernels
/// taken from the HWY_EXPORT tables directly, not through Highway's chosen
/// target, which SupportedTargets() may reset.
std::vector<HwyTarget> hwy_compiled_targets();

}  // namespace simdccd::linear::dispatch
