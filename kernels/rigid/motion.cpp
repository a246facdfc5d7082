// Names, validity, inversion and double evaluation of rigid motions
// (rigid_motion.hpp, rigid_ccd.hpp), and the exact conversions of rigid
// queries (rigid_oracle.hpp).
#include <algorithm>
#include <cmath>

#include "conversions.hpp"
#include "rigid/motion_formulas.hpp"
#include "simdccd/rigid_motion.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {

bool in_range(double v) { return std::isfinite(v) && std::abs(v) <= kMaxRigidCoordinate; }

}  // namespace

bool in_rigid_domain(const Vec3& p) { return in_range(p.x) && in_range(p.y) && in_range(p.z); }

std::string_view to_string(RigidMotionType type) {
  return type == RigidMotionType::translation ? "translation" : "rotation";
}

std::optional<RigidMotionType> parse_rigid_motion_type(std::string_view name) {
  for (RigidMotionType t : {RigidMotionType::translation, RigidMotionType::rotation}) {
    if (name == to_string(t)) return t;
  }
  return std::nullopt;
}

bool is_valid(const RigidMotion& motion) {
  switch (motion.type) {
    case RigidMotionType::translation: return in_rigid_domain(motion.translation);
    case RigidMotionType::rotation:
      return in_rigid_domain(motion.center) && in_rigid_domain(motion.axis) &&
             (std::isinf(motion.tan_half) ? !is_zero(motion.axis) : in_range(motion.tan_half));
  }
  return false;
}

RigidMotion inverse(const RigidMotion& motion) { return rigid::inverse_motion(motion); }

Vec3 apply(const RigidMotion& motion, const Vec3& x, double u) {
  if (motion.type == RigidMotionType::translation) {
    const Vec3& v = motion.translation;
    return {x.x + u * v.x, x.y + u * v.y, x.z + u * v.z};
  }
  const double tau = motion.tan_half;
  const int infinity = std::isinf(tau) ? (tau > 0 ? 1 : -1) : 0;
  const auto [g, s] = rigid::cayley_parameters(u, 1.0, tau, infinity);
  // X and W are homogeneous of degree 2 in (g, s a) (motion_formulas.hpp): the
  // axis and then (g, s a) brought near 1 by powers of two, which changes no
  // bit where nothing under- or overflows, and keeps W of a half turn about a
  // tiny axis (s^2 |a|^2 at u = 1) from underflowing to 0 / 0.
  const int k = unit_exponent(motion.axis);
  const double s_k = std::ldexp(s, -k);
  const int m = unit_exponent(std::max(std::abs(g), std::abs(s_k)));
  const auto X = rigid::rotate(rigid::rotation_terms(x, motion.center, ldexp(motion.axis, k)), std::ldexp(g, m),
                               std::ldexp(s_k, m));
  return {X[0] / X[3], X[1] / X[3], X[2] / X[3]};
}

RigidQuery relative_to_still(const RigidQuery& q) { return rigid::relative_to_still_of(q); }

bool is_valid(const RigidQuery& q) {
  for (const Vec3& p : q.points) {
    if (!in_rigid_domain(p)) return false;
  }
  // A mover byte outside the enum names neither primitive.
  return (q.mover == Mover::first || q.mover == Mover::second) && is_valid(q.motion);
}

// Only the fields of the motion's type are converted (RigidMotion: "only the
// fields of `type` are read"); the others stay zero. `point` converts points
// and vectors, `tan_half` the tan_half of one motion into the other.
template <class Out, class In, class Point, class TanHalf>
Out converted(const In& q, Point point, TanHalf tan_half) {
  Out r;
  for (int i = 0; i < 4; ++i) r.points[i] = point(q.points[i]);
  r.mover = q.mover;
  r.motion.type = q.motion.type;
  if (q.motion.type == RigidMotionType::translation) {
    r.motion.translation = point(q.motion.translation);
  } else {
    r.motion.center = point(q.motion.center);
    r.motion.axis = point(q.motion.axis);
    tan_half(q.motion, r.motion);
  }
  return r;
}

RationalRigidQuery to_rational(const RigidQuery& q) {
  return converted<RationalRigidQuery>(
      q, [](const Vec3& p) { return to_rational(p); },
      [](const RigidMotion& in, RationalRigidMotion& out) {
        if (std::isinf(in.tan_half)) {
          out.tan_half_infinity = in.tan_half > 0 ? 1 : -1;
        } else {
          out.tan_half = in.tan_half;
        }
      });
}

RigidQuery to_double(const RationalRigidQuery& q) {
  return converted<RigidQuery>(
      q, [](const RationalVec3& p) { return to_double(p); },
      [](const RationalRigidMotion& in, RigidMotion& out) {
        // A finite tau past double's range rounds to +-inf, a valid half
        // turn: NaN keeps it invalid, as |tau| > 2^60 is.
        const double tau = nearest_double(in.tan_half);
        out.tan_half = in.tan_half_infinity != 0 ? std::copysign(INFINITY, in.tan_half_infinity)
                                                 : (std::isinf(tau) ? NAN : tau);
      });
}

}  // namespace simdccd
