// The exact judge's verdict on one GJK answer for two polytopes (or boxes):
// gjk.hpp's guarantee checked against the exact distance D of their hulls
// (exact_distance.hpp). Shared by the tests, `simdccd gjk` and the fuzzers.
#pragma once

#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/convex/gjk.hpp"

namespace simdccd::convex {

struct GjkVerdict {
  /// The answer breaks gjk.hpp's guarantee against D (tau = result.tolerance):
  /// invalid; intersecting with D > tau (rule 1); separate with D outside
  /// [lower_bound - tau/16, distance + tau/16] (rule 2) or, converged, below
  /// distance - 5 tau/16 (rule 3); or D = 0 answered separate even when not
  /// converged: stricter than rule 4, since GJK on valid polytopes must not
  /// stop short of a contact (the iteration cap is for pathological input).
  bool mismatch = false;
  /// |distance - D| of an answer that claims a distance (converged, or
  /// intersecting: distance 0), in double; 0 otherwise.
  double distance_error = 0;
};

GjkVerdict judge_gjk(const GjkResult& result, const ExactPolytopeDistance& exact);

}  // namespace simdccd::convex
