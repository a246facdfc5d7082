// The exact judge's verdict on a GJK answer (convex/gjk_judge.hpp).
#include "simdccd/convex/gjk_judge.hpp"

#include <cmath>

namespace simdccd::convex {
namespace {

// a <= D exactly, for D^2 = d2 (a may be negative).
bool at_most_distance(const mpq_class& a, const mpq_class& d2) { return sgn(a) <= 0 || a * a <= d2; }
// D <= a exactly.
bool distance_at_most(const mpq_class& d2, const mpq_class& a) { return sgn(a) >= 0 && d2 <= a * a; }

}  // namespace

GjkVerdict judge_gjk(const GjkResult& r, const ExactPolytopeDistance& exact) {
  GjkVerdict v;
  if (!r.valid) {
    v.mismatch = true;
    return v;
  }
  const mpq_class tau(r.tolerance), rounding = tau / 16, distance(r.distance);
  if (r.intersecting) {
    v.mismatch = !distance_at_most(exact.squared_distance, tau);
    v.distance_error = exact.distance;
    return v;
  }
  if (exact.intersecting) {
    v.mismatch = true;
    v.distance_error = r.converged ? r.distance : 0;
    return v;
  }
  // Rule 2: lower_bound - tau/16 <= D <= distance + tau/16.
  v.mismatch = !at_most_distance(mpq_class(r.lower_bound) - rounding, exact.squared_distance) ||
               !distance_at_most(exact.squared_distance, distance + rounding);
  if (r.converged) {  // rule 3
    v.distance_error = std::abs(r.distance - exact.distance);
    v.mismatch = v.mismatch || !at_most_distance(distance - 5 * rounding, exact.squared_distance);
  }
  return v;
}

}  // namespace simdccd::convex
