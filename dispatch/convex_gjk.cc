// The GJK lane kernel of kernels/convex/gjk_kernel-inl.h
// instantiated on Highway vectors, once per compiled target, as
// dispatch/linear_ccd.cc does for the linear kernel; dispatch/targets.cc
// picks it up by table index (hwy_gjk_kernel).
#include <cstddef>

#include "hwy_dispatch.h"
#include "convex/gjk_lanes.hpp"
#include "simdccd/simd/lanes.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/convex_gjk.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "hwy_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
#undef SIMDCCD_TARGET_NAMESPACE
#define SIMDCCD_TARGET_NAMESPACE HWY_NAMESPACE
#include "convex/gjk_kernel-inl.h"

namespace simdccd::convex::HWY_NAMESPACE {

HWY_FLATTEN void RunGjkLanes(GjkLanes<kGjkBatch>& batch) {
  gjk_lanes<simd::HWY_NAMESPACE::HwyLanes>(batch);
}

}  // namespace simdccd::convex::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd::convex {

HWY_EXPORT(RunGjkLanes);

}  // namespace simdccd::convex

namespace simdccd::dispatch {

convex::GjkFunction hwy_gjk_kernel(std::size_t index) { return HWY_DISPATCH_TABLE(convex::RunGjkLanes)[index]; }

}  // namespace simdccd::dispatch
#endif  // HWY_ONCE
