// Rigid paths between two poses (pose.hpp): path_between() must end where
// the caller's end pose is, for every turn from none to a half turn; a turn
// below 1e-6 radians once took its axis from the half-turn formula.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "simdccd/pose.hpp"

namespace simdccd {
namespace {

Vec3 unit(double x, double y, double z) {
  const double n = std::sqrt(x * x + y * y + z * z);
  return {x / n, y / n, z / n};
}

double largest_difference(const std::array<double, 9>& a, const std::array<double, 9>& b) {
  double d = 0;
  for (int k = 0; k < 9; ++k) d = std::max(d, std::fabs(a[k] - b[k]));
  return d;
}

TEST_CASE("pose: path_between ends at the end pose, from tiny turns to half turns") {
  constexpr double pi = std::numbers::pi;
  // A start pose turned about an oblique axis, then each turn about each axis.
  const Pose start = pose_from_axis_angle(unit(0.3, -0.5, 0.8), 0.7, {1, 2, 3});
  // (0.2, -0.9, 0.1): the largest component negative, so the half-turn
  // formula's column needs the skew part's sign.
  for (const Vec3 axis : {unit(0.6, 0.8, 0), unit(1, 1, 1), unit(-0.2, 0.1, 0.97), unit(0.2, -0.9, 0.1), Vec3{0, 0, 1}}) {
    for (const double angle : {1e-12, 1e-9, 4e-7, 1e-3, 1.0, pi / 2, 2.0, pi - 1e-3, pi - 1e-6, pi - 4e-7, pi - 1e-9}) {
      CAPTURE(axis.x);
      CAPTURE(axis.y);
      CAPTURE(angle);
      const Pose end = compose(pose_from_axis_angle(axis, angle, {-1, 0.5, 2}), start);
      const RigidPath path = path_between(start, end);
      CHECK(std::fabs(path.angle - angle) <= 1e-12);
      CHECK(std::fabs(path.axis.x * path.axis.x + path.axis.y * path.axis.y + path.axis.z * path.axis.z - 1) <= 1e-15);
      const Pose reached = pose_at(path, 1);
      CHECK(largest_difference(reached.R, end.R) <= 1e-14);
      // x0 + (x1 - x0) rounds twice.
      CHECK(std::fabs(reached.x.x - end.x.x) + std::fabs(reached.x.y - end.x.y) + std::fabs(reached.x.z - end.x.z) <=
            1e-14);
      // The axis itself where the turn defines it well (away from 0 and pi).
      if (angle >= 1e-6 && angle <= pi - 1e-6) {
        CHECK(std::fabs(path.axis.x - axis.x) + std::fabs(path.axis.y - axis.y) + std::fabs(path.axis.z - axis.z) <=
              1e-9);
      }
    }
  }
  // Exactly a half turn about z (diag(-1, -1, 1)): axis +-z, either way.
  Pose flip;
  flip.R = {-1, 0, 0, 0, -1, 0, 0, 0, 1};
  const RigidPath half = path_between(Pose{}, flip);
  CHECK(half.angle == pi);
  CHECK(std::fabs(std::fabs(half.axis.z) - 1) <= 1e-15);
  CHECK(largest_difference(pose_at(half, 1).R, flip.R) <= 1e-15);
  // No turn: angle 0.
  CHECK(path_between(start, start).angle == 0);
}

}  // namespace
}  // namespace simdccd
