// The exact judge's verdict on a GJK answer (convex/gjk_judge.hpp).
#include "simdccd/convex/gjk_judge.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/vec3_math.hpp"
#include "simdccd/convex/exact_gjk.hpp"

namespace simdccd::convex {
namespace {

// D = max(0, sqrt(q) - radii) for the cores' exact squared distance q; the
// comparisons square sqrt(q) against c + radii where that is not negative.

// c <= D exactly (c may be negative).
bool at_most_distance(const mpq_class& c, const mpq_class& q, const mpq_class& radii) {
  if (sgn(c) <= 0) return true;
  const mpq_class s = c + radii;
  return s * s <= q;
}
// D <= c exactly.
bool distance_at_most(const mpq_class& q, const mpq_class& radii, const mpq_class& c) {
  if (sgn(c) < 0) return false;
  const mpq_class s = c + radii;
  return q <= s * s;
}

}  // namespace

GjkVerdict judge_gjk(const GjkResult& r, const ExactPolytopeDistance& cores, double radii) {
  GjkVerdict v;
  if (!r.valid) {
    v.mismatch = true;
    return v;
  }
  const mpq_class& q = cores.squared_distance;
  const mpq_class tau(r.tolerance), rounding = tau / 16, distance(r.distance), R(radii);
  const double D = std::max(0.0, cores.distance - radii);  // for reporting only
  if (r.intersecting) {
    v.mismatch = !distance_at_most(q, R, tau);
    v.distance_error = D;
    return v;
  }
  if (distance_at_most(q, R, 0)) {  // D = 0 answered separate
    v.mismatch = true;
    v.distance_error = r.converged ? r.distance : 0;
    return v;
  }
  // Rule 2: lower_bound - tau/16 <= D <= distance + tau/16.
  v.mismatch = !at_most_distance(mpq_class(r.lower_bound) - rounding, q, R) ||
               !distance_at_most(q, R, distance + rounding);
  if (r.converged) {  // rule 3
    v.distance_error = std::abs(r.distance - D);
    v.mismatch = v.mismatch || !at_most_distance(distance - 5 * rounding, q, R);
  }
  return v;
}

std::optional<ExactPolytopeDistance> exact_core_distance(const ConvexShape& a, const Pose& pa, const ConvexShape& b,
                                                         const Pose& pb) {
  if (!is_valid(a) || !is_valid(b)) return std::nullopt;  // a NaN radius would reach GMP
  if (a.kind == ShapeKind::cylinder || b.kind == ShapeKind::cylinder) return std::nullopt;
  const std::vector<Vec3> core_a = world_core(a, pa), core_b = world_core(b, pb);
  // The hull method where it takes the points, exact GJK beyond (more
  // points, larger coordinates): both exact, held equal by the tests.
  if (exact_accepts(core_a) && exact_accepts(core_b)) return exact_polytope_distance(core_a, core_b);
  const auto all_finite = [](const std::vector<Vec3>& points) {
    return std::all_of(points.begin(), points.end(), [](const Vec3& p) { return finite(p); });
  };
  if (!all_finite(core_a) || !all_finite(core_b)) return std::nullopt;  // a pose not finite
  return exact_gjk_distance(core_a, core_b);
}

std::optional<GjkVerdict> judge_gjk(const GjkResult& result, const ConvexShape& a, const Pose& pa,
                                    const ConvexShape& b, const Pose& pb) {
  const std::optional<ExactPolytopeDistance> cores = exact_core_distance(a, pa, b, pb);
  if (!cores) return std::nullopt;
  return judge_gjk(result, *cores, core_radius(a) + core_radius(b));
}

}  // namespace simdccd::convex
