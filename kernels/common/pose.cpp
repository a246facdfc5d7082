// Poses and rigid paths (pose.hpp): constant translational and angular
// velocity between two poses.
#include <algorithm>
#include <cmath>

#include "simdccd/pose.hpp"

namespace simdccd {
namespace {

using Matrix = std::array<double, 9>;

Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix c{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      c[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    }
  }
  return c;
}

Matrix rotation(const Vec3& u, double angle) {
  const double c = std::cos(angle), s = std::sin(angle), k = 1 - c;
  return {c + u.x * u.x * k,       u.x * u.y * k - u.z * s, u.x * u.z * k + u.y * s,
          u.y * u.x * k + u.z * s, c + u.y * u.y * k,       u.y * u.z * k - u.x * s,
          u.z * u.x * k - u.y * s, u.z * u.y * k + u.x * s, c + u.z * u.z * k};
}

}  // namespace

bool is_rotation(const std::array<double, 9>& R) {
  for (double r : R) {
    if (!std::isfinite(r)) return false;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) {  // R R^T is symmetric, bit for bit
      const double d = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] + R[3 * i + 2] * R[3 * j + 2];
      if (std::abs(d - (i == j)) > 0x1p-46) return false;
    }
  }
  const double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                     R[2] * (R[3] * R[7] - R[4] * R[6]);
  return det > 0;
}

std::array<double, 9> quaternion_rotation(double w, double x, double y, double z) {
  return {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
          2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
          2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
}

Pose compose(const Pose& a, const Pose& b) { return {multiply(a.R, b.R), apply(a, b.x)}; }

Pose pose_from_axis_angle(const Vec3& axis, double angle, const Vec3& x) { return {rotation(axis, angle), x}; }

RigidPath path_between(const Pose& q0, const Pose& q1) {
  RigidPath path;
  path.start = q0;
  path.velocity = {q1.x.x - q0.x.x, q1.x.y - q0.x.y, q1.x.z - q0.x.z};
  // M = R1 R0^T = cos I + (1 - cos) u u^T + sin [u]x: its angle from the
  // trace, its axis from the skew part 2 sin u up to a quarter turn, beyond
  // from the symmetric part less cos I, (1 - cos) u u^T (the skew part there
  // shrinks to rounding near a half turn and only gives the sign).
  const Matrix& a = q1.R;
  const Matrix& b = q0.R;
  Matrix m{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) m[3 * i + j] = a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
  }
  const Vec3 skew{m[7] - m[5], m[2] - m[6], m[3] - m[1]};
  const double sin2 = std::sqrt(skew.x * skew.x + skew.y * skew.y + skew.z * skew.z);  // 2 sin(angle)
  const double cos2 = m[0] + m[4] + m[8] - 1;                                          // 2 cos(angle)
  path.angle = std::atan2(sin2, cos2);
  if (path.angle == 0) return path;
  if (cos2 >= 0) {
    path.axis = {skew.x / sin2, skew.y / sin2, skew.z / sin2};
    return path;
  }
  // (1 - cos) u u^T: its column of largest norm, normalized, signed by the skew part.
  const auto entry = [&](int i, int j) { return (m[3 * i + j] + m[3 * j + i]) / 2 - (i == j ? cos2 / 2 : 0); };
  int best = 0;
  double best_norm = -1;
  for (int j = 0; j < 3; ++j) {
    const double n = entry(0, j) * entry(0, j) + entry(1, j) * entry(1, j) + entry(2, j) * entry(2, j);
    if (n > best_norm) best_norm = n, best = j;
  }
  const double n = std::sqrt(best_norm);
  Vec3 u{entry(0, best) / n, entry(1, best) / n, entry(2, best) / n};
  if (u.x * skew.x + u.y * skew.y + u.z * skew.z < 0) u = {-u.x, -u.y, -u.z};
  path.axis = u;
  return path;
}

Pose pose_at(const RigidPath& path, double t) {
  Pose p;
  p.x = {path.start.x.x + t * path.velocity.x, path.start.x.y + t * path.velocity.y,
         path.start.x.z + t * path.velocity.z};
  p.R = path.angle == 0 ? path.start.R : multiply(rotation(path.axis, t * path.angle), path.start.R);
  return p;
}

}  // namespace simdccd
