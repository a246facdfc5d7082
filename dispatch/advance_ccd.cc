// The conservative-advancement kernels of include/simdccd/advance/
// instantiated on Highway vectors, once per compiled target, as
// dispatch/linear_ccd.cc does for the linear kernel; dispatch/targets.cc
// picks them up by table index (hwy_advance_kernels).
#include <cstddef>

#include "hwy_dispatch.h"
#include "simdccd/advance/batch.hpp"
#include "simdccd/simd/lanes.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/advance_ccd.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "hwy_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
#undef SIMDCCD_TARGET_NAMESPACE
#define SIMDCCD_TARGET_NAMESPACE HWY_NAMESPACE
#include "simdccd/advance/pair_kernels-inl.h"

namespace simdccd::advancement::HWY_NAMESPACE {

using Lanes = simd::HWY_NAMESPACE::HwyLanes;

HWY_FLATTEN void AdvanceNodePairs(NodeBatch& batch, const Frame& frame) { node_pairs<Lanes>(batch, frame); }
HWY_FLATTEN void AdvanceTrianglePairs(TriangleBatch& batch, const Frame& frame) {
  triangle_pairs<Lanes>(batch, frame);
}

}  // namespace simdccd::advancement::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd::advancement {

HWY_EXPORT(AdvanceNodePairs);
HWY_EXPORT(AdvanceTrianglePairs);

}  // namespace simdccd::advancement

namespace simdccd::dispatch {

advancement::KernelTable hwy_advance_kernels(std::size_t index) {
  return {HWY_DISPATCH_TABLE(advancement::AdvanceNodePairs)[index],
          HWY_DISPATCH_TABLE(advancement::AdvanceTrianglePairs)[index]};
}

}  // namespace simdccd::dispatch
#endif  // HWY_ONCE
