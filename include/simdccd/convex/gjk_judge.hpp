// The exact judge's verdict on one GJK answer: gjk.hpp's guarantee checked
// against the exact distance D of the posed shapes. Boxes and polytopes are
// the hulls of their world vertices; spheres and capsules their core (a
// point, a segment: world_core()) swept by the radius, so D = max(0, |core
// distance| - radii) with the core distance exact (exact_distance.hpp, or
// exact_gjk.hpp beyond its reach) and every comparison with D made exactly.
// Cylinders have no exact judge.
// Shared by the tests, `simdccd gjk`, the pile and the fuzzers.
#pragma once

#include <optional>

#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/convex/gjk.hpp"
#include "simdccd/convex/shape.hpp"

namespace simdccd::convex {

struct GjkVerdict {
  /// The answer breaks gjk.hpp's guarantee against D (tau = result.tolerance):
  /// invalid; intersecting with D > tau (rule 1); separate with D outside
  /// [lower_bound - tau/16, distance + tau/16] (rule 2) or, converged, below
  /// distance - 5 tau/16 (rule 3); or D = 0 answered separate even when not
  /// converged: stricter than rule 4, since GJK on valid shapes must not
  /// stop short of a contact (the iteration cap is for pathological input).
  bool mismatch = false;
  /// |distance - D| of an answer that claims a distance (converged, or
  /// intersecting: distance 0), in double; 0 otherwise.
  double distance_error = 0;
};

/// The verdict against `cores`, the exact distance between the shapes'
/// cores (world_core()), with `radii` = core_radius(a) + core_radius(b)
/// swept around them (0 for two boxes or polytopes: then D is the cores'
/// distance itself).
GjkVerdict judge_gjk(const GjkResult& result, const ExactPolytopeDistance& cores, double radii = 0);

/// The exact distance between the cores of a at pa and b at pb (world_core()),
/// for judging several answers on that pair: the hull method
/// (exact_polytope_distance) where its preconditions hold, exact GJK
/// (exact_gjk_distance) beyond them; nullopt where there is no exact judge:
/// a shape not is_valid(), a cylinder, or a world core point not finite.
/// The hull method keeps the judge of the tests independent of exact GJK,
/// which settles GJK's stalls, but can take seconds on 100 or more nearly
/// coplanar points (plates 10^-9 thin and thinner; docs/convex_exact.md).
std::optional<ExactPolytopeDistance> exact_core_distance(const ConvexShape& a, const Pose& pa, const ConvexShape& b,
                                                         const Pose& pb);

/// The verdict on gjk(a, pa, b, pb, ...)'s `result` against
/// exact_core_distance(); nullopt where that is.
std::optional<GjkVerdict> judge_gjk(const GjkResult& result, const ConvexShape& a, const Pose& pa,
                                    const ConvexShape& b, const Pose& pb);

}  // namespace simdccd::convex
