// GJK past its input checks, for callers that validated the shapes and
// measured their reach once for many pairs (the batch). Internal.
#pragma once

#include "simdccd/convex/gjk.hpp"

namespace simdccd::convex {

/// reach(shape) when is_valid(shape), else NaN: one pass over a polytope's vertices.
double checked_reach(const ConvexShape& shape);

/// gjk() for valid options, poses and shapes whose reach() is given.
GjkResult gjk_valid(const ConvexShape& a, double reach_a, const Pose& pa, const ConvexShape& b, double reach_b,
                    const Pose& pb, const GjkOptions& options, const GjkWarmStart* warm);

}  // namespace simdccd::convex
