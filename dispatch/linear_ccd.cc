// The kernel of include/simdccd/linear/ instantiated on Highway vectors, once
// per compiled target (foreach_target.h re-includes this file for each, as
// in hwy/examples/skeleton.cc), and the table of those instantiations.
//
// The kernel's -inl.h headers are re-included in each target's region, into
// that target's namespace, so every function that vectors pass through is
// compiled for the target: GCC compiles no function passing sizeless SVE
// vectors otherwise, nor inlines a target's ops into one that is not.
// Everything those headers include is included here first, outside the
// regions, so that no shared inline function takes a target's attributes. The
// entry points are flattened: one function per target and query type.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "hwy_dispatch.h"
#include "simdccd/linear/tile.hpp"
#include "simdccd/query.hpp"
#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile.hpp"

// foreach_target.h re-includes this path, relative to the source root (a
// private include directory of the library).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch/linear_ccd.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "hwy_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
#undef SIMDCCD_TARGET_NAMESPACE
#define SIMDCCD_TARGET_NAMESPACE HWY_NAMESPACE
#include "simdccd/linear/separation-inl.h"
#include "simdccd/linear/tile_kernel-inl.h"

namespace simdccd::linear::HWY_NAMESPACE {

HWY_FLATTEN void DecideTileVF(Tile& tile, double tolerance) {
  decide_tile<simd::HWY_NAMESPACE::HwyLanes, QueryType::vertex_face>(tile, tolerance);
}

HWY_FLATTEN void DecideTileEE(Tile& tile, double tolerance) {
  decide_tile<simd::HWY_NAMESPACE::HwyLanes, QueryType::edge_edge>(tile, tolerance);
}

HWY_FLATTEN void SeparateTileVF(Tile& tile, double tolerance, double min_distance) {
  decide_separation_tile<simd::HWY_NAMESPACE::HwyLanes, QueryType::vertex_face>(tile, tolerance, min_distance);
}

HWY_FLATTEN void SeparateTileEE(Tile& tile, double tolerance, double min_distance) {
  decide_separation_tile<simd::HWY_NAMESPACE::HwyLanes, QueryType::edge_edge>(tile, tolerance, min_distance);
}

}  // namespace simdccd::linear::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace simdccd::linear {

HWY_EXPORT(DecideTileVF);
HWY_EXPORT(DecideTileEE);
HWY_EXPORT(SeparateTileVF);
HWY_EXPORT(SeparateTileEE);

}  // namespace simdccd::linear

namespace simdccd::dispatch {

std::vector<HwyTarget> hwy_compiled_targets() {
  using linear::TileFunction;
  std::vector<HwyTarget> targets;
  // Highway numbers targets best first from the lowest bit.
  for (std::int64_t left = HWY_TARGETS; left != 0; left &= left - 1) {
    const std::int64_t target = left & -left;
#if (HWY_TARGETS & (HWY_TARGETS - 1)) == 0
    const std::size_t index = 0;  // a single target: one-entry tables
#else
    // The slot HWY_DYNAMIC_DISPATCH would use if `target` were the only
    // supported one (see hwy::ChosenTarget::Update and GetIndex).
    const std::size_t index = hwy::Num0BitsBelowLS1Bit_Nonzero64(static_cast<std::uint64_t>(
        HWY_CHOSEN_TARGET_SHIFT(target) | HWY_CHOSEN_TARGET_MASK_SCALAR));
#endif
    const TileFunction vf = HWY_DISPATCH_TABLE(linear::DecideTileVF)[index];
    const TileFunction ee = HWY_DISPATCH_TABLE(linear::DecideTileEE)[index];
    const linear::SeparationFunction sep_vf = HWY_DISPATCH_TABLE(linear::SeparateTileVF)[index];
    const linear::SeparationFunction sep_ee = HWY_DISPATCH_TABLE(linear::SeparateTileEE)[index];
    spacetime::TileFunction st_vf = nullptr, st_ee = nullptr;
    hwy_spacetime_kernels(index, st_vf, st_ee);
    const spacetime::PlanarTileFunction st_planar = hwy_spacetime_planar_kernel(index);
    const rigid::KernelTable rigid = hwy_rigid_kernels(index);
    const advancement::KernelTable advance = hwy_advance_kernels(index);
    const convex::GjkFunction gjk = hwy_gjk_kernel(index);
    const bool complete = std::all_of(rigid.begin(), rigid.end(), [](rigid::TileFunction f) { return f != nullptr; }) &&
                          advance.node_pairs != nullptr && advance.triangle_pairs != nullptr && gjk != nullptr;
    if (vf != nullptr && ee != nullptr && sep_vf != nullptr && sep_ee != nullptr && st_vf != nullptr &&
        st_ee != nullptr && st_planar != nullptr && complete) {
      targets.push_back({target, index, vf, ee, sep_vf, sep_ee, st_vf, st_ee, st_planar, rigid, advance, gjk});
    }
  }
  return targets;
}

}  // namespace simdccd::dispatch
#endif  // HWY_ONCE
