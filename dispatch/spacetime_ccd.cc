// The space-time kernel of include/simdccd/spacetime/ instantiated on Highway
// vectors, once per compiled target, exactly as dispatch/linear_ccd.cc does for
// the linear kernel (see there why the -inl.h math is re-included inside each
// target's region). dispatch/linear_ccd.cc's target list picks these kernels
// up by table index (hwy_spacetime_kernels), so both models share one list.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "hwy_dispatch.h"
#include "simdccd/query.hpp"
#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile.hpp"
#include "simdccd/spacetime/tile.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/spacetime_ccd.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "hwy_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
#undef SIMDCCD_TARGET_NAMESPACE
#define SIMDCCD_TARGET_NAMESPACE HWY_NAMESPACE
#include "simdccd/spacetime/tile_kernel-inl.h"
#include "simdccd/spacetime/planar_kernel-inl.h"

namespace simdccd::spacetime::HWY_NAMESPACE {

HWY_FLATTEN void DecideSpacetimeTileVF(Tile& tile, double tolerance) {
  decide_tile<simd::HWY_NAMESPACE::HwyLanes, QueryType::vertex_face>(tile, tolerance);
}

HWY_FLATTEN void DecideSpacetimeTileEE(Tile& tile, double tolerance) {
  decide_tile<simd::HWY_NAMESPACE::HwyLanes, QueryType::edge_edge>(tile, tolerance);
}

HWY_FLATTEN void DecideSpacetimePlanarTile(PlanarTile& tile, double tolerance) {
  decide_planar_tile<simd::HWY_NAMESPACE::HwyLanes>(tile, tolerance);
}

}  // namespace simdccd::spacetime::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd::spacetime {

HWY_EXPORT(DecideSpacetimeTileVF);
HWY_EXPORT(DecideSpacetimeTileEE);
HWY_EXPORT(DecideSpacetimePlanarTile);

}  // namespace simdccd::spacetime

namespace simdccd::dispatch {

void hwy_spacetime_kernels(std::size_t index, spacetime::TileFunction& vertex_face,
                           spacetime::TileFunction& edge_edge) {
  vertex_face = HWY_DISPATCH_TABLE(spacetime::DecideSpacetimeTileVF)[index];
  edge_edge = HWY_DISPATCH_TABLE(spacetime::DecideSpacetimeTileEE)[index];
}

spacetime::PlanarTileFunction hwy_spacetime_planar_kernel(std::size_t index) {
  return HWY_DISPATCH_TABLE(spacetime::DecideSpacetimePlanarTile)[index];
}

}  // namespace simdccd::dispatch
#endif  // HWY_ONCE
