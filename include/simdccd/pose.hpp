// Rigid placements and the rigid paths between two of them (constant
// translational and angular velocity), shared by the rigid-body families:
// conservative advancement (advance.hpp) and convex shapes (convex/).
#pragma once

#include <array>

#include "simdccd/query.hpp"

namespace simdccd {

/// A rigid placement: a body point p is at R p + x in the world.
struct Pose {
  std::array<double, 9> R{1, 0, 0, 0, 1, 0, 0, 0, 1};  ///< row-major rotation
  Vec3 x{};
};

/// R p + x (inline: the support functions of convex shapes call it per step).
inline Vec3 apply(const Pose& pose, const Vec3& p) {
  const auto& R = pose.R;
  return {R[0] * p.x + R[1] * p.y + R[2] * p.z + pose.x.x, R[3] * p.x + R[4] * p.y + R[5] * p.z + pose.x.y,
          R[6] * p.x + R[7] * p.y + R[8] * p.z + pose.x.z};
}
/// R^T d: a world direction in the body frame.
inline Vec3 transpose_times(const std::array<double, 9>& R, const Vec3& d) {
  return {R[0] * d.x + R[3] * d.y + R[6] * d.z, R[1] * d.x + R[4] * d.y + R[7] * d.z,
          R[2] * d.x + R[5] * d.y + R[8] * d.z};
}
/// The rotation matrix of the unit quaternion (w, x, y, z) (row-major).
std::array<double, 9> quaternion_rotation(double w, double x, double y, double z);
/// R is a rotation to 2^-46: finite, rows of unit length and orthogonal
/// within 2^-46, positive orientation (what the rigid families accept).
bool is_rotation(const std::array<double, 9>& R);
/// a * b: first b, then a (a link's frame is parent * offset * joint).
Pose compose(const Pose& a, const Pose& b);
/// The rotation by `angle` radians about the unit vector `axis`
/// (right-handed), as a pose with translation x.
Pose pose_from_axis_angle(const Vec3& axis, double angle, const Vec3& x = {});

/// The motion of the paper: linear interpolation in configuration space,
/// constant translational velocity of the body origin and constant angular
/// velocity about it:  x(t) = start.x + t velocity,
/// R(t) = Rot(axis, t angle) start.R.
struct RigidPath {
  Pose start;
  Vec3 velocity{};  ///< the origin's displacement over the step
  Vec3 axis{0, 0, 1};  ///< unit
  double angle = 0;  ///< radians turned over the step, >= 0
};

/// The path from q0 to q1: the turn R1 R0^T by its angle in [0, pi] (at a
/// half turn, to rounding, the direction is whichever the rounding of R1 R0^T
/// picks); pose_at(path, 1) is q1 to rounding (the axis from the skew part
/// of R1 R0^T up to a quarter turn, from its symmetric part beyond).
RigidPath path_between(const Pose& q0, const Pose& q1);
/// The pose at time t (double arithmetic; advance.hpp bounds its rounding in distance_error()).
Pose pose_at(const RigidPath& path, double t);

}  // namespace simdccd
