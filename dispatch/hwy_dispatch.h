// Between dispatch/linear_ccd.cc, dispatch/spacetime_ccd.cc and
// dispatch/rigid_ccd.cc (the Highway instantiations of the kernels),
// dispatch/targets.cc (the choice among them) and the broad phase's
// dispatched loops (swept_boxes.cc, off_axis_scan.cc). Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rigid/tile_dispatch.hpp"
#include "simdccd/advance/batch.hpp"
#include "convex/gjk_lanes.hpp"
#include "simdccd/linear/tile_io.hpp"
#include "simdccd/spacetime/tile.hpp"

namespace simdccd::dispatch {

/// One Highway target compiled into the dispatch/*_ccd.cc files.
struct HwyTarget {
  std::int64_t target;  ///< its HWY_* bit
  std::size_t index;    ///< its slot in every HWY_EXPORT table of the build
  linear::TileFunction vertex_face, edge_edge;
  linear::SeparationFunction separation_vertex_face, separation_edge_edge;
  spacetime::TileFunction spacetime_vertex_face, spacetime_edge_edge;
  spacetime::PlanarTileFunction spacetime_planar;
  rigid::KernelTable rigid;
  advancement::KernelTable advance;
  convex::GjkFunction gjk;
};

/// Every compiled Highway target (HWY_TARGETS), best first, with the kernels
/// taken from the HWY_EXPORT tables directly, not through Highway's chosen
/// target, which SupportedTargets() may reset.
std::vector<HwyTarget> hwy_compiled_targets();

/// The HWY_EXPORT table slot of the active implementation's Highway target
/// (of the best runnable one for "double"): the broad phase's dispatched
/// loops (dispatch/swept_boxes.cc, dispatch/off_axis_scan.cc) run there, so
/// that set_implementation() and SIMDCCD_TARGET choose them too.
std::size_t active_hwy_index();

/// The space-time kernels of the target at `index` of the HWY_EXPORT tables
/// (dispatch/spacetime_ccd.cc); null if not compiled.
void hwy_spacetime_kernels(std::size_t index, spacetime::TileFunction& vertex_face,
                           spacetime::TileFunction& edge_edge);
/// The planar space-time kernel of that target; null if not compiled.
spacetime::PlanarTileFunction hwy_spacetime_planar_kernel(std::size_t index);
/// The rigid kernels of that target (dispatch/rigid_ccd.cc); null entries if not compiled.
rigid::KernelTable hwy_rigid_kernels(std::size_t index);
/// The advancement kernels of that target (dispatch/advance_ccd.cc); null if not compiled.
advancement::KernelTable hwy_advance_kernels(std::size_t index);
/// The GJK lane kernel of that target (dispatch/convex_gjk.cc); null if not compiled.
convex::GjkFunction hwy_gjk_kernel(std::size_t index);

}  // namespace simdccd::dispatch
