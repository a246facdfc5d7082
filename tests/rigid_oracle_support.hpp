// Builders, exact checks and exact transformations for the tests of the
// rigid-body oracle (simdccd/rigid_oracle.hpp).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>

#include <gmpxx.h>

#include "simdccd/rigid_oracle.hpp"

namespace simdccd::test {

using Q = mpq_class;

inline constexpr QueryType VF = QueryType::vertex_face;
inline constexpr QueryType EE = QueryType::edge_edge;

inline Q q(long n, long d = 1) {
  Q r(n, d);
  r.canonicalize();
  return r;
}

inline RationalVec3 R(const Q& x, const Q& y, const Q& z) { return {x, y, z}; }

inline RationalRigidMotion translate(const RationalVec3& v) {
  RationalRigidMotion m;
  m.type = RigidMotionType::translation;
  m.translation = v;
  return m;
}

/// Rotation with a finite tan_half.
inline RationalRigidMotion rotate(const RationalVec3& center, const RationalVec3& axis, const Q& tau) {
  RationalRigidMotion m;
  m.type = RigidMotionType::rotation;
  m.center = center;
  m.axis = axis;
  m.tan_half = tau;
  return m;
}

/// Half turn: tan_half = +infinity (sign 1) or -infinity (sign -1).
inline RationalRigidMotion half_turn(const RationalVec3& center, const RationalVec3& axis, int sign) {
  RationalRigidMotion m = rotate(center, axis, 0);
  m.tan_half_infinity = sign;
  return m;
}

inline RationalRigidQuery query(const RationalVec3& p0, const RationalVec3& p1, const RationalVec3& p2,
                                const RationalVec3& p3, const RationalRigidMotion& motion,
                                Mover mover = Mover::first) {
  RationalRigidQuery r;
  r.points = {p0, p1, p2, p3};
  r.motion = motion;
  r.mover = mover;
  return r;
}

inline bool same(const RationalVec3& a, const RationalVec3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

/// Field by field, reading only the fields of the motion's type.
inline bool same(const RationalRigidQuery& a, const RationalRigidQuery& b) {
  for (int i = 0; i < 4; ++i) {
    if (!same(a.points[i], b.points[i])) return false;
  }
  const RationalRigidMotion &m = a.motion, &n = b.motion;
  if (a.mover != b.mover || m.type != n.type) return false;
  if (m.type == RigidMotionType::translation) return same(m.translation, n.translation);
  return same(m.center, n.center) && same(m.axis, n.axis) &&
         m.tan_half_infinity == n.tan_half_infinity && (m.tan_half_infinity != 0 || m.tan_half == n.tan_half);
}

inline bool same(const Result& a, const Result& b) {
  return a.hit == b.hit && a.toi_lo == b.toi_lo && a.toi_hi == b.toi_hi &&
         a.contact_roots == b.contact_roots && a.always_coplanar == b.always_coplanar &&
         a.status == b.status;
}

inline std::string describe(const Result& r) {
  return "hit " + std::to_string(r.hit) + " toi [" + std::to_string(r.toi_lo) + ", " +
         std::to_string(r.toi_hi) + "] roots " + std::to_string(r.contact_roots) + " coplanar " +
         std::to_string(r.always_coplanar) + " status " + std::string(to_string(r.status));
}

/// The oracle's answer; when the query and expel are doubles, also through
/// the double overload, which must agree.
inline Result decide(QueryType type, const RationalRigidQuery& qr, const Q& expel = 0) {
  const Result r = rigid_exact_ccd(type, qr, expel);
  const RigidQuery qd = to_double(qr);
  if (same(to_rational(qd), qr) && Q(expel.get_d()) == expel) {
    const Result d = rigid_exact_ccd(type, qd, expel.get_d());
    INFO("rational: " << describe(r) << "; double: " << describe(d));
    CHECK(same(r, d));
  }
  return r;
}

/// An exactly known u*: side(t) = sign(t - u*) for t near u* (the tests
/// give it by rational comparisons, e.g. squares for a square root).
using Side = std::function<int(const Q&)>;

inline Side at(const Q& u) {
  return [u](const Q& t) { return sgn(t - u); };
}

/// A hit whose toi encloses u* as tightly as doubles allow.
inline void check_hit(const Result& r, const Side& side) {
  INFO(describe(r));
  REQUIRE(r.status == Status::exact);
  REQUIRE(r.hit);
  REQUIRE(std::isfinite(r.toi_lo));
  CHECK(side(Q(r.toi_lo)) <= 0);
  CHECK(side(Q(r.toi_hi)) >= 0);
  if (r.toi_lo == r.toi_hi) {
    CHECK(side(Q(r.toi_lo)) == 0);
  } else {
    CHECK(std::nextafter(r.toi_lo, 2.0) == r.toi_hi);
  }
}

inline void check_miss(const Result& r) {
  INFO(describe(r));
  CHECK(r.status == Status::exact);
  CHECK_FALSE(r.hit);
  CHECK(std::isinf(r.toi_lo));
  CHECK(std::isinf(r.toi_hi));
  CHECK(r.contact_roots == 0);
}

/// Plain contact: a hit with the coplanarity polynomial's part of the answer.
inline void check_plain_hit(const Result& r, const Side& side, int roots, bool coplanar) {
  check_hit(r, side);
  CHECK(int(r.contact_roots) == roots);
  CHECK(r.always_coplanar == coplanar);
}

/// Zone answers carry no coplanarity information.
inline void check_zone_hit(const Result& r, const Side& side) {
  check_hit(r, side);
  CHECK(r.contact_roots == 0);
  CHECK_FALSE(r.always_coplanar);
}

/// Random rigid queries: uniform doubles in [0, 1] (points, center, axis;
/// tan_half in [-2, 2]; translations in [-1, 1]), and small integer grids
/// (coplanar, collinear, touching and on-axis cases, tan_half in a small set
/// with 0 and +-infinity).
class RigidQueryGenerator {
 public:
  explicit RigidQueryGenerator(std::uint64_t seed) : rng_(seed) {}

  RationalRigidQuery uniform(RigidMotionType type) {
    std::uniform_real_distribution<double> u(0, 1), s(-1, 1), t(-2, 2);
    const auto point = [&] { return R(u(rng_), u(rng_), u(rng_)); };
    const RationalRigidMotion m = type == RigidMotionType::translation
                                      ? translate(R(s(rng_), s(rng_), s(rng_)))
                                      : rotate(point(), point(), t(rng_));
    return query(point(), point(), point(), point(), m, mover());
  }

  RationalRigidQuery grid(RigidMotionType type, int r) {
    std::uniform_int_distribution<int> u(-r, r);
    const auto point = [&] { return R(u(rng_), u(rng_), u(rng_)); };
    RationalRigidMotion m = translate(point());
    if (type == RigidMotionType::rotation) {
      static const Q taus[] = {q(1, 2), q(-1, 2), 1, -1, 2, -2, 0};
      const int pick = std::uniform_int_distribution<int>(0, 8)(rng_);
      m = pick < 7 ? rotate(point(), point(), taus[pick]) : half_turn(point(), point(), pick == 7 ? 1 : -1);
      if (m.tan_half_infinity != 0 && sgn(m.axis.x) == 0 && sgn(m.axis.y) == 0 && sgn(m.axis.z) == 0) {
        m.axis.z = 1;  // a half turn needs an axis
      }
    }
    return query(point(), point(), point(), point(), m, mover());
  }

  /// A uniform query whose still primitive is replaced by one through the
  /// moving one's position at a random u0 (computed in doubles, so near it):
  /// plain contacts are frequent, half of them from the front.
  RationalRigidQuery crossing(QueryType type, RigidMotionType motion) {
    RigidQuery d = to_double(uniform(motion));
    const RigidMotion relative = relative_to_still(d).motion;
    const double u0 = std::uniform_real_distribution<double>(0, 1)(rng_);
    std::uniform_real_distribution<double> s(-0.5, 0.5);
    const Vec3 a = apply(relative, d.points[0], u0), b = apply(relative, d.points[1], u0);
    const Vec3 p = type == QueryType::vertex_face ? a : Vec3{(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2};
    const Vec3 d1{s(rng_), s(rng_), s(rng_)}, d2{s(rng_), s(rng_), s(rng_)};
    if (type == QueryType::vertex_face) {  // a face with its centroid at p
      d.points[1] = {p.x + d1.x, p.y + d1.y, p.z + d1.z};
      d.points[2] = {p.x + d2.x, p.y + d2.y, p.z + d2.z};
      d.points[3] = {p.x - d1.x - d2.x, p.y - d1.y - d2.y, p.z - d1.z - d2.z};
    } else {  // an edge with its middle at p
      d.points[2] = {p.x + d1.x, p.y + d1.y, p.z + d1.z};
      d.points[3] = {p.x - d1.x, p.y - d1.y, p.z - d1.z};
    }
    return to_rational(d);
  }

  RationalRigidQuery any(QueryType type, RigidMotionType motion) {
    switch (std::uniform_int_distribution<int>(0, 3)(rng_)) {
      case 0: return uniform(motion);
      case 1: return grid(motion, 1);
      case 2: return grid(motion, 2);
      default: return crossing(type, motion);
    }
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  Mover mover() { return rng_() % 2 == 0 ? Mover::first : Mover::second; }
  std::mt19937_64 rng_;
};

}  // namespace simdccd::test
