// The rigid kernels of include/simdccd/rigid/ instantiated on Highway vectors,
// once per compiled target, exactly as dispatch/linear_ccd.cc does for the
// linear kernel (see there why the -inl.h math is re-included inside each
// target's region). dispatch/linear_ccd.cc's target list picks these kernels
// up by table index (hwy_rigid_kernels).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "hwy_dispatch.h"
#include "simdccd/query.hpp"
#include "simdccd/rigid/tile.hpp"
#include "simdccd/rigid_motion.hpp"
#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/rigid_ccd.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "hwy_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
#undef SIMDCCD_TARGET_NAMESPACE
#define SIMDCCD_TARGET_NAMESPACE HWY_NAMESPACE
#include "simdccd/rigid/tile_kernel-inl.h"

namespace simdccd::rigid::HWY_NAMESPACE {

using Lanes = simd::HWY_NAMESPACE::HwyLanes;

HWY_FLATTEN void DecideRigidVFTranslation(Tile& tile, double tolerance, double expel) {
  decide_tile<Lanes, QueryType::vertex_face, RigidMotionType::translation>(tile, tolerance, expel);
}
HWY_FLATTEN void DecideRigidVFRotation(Tile& tile, double tolerance, double expel) {
  decide_tile<Lanes, QueryType::vertex_face, RigidMotionType::rotation>(tile, tolerance, expel);
}
HWY_FLATTEN void DecideRigidEETranslation(Tile& tile, double tolerance, double expel) {
  decide_tile<Lanes, QueryType::edge_edge, RigidMotionType::translation>(tile, tolerance, expel);
}
HWY_FLATTEN void DecideRigidEERotation(Tile& tile, double tolerance, double expel) {
  decide_tile<Lanes, QueryType::edge_edge, RigidMotionType::rotation>(tile, tolerance, expel);
}

}  // namespace simdccd::rigid::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd::rigid {

HWY_EXPORT(DecideRigidVFTranslation);
HWY_EXPORT(DecideRigidVFRotation);
HWY_EXPORT(DecideRigidEETranslation);
HWY_EXPORT(DecideRigidEERotation);

}  // namespace simdccd::rigid

namespace simdccd::dispatch {

rigid::KernelTable hwy_rigid_kernels(std::size_t index) {
  // In the order of rigid::kernel_index.
  return {HWY_DISPATCH_TABLE(rigid::DecideRigidVFTranslation)[index],
          HWY_DISPATCH_TABLE(rigid::DecideRigidVFRotation)[index],
          HWY_DISPATCH_TABLE(rigid::DecideRigidEETranslation)[index],
          HWY_DISPATCH_TABLE(rigid::DecideRigidEERotation)[index]};
}

}  // namespace simdccd::dispatch
#endif  // HWY_ONCE
