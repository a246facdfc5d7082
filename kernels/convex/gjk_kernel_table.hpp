// The GJK lane kernel gjk_batch() calls (dispatch/convex_gjk.cc and
// gjk.cpp), chosen by targets.hpp like every family's. Internal.
#pragma once

#include "convex/gjk_lanes.hpp"

namespace simdccd::convex {

/// The kernel of the active implementation.
GjkFunction active_gjk_kernel();

/// The plain C++ instantiation ("double").
GjkFunction scalar_gjk_kernel();

}  // namespace simdccd::convex
