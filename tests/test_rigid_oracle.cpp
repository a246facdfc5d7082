// The exact oracle of the rigid-body model (simdccd/rigid_oracle.hpp) and the
// motion helpers it rests on (simdccd/rigid_motion.hpp, rigid_ccd.hpp).
//
// Every expected answer of a hand case is derived in the comment next to it
// (geometry, angle, distance), never by running the oracle. Irrational
// contact parameters are checked by rational comparisons (a square root
// through squares). The random tests compare with independent computations:
// the linear oracle (translation, plain contact), van Waveren's closed form
// (translation, vertex-face zone) and intervals of linear constraints
// (translation, edge-edge zone), and with the oracle itself under exact
// symmetries of the scene.
//
// Conventions of the derivations:
// - "about z" is the rotation about the z axis through the origin, axis
//   (0, 0, 1): a point at angle phi in the xy-plane goes to phi + theta(u),
//   counter-clockwise, with theta(u) = 2 atan(u tau) for a finite tau and
//   theta(u) = +-2 atan(u / (1 - u)) for a half turn; so a feature at angle
//   alpha is reached at u* = tan(alpha / 2) / tau (tan(alpha / 2) =
//   sin alpha / (1 + cos alpha)).
// - "about x": axis (1, 0, 0) through the origin: (0, 1, 0) goes to
//   (0, cos phi, sin phi), phi = theta(u).
// - T is the triangle (0,0,0), (1,0,0), (0,1,0); its normal (f1-f0) x (f2-f0)
//   is +z, so its front is z > 0 and h = z for a vertex above it.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "oracle_test_support.hpp"
#include "rigid_oracle_support.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/rigid_motion.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

using test::at;
using test::check_hit;
using test::check_miss;
using test::check_plain_hit;
using test::check_zone_hit;
using test::decide;
using test::EE;
using test::half_turn;
using test::q;
using test::Q;
using test::query;
using test::R;
using test::rotate;
using test::same;
using test::Side;
using test::translate;
using test::VF;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const RationalVec3 kOrigin = R(0, 0, 0);
const RationalVec3 kZ = R(0, 0, 1);
const RationalVec3 kX = R(1, 0, 0);

// sign(t - u*) for u* = (sqrt(2) - 1) / tau, tau > 0, t > -1 / tau:
// t < u* iff (tau t + 1)^2 < 2.
Side sqrt2_minus_1_over(const Q& tau) {
  return [tau](const Q& t) {
    const Q s = tau * t + 1;
    return sgn(s * s - 2);
  };
}

// ---------------------------------------------------------------- helpers

TEST_CASE("rigid.oracle.motion names, validity, inverse and conversions") {
  CHECK(to_string(RigidMotionType::translation) == "translation");
  CHECK(to_string(RigidMotionType::rotation) == "rotation");
  CHECK(parse_rigid_motion_type("translation") == RigidMotionType::translation);
  CHECK(parse_rigid_motion_type("rotation") == RigidMotionType::rotation);
  CHECK_FALSE(parse_rigid_motion_type("Rotation").has_value());
  CHECK_FALSE(parse_rigid_motion_type("").has_value());

  const double big = kMaxRigidCoordinate, beyond = std::nextafter(big, kInf);
  CHECK(is_valid(RigidMotion::translate({big, -big, 0})));
  CHECK_FALSE(is_valid(RigidMotion::translate({beyond, 0, 0})));
  CHECK_FALSE(is_valid(RigidMotion::translate({kNaN, 0, 0})));
  CHECK_FALSE(is_valid(RigidMotion::translate({0, kInf, 0})));
  CHECK(is_valid(RigidMotion::rotate({1, 2, 3}, {0, 0, 1}, big)));
  CHECK(is_valid(RigidMotion::rotate({1, 2, 3}, {0, 0, 0}, -big)));  // no rotation
  CHECK_FALSE(is_valid(RigidMotion::rotate({1, 2, 3}, {0, 0, 1}, beyond)));
  CHECK(is_valid(RigidMotion::rotate({1, 2, 3}, {0, 0, 1}, kInf)));
  CHECK(is_valid(RigidMotion::rotate({1, 2, 3}, {0, 0, 1}, -kInf)));
  CHECK_FALSE(is_valid(RigidMotion::rotate({1, 2, 3}, {0, 0, 0}, kInf)));  // half turn, no axis
  CHECK_FALSE(is_valid(RigidMotion::rotate({1, 2, 3}, {0, 0, 1}, kNaN)));
  CHECK_FALSE(is_valid(RigidMotion::rotate({beyond, 2, 3}, {0, 0, 1}, 1)));
  CHECK_FALSE(is_valid(RigidMotion::rotate({1, 2, 3}, {0, kNaN, 1}, 1)));
  // Only the fields of the motion's type are read.
  RigidMotion t = RigidMotion::translate({1, 2, 3});
  t.tan_half = kNaN;
  t.center = {kInf, 0, 0};
  CHECK(is_valid(t));

  RigidQuery query;
  query.points = {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, big}};
  query.motion = RigidMotion::rotate({0, 0, 0}, {1, 1, 1}, 0.5);
  CHECK(is_valid(query));
  query.points[2].y = -beyond;
  CHECK_FALSE(is_valid(query));
  query.points[2].y = kNaN;
  CHECK_FALSE(is_valid(query));
  query.points[2].y = 1;
  query.mover = static_cast<Mover>(2);  // neither primitive
  CHECK_FALSE(is_valid(query));

  // inverse: -v; the same center and tan_half about -a.
  CHECK(inverse(RigidMotion::translate({1, -2, 0.5})) == RigidMotion::translate({-1, 2, -0.5}));
  CHECK(inverse(RigidMotion::rotate({1, 2, 3}, {0, 1, -4}, kInf)) ==
        RigidMotion::rotate({1, 2, 3}, {0, -1, 4}, kInf));
  query.mover = Mover::second;
  const RigidQuery relative = relative_to_still(query);
  CHECK(relative.mover == Mover::first);
  CHECK(relative.points == query.points);
  CHECK(relative.motion == RigidMotion::rotate({0, 0, 0}, {-1, -1, -1}, 0.5));
  query.mover = Mover::first;
  CHECK(relative_to_still(query) == query);

  // to_double(to_rational(q)) == q, an infinite tan_half included.
  for (double tau : {0.375, -kInf, kInf}) {
    query.motion = RigidMotion::rotate({0.1, -2, 3e10}, {0, 1e-7, 4}, tau);
    const RationalRigidQuery r = to_rational(query);
    CHECK(r.motion.tan_half_infinity == (std::isinf(tau) ? (tau > 0 ? 1 : -1) : 0));
    CHECK(r.motion.center.x == Q(0.1));  // exact, not 1/10
    CHECK(to_double(r) == query);
  }
  query.motion = RigidMotion::translate({0.1, 0.2, -0.3});
  CHECK(to_double(to_rational(query)) == query);
  // Rationals round to the nearest double.
  RationalRigidQuery third = to_rational(query);
  third.motion.translation.x = q(1, 3);
  CHECK(to_double(third).motion.translation.x == 1.0 / 3.0);
  // A finite tau of 10^400 (a rigid CSV may hold one) rounds past double's
  // range: NaN, invalid like any |tau| > 2^60, never the half turn +inf.
  RationalRigidQuery huge = to_rational(RigidQuery{query.points, Mover::second, RigidMotion::rotate({}, {0, 0, 1}, 1)});
  mpz_class ten_400;
  mpz_ui_pow_ui(ten_400.get_mpz_t(), 10, 400);
  for (int sign : {1, -1}) {
    huge.motion.tan_half = sign * Q(ten_400);
    CHECK(std::isnan(to_double(huge).motion.tan_half));
    CHECK_FALSE(is_valid(to_double(huge)));
  }
}

TEST_CASE("rigid.oracle.apply places points on the motion") {
  // About z with tau = 1 (a quarter turn): (1, 0, 0) goes to (0, 1, 0) at u = 1
  // (W = 2, W x = (1,0,0) + 2 (0,1,0) + (-1,0,0): exact in doubles).
  const RigidMotion quarter = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, 1);
  CHECK(apply(quarter, {1, 0, 0}, 1) == Vec3{0, 1, 0});
  CHECK(apply(quarter, {1, 0, 5}, 0) == Vec3{1, 0, 5});
  // theta(1/2) = 2 atan(1/2): cos = 3/5, sin = 4/5.
  const Vec3 half = apply(quarter, {1, 0, 0}, 0.5);
  CHECK(half.x == doctest::Approx(0.6));
  CHECK(half.y == doctest::Approx(0.8));
  // A half turn about the line x = 1 (z direction) at u = 1/2 turns by pi/2:
  // (2, 0, 0) goes to (1, 1, 0); at u = 1 by pi, to (0, 0, 0).
  const RigidMotion half_turn = RigidMotion::rotate({1, 0, 0}, {0, 0, 1}, kInf);
  const Vec3 p = apply(half_turn, {2, 0, 0}, 0.5), e = apply(half_turn, {2, 0, 0}, 1);
  CHECK(p.x == doctest::Approx(1));
  CHECK(p.y == doctest::Approx(1));
  CHECK(e.x == doctest::Approx(0));
  CHECK(e.y == doctest::Approx(0));
  // tau = -inf turns the other way: (1, -1, 0) at u = 1/2.
  const Vec3 m = apply(RigidMotion::rotate({1, 0, 0}, {0, 0, 1}, -kInf), {2, 0, 0}, 0.5);
  CHECK(m.y == doctest::Approx(-1));
  // The axis' length scales the angle: axis (0, 0, 2), tau = 1/2 is a
  // quarter turn at u = 1.
  const Vec3 s = apply(RigidMotion::rotate({0, 0, 0}, {0, 0, 2}, 0.5), {1, 0, 0}, 1);
  CHECK(s.x == doctest::Approx(0));
  CHECK(s.y == doctest::Approx(1));
  CHECK(apply(RigidMotion::translate({1, 2, 3}), {1, 1, 1}, 0.5) == Vec3{1.5, 2, 2.5});
}

// -------------------------------------------------- rotation, plain contact

TEST_CASE("rigid.oracle.rotation: vertex against a face at a known angle") {
  // Vertex (1, 0, 0) about z. The face (0,0,-1), (2,2,0), (0,0,1) lies in the
  // half-plane at alpha = 45 degrees and covers (cos 45, sin 45, 0) (the
  // midpoint of (0,0,0)-(2,2,0), inside). u* = tan(22.5) / tau =
  // (sqrt 2 - 1) / tau when theta(1) = 2 atan(tau) >= 45 degrees. The vertex
  // meets the face's plane at theta = 45 (and 225, never reached): one root.
  const RationalVec3 v = R(1, 0, 0), f0 = R(0, 0, -1), f1 = R(2, 2, 0), f2 = R(0, 0, 1);
  for (const Q& tau : {Q(1), Q(2), q(1, 2), Q(1000)}) {
    CAPTURE(tau.get_d());
    check_plain_hit(decide(VF, query(v, f0, f1, f2, rotate(kOrigin, kZ, tau))), sqrt2_minus_1_over(tau), 1,
                    false);
  }
  // tau = 1/4: theta(1) = 2 atan(1/4) < 28 degrees, short of 45.
  check_miss(decide(VF, query(v, f0, f1, f2, rotate(kOrigin, kZ, q(1, 4)))));
  // tau = -1 turns clockwise to -90: never at 45 (nor 225 = -135).
  check_miss(decide(VF, query(v, f0, f1, f2, rotate(kOrigin, kZ, -1))));
  // The face mirrored to -45 degrees: tau = -1 reaches it at sqrt 2 - 1.
  check_plain_hit(decide(VF, query(v, f0, R(2, -2, 0), f2, rotate(kOrigin, kZ, -1))), sqrt2_minus_1_over(1),
                  1, false);

  // A Pythagorean angle: the face through (3, 4, 0) is at cos = 3/5, sin = 4/5,
  // tan(alpha / 2) = (4/5) / (8/5) = 1/2: u* = 1/2 for tau = 1, exactly.
  const RationalVec3 g1 = R(3, 4, 0);
  check_plain_hit(decide(VF, query(v, f0, g1, f2, rotate(kOrigin, kZ, 1))), at(q(1, 2)), 1, false);
  // tau = 1/2: theta(1) = 2 atan(1/2) = alpha: contact at u = 1.
  check_plain_hit(decide(VF, query(v, f0, g1, f2, rotate(kOrigin, kZ, q(1, 2)))), at(1), 1, false);
  // tau = 3/2: u* = (1/2) / (3/2) = 1/3, not a double.
  check_plain_hit(decide(VF, query(v, f0, g1, f2, rotate(kOrigin, kZ, q(3, 2)))), at(q(1, 3)), 1, false);
  // The axis scaled by 2 doubles the angle's rate: theta(u) = 2 atan(2 u tau),
  // so tau = 1 with axis (0, 0, 2) reaches alpha at u = 1/4.
  check_plain_hit(decide(VF, query(v, f0, g1, f2, rotate(kOrigin, R(0, 0, 2), 1))), at(q(1, 4)), 1, false);
  // The center moved along the axis changes nothing: (0, 0, 7).
  check_plain_hit(decide(VF, query(v, f0, g1, f2, rotate(R(0, 0, 7), kZ, 1))), at(q(1, 2)), 1, false);
}

TEST_CASE("rigid.oracle.rotation: the face moves (mover second)") {
  // Vertex (1, 0, 0) still; the face through (3, 4, 0) (alpha with tan(alpha/2)
  // = 1/2, as above) turns about z. Relative to the face the vertex turns the
  // other way, so a face turning clockwise (tau = -1) meets it at u = 1/2.
  const RationalVec3 v = R(1, 0, 0), f0 = R(0, 0, -1), f1 = R(3, 4, 0), f2 = R(0, 0, 1);
  check_plain_hit(decide(VF, query(v, f0, f1, f2, rotate(kOrigin, kZ, -1), Mover::second)), at(q(1, 2)), 1,
                  false);
  // The same turn written about -z with tau = 1.
  check_plain_hit(decide(VF, query(v, f0, f1, f2, rotate(kOrigin, R(0, 0, -1), 1), Mover::second)),
                  at(q(1, 2)), 1, false);
  // Turning counter-clockwise, the face leaves the vertex: relative to it the
  // vertex reaches -90 degrees, short of alpha - 180 = -126.87.
  check_miss(decide(VF, query(v, f0, f1, f2, rotate(kOrigin, kZ, 1), Mover::second)));

  // The axis through a vertex of the face: the face (0,0,0), (2,0,-1),
  // (2,0,1) in the half-plane y = 0, x >= 0, turns about z through f0 = the
  // origin. At height 0 it covers radii [0, 2] in its direction; the still
  // vertex (1, 1, 0) is at 45 degrees, radius sqrt 2: u* = sqrt 2 - 1 for
  // tau = 1 (one root: the face's plane reaches the vertex at 45 only).
  check_plain_hit(decide(VF, query(R(1, 1, 0), kOrigin, R(2, 0, -1), R(2, 0, 1), rotate(kOrigin, kZ, 1),
                                   Mover::second)),
                  sqrt2_minus_1_over(1), 1, false);
  // A vertex beyond the face's reach (radius 2 sqrt 2 > 2): no contact.
  check_miss(decide(VF, query(R(2, 2, 0), kOrigin, R(2, 0, -1), R(2, 0, 1), rotate(kOrigin, kZ, 1),
                              Mover::second)));
}

TEST_CASE("rigid.oracle.rotation: half turns") {
  // tau = +inf about z: theta(u) = 2 atan(u / (1 - u)), pi/2 at u = 1/2, pi at
  // u = 1. Vertex (1, 0, 0); the face (0,0,-1), (0,2,0), (0,0,1) at 90 degrees.
  const RationalVec3 v = R(1, 0, 0), f0 = R(0, 0, -1), f2 = R(0, 0, 1);
  check_plain_hit(decide(VF, query(v, f0, R(0, 2, 0), f2, half_turn(kOrigin, kZ, 1))), at(q(1, 2)), 1, false);
  // tau = -inf turns clockwise: the face at 90 is never reached (the vertex
  // sweeps y <= 0), the face at -90 at u = 1/2.
  check_miss(decide(VF, query(v, f0, R(0, 2, 0), f2, half_turn(kOrigin, kZ, -1))));
  check_plain_hit(decide(VF, query(v, f0, R(0, -2, 0), f2, half_turn(kOrigin, kZ, -1))), at(q(1, 2)), 1, false);
  // The face at 180 degrees is reached at the end, u = 1.
  check_plain_hit(decide(VF, query(v, f0, R(-2, 0, 0), f2, half_turn(kOrigin, kZ, 1))), at(1), 1, false);
  // Axis (0, 0, 2): theta(u) = 2 atan(2u / (1 - u)) = pi/2 at 2u = 1 - u: u = 1/3.
  check_plain_hit(decide(VF, query(v, f0, R(0, 2, 0), f2, half_turn(kOrigin, R(0, 0, 2), 1))), at(q(1, 3)), 1,
                  false);
  // An edge a = (1,0,-1)-(1,0,1) (vertical, radius 1) half-turning about z
  // meets b = (0,0,0)-(-2,2,0) (horizontal, at 135 degrees) where theta =
  // 135: tan(67.5) = sqrt 2 + 1 = u / (1 - u), u* = (sqrt 2 + 1) / (sqrt 2 +
  // 2) = 1 / sqrt 2: t < u* iff 2 t^2 < 1.
  const Side inv_sqrt2 = [](const Q& t) { return sgn(2 * t * t - 1); };
  check_plain_hit(decide(EE, query(R(1, 0, -1), R(1, 0, 1), kOrigin, R(-2, 2, 0), half_turn(kOrigin, kZ, 1))),
                  inv_sqrt2, 1, false);
}

TEST_CASE("rigid.oracle.rotation: edges crossing at a known angle") {
  // a = (1,0,-1)-(1,0,1) is vertical at radius 1, angle 0, and turns about z;
  // b = (0,0,0)-(2,2,0) is horizontal along 45 degrees. They meet where a's
  // angle is 45 (at (cos 45, sin 45, 0): inside b, of length 2 sqrt 2, and at
  // a's mid-height): u* = (sqrt 2 - 1) / tau. The lines are coplanar where a
  // crosses the vertical plane of b: 45 and 225 degrees, one root.
  const RationalVec3 a0 = R(1, 0, -1), a1 = R(1, 0, 1);
  for (const Q& tau : {Q(1), q(5, 4)}) {
    check_plain_hit(decide(EE, query(a0, a1, kOrigin, R(2, 2, 0), rotate(kOrigin, kZ, tau))),
                    sqrt2_minus_1_over(tau), 1, false);
  }
  check_miss(decide(EE, query(a0, a1, kOrigin, R(2, 2, 0), rotate(kOrigin, kZ, -1))));
  // b along (6, 8, 0): tan(alpha / 2) = 1/2; tau = 1/2 reaches it at u = 1.
  check_plain_hit(decide(EE, query(a0, a1, kOrigin, R(6, 8, 0), rotate(kOrigin, kZ, q(1, 2)))), at(1), 1, false);
  // b too short (ends at (1/2, 1/2, 0), radius 1/sqrt 2 < 1): no contact.
  check_miss(decide(EE, query(a0, a1, kOrigin, R(q(1, 2), q(1, 2), 0), rotate(kOrigin, kZ, 1))));
  // Edge b moving instead, clockwise about z: the same contact (mover second).
  check_plain_hit(decide(EE, query(a0, a1, kOrigin, R(6, 8, 0), rotate(kOrigin, kZ, -1), Mover::second)),
                  at(q(1, 2)), 1, false);
  // The axis through an endpoint: a = (0,0,0)-(2,0,0) turns about z through
  // a0; b = (1,1,-1)-(1,1,1) is vertical at 45 degrees, radius sqrt 2 < 2.
  check_plain_hit(decide(EE, query(kOrigin, R(2, 0, 0), R(1, 1, -1), R(1, 1, 1), rotate(kOrigin, kZ, 1))),
                  sqrt2_minus_1_over(1), 1, false);
}

TEST_CASE("rigid.oracle.rotation: features on the axis, zero rotations") {
  // A vertex on the axis never moves: (0, 0, 1/2) above the face (-1,-1,0),
  // (2,-1,0), (-1,2,0) stays off it for any tau; (0, 0, 0) lies inside it
  // (x + y <= 1, x, y >= -1) from the start, and it and the still face stay
  // coplanar: contact at 0, always coplanar.
  const RationalVec3 f0 = R(-1, -1, 0), f1 = R(2, -1, 0), f2 = R(-1, 2, 0);
  for (const Q& tau : {Q(1), Q(-3)}) {
    check_miss(decide(VF, query(R(0, 0, q(1, 2)), f0, f1, f2, rotate(kOrigin, kZ, tau))));
    check_plain_hit(decide(VF, query(kOrigin, f0, f1, f2, rotate(kOrigin, kZ, tau))), at(0), 0, true);
  }
  check_miss(decide(VF, query(R(0, 0, q(1, 2)), f0, f1, f2, half_turn(kOrigin, kZ, 1))));
  // An edge on the axis: a = (0,0,-1)-(0,0,1) never moves; b = (1,0,0)-(2,0,0)
  // is 1 away. Always coplanar (the axis and b span the plane y = 0).
  check_miss(decide(EE, query(R(0, 0, -1), R(0, 0, 1), kX, R(2, 0, 0), rotate(kOrigin, kZ, 2))));
  // tau = 0, and a zero axis with any finite tau: no motion. The vertex
  // (1/2, 1/2, 0) of the 45-degree face's plane (on its segment from the axis
  // to (2, 2, 0)) touches at 0; (1, 0, 0) never does.
  const RationalVec3 g0 = R(0, 0, -1), g1 = R(2, 2, 0), g2 = R(0, 0, 1);
  for (const RationalRigidMotion& still : {rotate(kOrigin, kZ, 0), rotate(kOrigin, kOrigin, 5)}) {
    check_plain_hit(decide(VF, query(R(q(1, 2), q(1, 2), 0), g0, g1, g2, still)), at(0), 0, true);
    check_miss(decide(VF, query(R(1, 0, 0), g0, g1, g2, still)));
    check_miss(decide(VF, query(R(1, 0, 0), g0, g1, g2, still), q(1, 8)));
  }
}

TEST_CASE("rigid.oracle.rotation: coplanar and parallel motion") {
  // The vertex (2, 0, 0) turns about z within the plane z = 0 of the face
  // (1,1,0), (3,1,0), (1,3,0): always coplanar. Its circle of radius 2 enters
  // the face through the edge y = 1 at sin phi = 1/2 (phi = 30, x = sqrt 3 in
  // [1, 3]) before the edge x = 1 (phi = 60): u* = tan 15 = 2 - sqrt 3 for
  // tau = 1 (theta(1) = 90). t < u* iff (2 - t)^2 > 3.
  const Side two_minus_sqrt3 = [](const Q& t) { return sgn(3 - (2 - t) * (2 - t)); };
  check_plain_hit(decide(VF, query(R(2, 0, 0), R(1, 1, 0), R(3, 1, 0), R(1, 3, 0), rotate(kOrigin, kZ, 1))),
                  two_minus_sqrt3, 0, true);
  // Turning clockwise the vertex sweeps y <= 0: never in the face.
  check_miss(decide(VF, query(R(2, 0, 0), R(1, 1, 0), R(3, 1, 0), R(1, 3, 0), rotate(kOrigin, kZ, -1))));

  // Parallel edges: a = (1,0,-1)-(1,0,1) and b = (0,1,-1/2)-(0,1,3) are
  // vertical (always parallel, so always coplanar); a turns about z with
  // tau = 2 and reaches b's line (angle 90) at 2 atan(2u) = 90: u = 1/2,
  // where the segments overlap on z in [-1/2, 1].
  check_plain_hit(
      decide(EE, query(R(1, 0, -1), R(1, 0, 1), R(0, 1, q(-1, 2)), R(0, 1, 3), rotate(kOrigin, kZ, 2))),
      at(q(1, 2)), 0, true);
  // b above a's top (z from 2 to 3): they never overlap.
  check_miss(decide(EE, query(R(1, 0, -1), R(1, 0, 1), R(0, 1, 2), R(0, 1, 3), rotate(kOrigin, kZ, 2))));
  // Coplanar edges turning in their plane: a = (1,0,0)-(2,0,0) about z, b =
  // (0,1,0)-(0,3,0) on the y axis: a's inner end reaches b at 90 degrees.
  check_plain_hit(decide(EE, query(kX, R(2, 0, 0), R(0, 1, 0), R(0, 3, 0), rotate(kOrigin, kZ, 1))), at(1), 0,
                  true);
}

// ------------------------------------------------------------- expel zone

TEST_CASE("rigid.oracle.zone: translation, vertex-face") {
  const RationalVec3 f0 = kOrigin, f1 = kX, f2 = R(0, 1, 0);
  const Q e = q(1, 4);
  const RationalVec3 down = R(0, 0, -1);
  // Starting at h = e, moving toward the face: contact at 0 (plain: the
  // vertex reaches the plane at u = 1/4, inside T).
  const RationalVec3 at_e = R(q(1, 4), q(1, 4), e);
  check_zone_hit(decide(VF, query(at_e, f0, f1, f2, translate(down)), e), at(0));
  check_plain_hit(decide(VF, query(at_e, f0, f1, f2, translate(down))), at(q(1, 4)), 1, false);
  // Moving away: never (h increasing).
  check_miss(decide(VF, query(at_e, f0, f1, f2, translate(R(0, 0, 1))), e));
  // Starting inside the zone moving deeper: contact at 0.
  check_zone_hit(decide(VF, query(R(q(1, 4), q(1, 4), q(1, 8)), f0, f1, f2, translate(down)), e), at(0));
  // From h = 1 with v = (0, 0, -2): h = 1 - 2u = e at u = 3/8.
  const RationalVec3 above = R(q(1, 4), q(1, 4), 1);
  check_zone_hit(decide(VF, query(above, f0, f1, f2, translate(R(0, 0, -2))), e), at(q(3, 8)));
  // Ending exactly at h = e: contact at u = 1 (the zone is closed).
  check_zone_hit(decide(VF, query(above, f0, f1, f2, translate(R(0, 0, q(-3, 4)))), e), at(1));
  check_miss(decide(VF, query(above, f0, f1, f2, translate(R(0, 0, q(-1, 2)))), e));
  // The face moving up to the still vertex (mover second): relative motion
  // (0, 0, -2), the same u = 3/8.
  check_zone_hit(decide(VF, query(above, f0, f1, f2, translate(R(0, 0, 2)), Mover::second), e), at(q(3, 8)));
  // The line of the move decides, not the vertex's projection: from
  // (-1, 1/4, 1) along (2, 0, -2) the line meets the plane at (0, 1/4, 0) on
  // T's edge x = 0; h = 1 - 2u = e at u = 3/8, but the vertex, at
  // (2u - 1, 1/4, 1 - 2u), is off the face's prism there and sqrt(2) |1 - 2u|
  // from T's edge x = 0: within e = 1/4 from u* = 1/2 - sqrt(2)/16 on (t <
  // u* iff 1/2 - t > sqrt(2)/16, i.e. 1/2 - t > 0 and (1/2 - t)^2 > 1/128).
  // Plain contact at 1/2, on the edge.
  const RationalVec3 oblique = R(-1, q(1, 4), 1);
  const Side within_e = [](const Q& t) {
    const Q gap = q(1, 2) - t;
    return sgn(gap) <= 0 ? 1 : gap * gap > q(1, 128) ? -1 : gap * gap == q(1, 128) ? 0 : 1;
  };
  check_zone_hit(decide(VF, query(oblique, f0, f1, f2, translate(R(2, 0, -2))), e), within_e);
  check_plain_hit(decide(VF, query(oblique, f0, f1, f2, translate(R(2, 0, -2)))), at(q(1, 2)), 1, false);
  // Lines through T's vertex (1, 0, 0) and edge point (1/2, 0, 0) count
  // (closed face); a line 2^-30 outside the edge y = 0 does not.
  check_zone_hit(decide(VF, query(R(1, 0, 1), f0, f1, f2, translate(R(0, 0, -2))), e), at(q(3, 8)));
  check_zone_hit(decide(VF, query(R(q(1, 2), 0, 1), f0, f1, f2, translate(R(0, 0, -2))), e), at(q(3, 8)));
  check_miss(decide(VF, query(R(q(1, 2), -std::ldexp(1.0, -30), 1), f0, f1, f2, translate(R(0, 0, -2))), e));
  check_miss(decide(VF, query(R(2, 2, 1), f0, f1, f2, translate(R(0, 0, -2))), e));
  // Behind the face (h < 0) moving through it to the front: plain contact at
  // 1/2, no zone contact for any e > 0 (h increases).
  const RationalVec3 behind = R(q(1, 4), q(1, 4), -1);
  check_plain_hit(decide(VF, query(behind, f0, f1, f2, translate(R(0, 0, 2)))), at(q(1, 2)), 1, false);
  for (const Q& tiny : {Q(std::ldexp(1.0, -40)), e, Q(8)}) {
    check_miss(decide(VF, query(behind, f0, f1, f2, translate(R(0, 0, 2))), tiny));
  }
  // The same crossing from the front: the zone stops the vertex e earlier,
  // (1 - e) / 2 = 1/2 - 2^-41 for e = 2^-40.
  check_zone_hit(decide(VF, query(above, f0, f1, f2, translate(R(0, 0, -2))), Q(std::ldexp(1.0, -40))),
                 at(Q(0.5 - std::ldexp(1.0, -41))));
  // Moving parallel to the face inside the zone: h constant, never.
  check_miss(decide(VF, query(R(q(1, 4), q(1, 4), q(1, 8)), f0, f1, f2, translate(R(1, 1, 0))), e));
  // A degenerate face (collinear points) has no front.
  check_miss(decide(VF, query(above, f0, f1, R(2, 0, 0), translate(R(0, 0, -2))), e));
}

TEST_CASE("rigid.oracle.zone: rotation, vertex-face") {
  // The vertex (0, 1, 0) turns about x: at (0, cos phi, sin phi). Faces lie
  // in planes z = -d with normal +z, so h = sin phi + d, the velocity is
  // (0, -sin phi, cos phi) and the tangent ray from the vertex meets the
  // plane at y = (1 + d sin phi) / cos phi (for cos phi < 0).
  const RationalVec3 v = R(0, 1, 0);

  SUBCASE("starting inside the zone moving away, contact once the tangent ray reaches the face") {
    // d = 1/2, e = 2: h(0) = 1/2 in the zone but increasing (free) up to its
    // greatest value 3/2 at phi = 90 (tangent parallel to the plane: no
    // contact), then decreasing. The face (-5,-7/3,-1/2), (5,-7/3,-1/2),
    // (0,10,-1/2) covers y in [-7/3, 10] at x = 0; the tangent ray meets the
    // plane at y -> -inf just after 90 degrees and reaches the face's edge
    // y = -7/3 at sin phi = 4/5, cos phi = -3/5 ((1 + 2/5) / (-3/5) = -7/3),
    // where h = 13/10 <= e: tan(phi / 2) = (4/5) / (2/5) = 2, u* = 2 / tau =
    // 1/2 for tau = 4 (theta(1) = 2 atan 4 = 152 degrees > 127).
    const Q d = q(1, 2);
    const auto face = [&](const RationalRigidMotion& m, Mover mover = Mover::first) {
      return query(v, R(-5, q(-7, 3), -d), R(5, q(-7, 3), -d), R(0, 10, -d), m, mover);
    };
    check_zone_hit(decide(VF, face(rotate(kOrigin, kX, 4)), 2), at(q(1, 2)));
    // Plain contact needs sin phi = -1/2 (phi = 210 degrees): never.
    check_miss(decide(VF, face(rotate(kOrigin, kX, 4))));
    // The face turning the other way about x, the vertex still: the same.
    check_zone_hit(decide(VF, face(rotate(kOrigin, kX, -4), Mover::second), 2), at(q(1, 2)));
    // tau = 2 ends at tan(phi / 2) = 2: contact at u = 1.
    check_zone_hit(decide(VF, face(rotate(kOrigin, kX, 2)), 2), at(1));
    // tau = 1 ends at 90 degrees, before h decreases: free.
    check_miss(decide(VF, face(rotate(kOrigin, kX, 1)), 2));
  }

  SUBCASE("leaving the zone and re-entering it") {
    // d = 1/5, e = 1, a large face (-10,-10,-1/5), (10,-10,-1/5), (0,10,-1/5)
    // (y in [-10, 10] at x = 0). h(0) = 1/5, increasing (free), out of the
    // zone past sin phi = 4/5, greatest 6/5 at 90, back to h = 1 at sin phi =
    // 4/5, cos phi = -3/5: the ray meets the plane at y = (1 + 4/25) / (-3/5)
    // = -29/15, on the face. tan(phi / 2) = 2: u* = 1/2 for tau = 4.
    const Q d = q(1, 5);
    const auto big = [&](const RationalRigidMotion& m) {
      return query(v, R(-10, -10, -d), R(10, -10, -d), R(0, 10, -d), m);
    };
    check_zone_hit(decide(VF, big(rotate(kOrigin, kX, 4)), 1), at(q(1, 2)));
    // Turning clockwise (tau = -1) from h = 1/5 the vertex moves deeper at
    // once, its tangent ray straight down to (0, 1, -1/5) on the face: 0.
    check_zone_hit(decide(VF, big(rotate(kOrigin, kX, -1)), q(1, 4)), at(0));
    // The same start below the zone (e = 1/8 < h(0) = 1/5) enters it where
    // sin phi = -(1/5 - 1/8) = -3/40 on the way down; the tangent ray there
    // still meets the big face. t < u* iff tan(phi/2) at u = t is short of
    // it: with tau = -1, s = t, sin phi = 2 t / (1 + t^2) in magnitude,
    // so u* solves 2 u / (1 + u^2) = 3/40: 3 u^2 - 80 u + 3 = 0, the root
    // in [0, 1]; t < u* iff 3 t^2 - 80 t + 3 > 0.
    const Side entry = [](const Q& t) { return -sgn(3 * t * t - 80 * t + 3); };
    check_zone_hit(decide(VF, big(rotate(kOrigin, kX, -1)), q(1, 8)), entry);
  }

  SUBCASE("the tangent ray hitting or missing the face") {
    // About x clockwise (tau = -1/2): the vertex at (0, cos phi, -sin phi),
    // velocity (0, -sin phi, -cos phi). The plane z = -11/10: h = 11/10 -
    // sin phi >= 11/10 - sin 53.13 > 0, so plain contact never happens.
    // e = 1/2: h = e at sin phi = 3/5 (cos 4/5, tan(phi/2) = 1/3, u* = 2/3),
    // where the ray from (0, 4/5, -3/5) along (0, -3/5, -4/5) meets the plane
    // at lambda = 5/8: y = 4/5 - 3/8 = 17/40; later rays meet it at smaller y.
    const Q d = q(11, 10);
    const auto face = [&](const Q& y0) {
      return query(v, R(-5, y0, -d), R(5, y0, -d), R(0, 5, -d), rotate(kOrigin, kX, q(-1, 2)));
    };
    // Face covering y in [0, 5] at x = 0 (17/40 inside): contact at 2/3.
    check_zone_hit(decide(VF, face(0), q(1, 2)), at(q(2, 3)));
    // Face covering y in [17/40, 5]: the first ray meets its edge: still 2/3.
    check_zone_hit(decide(VF, face(q(17, 40)), q(1, 2)), at(q(2, 3)));
    // Face covering y in [1/2, 5]: no ray meets it.
    check_miss(decide(VF, face(q(1, 2)), q(1, 2)));
    check_miss(decide(VF, face(0)));
  }

  SUBCASE("touching the plane from behind, the velocity in the plane") {
    // The plane z = 1 with normal +z; the vertex's circle (about x, tau = 2)
    // touches it from behind at its top, phi = 90 degrees (u = tan 45 / 2 =
    // 1/2): h = sin phi - 1 <= 0, 0 at the top only, decreasing right after
    // it; there the velocity (0, -1, 0) lies in the plane, so the rule reads
    // the ray (0, -lambda, 1), lambda >= 0, inside the plane.
    const auto face = [&](const RationalVec3& f0, const RationalVec3& f1, const RationalVec3& f2) {
      return query(v, f0, f1, f2, rotate(kOrigin, kX, 2));
    };
    const Q e = q(1, 4);
    // A face around the touching point (0, 0, 1): zone and plain contact at 1/2.
    const RationalRigidQuery around = face(R(-1, -1, 1), R(1, -1, 1), R(0, 1, 1));
    check_zone_hit(decide(VF, around, e), at(q(1, 2)));
    check_plain_hit(decide(VF, around), at(q(1, 2)), 1, false);
    // A face ahead on the ray (y in [-3, -2]): the ray meets it, but the
    // vertex, on the unit circle about x, never comes within e of it (at the
    // top it is 2 away): no zone contact, and no plain contact.
    const RationalRigidQuery ahead = face(R(-1, -3, 1), R(1, -3, 1), R(0, -2, 1));
    check_miss(decide(VF, ahead, e));
    check_miss(decide(VF, ahead));
    // A face behind the ray (y in [2, 3]): nothing.
    check_miss(decide(VF, face(R(-1, 2, 1), R(1, 2, 1), R(0, 3, 1)), e));
    // A face beside the ray (x >= 1), with its edge x = 1 along the ray: the
    // ray never enters it.
    check_miss(decide(VF, face(R(1, -3, 1), R(3, -3, 1), R(1, -1, 1)), e));
  }
}

TEST_CASE("rigid.oracle.zone: edge-edge") {
  const Q e = q(1, 2);
  const RationalVec3 a0 = R(-1, 0, 1), a1 = R(1, 0, 1), b0 = R(0, -1, 0), b1 = R(0, 1, 0);

  SUBCASE("translation") {
    // a along x at height z, b along y at z = 0: the lines are |z| apart and
    // their closest points are a's and b's midpoints. Down by 2: g = |1 - 2u|
    // = e at u = 1/4 (plain contact at 1/2, crossing at the origin).
    check_zone_hit(decide(EE, query(a0, a1, b0, b1, translate(R(0, 0, -2))), e), at(q(1, 4)));
    check_plain_hit(decide(EE, query(a0, a1, b0, b1, translate(R(0, 0, -2)))), at(q(1, 2)), 1, false);
    // Starting at g = e: toward, contact at 0; away, free.
    const RationalVec3 c0 = R(-1, 0, e), c1 = R(1, 0, e);
    check_zone_hit(decide(EE, query(c0, c1, b0, b1, translate(R(0, 0, -1))), e), at(0));
    check_miss(decide(EE, query(c0, c1, b0, b1, translate(R(0, 0, 1))), e));
    // Edge b moving up instead (mover second): the same.
    check_zone_hit(decide(EE, query(a0, a1, b0, b1, translate(R(0, 0, 2)), Mover::second), e), at(q(1, 4)));
    // Closest points at segment ends count: b = (0,0,0)-(0,1,0) has its
    // closest point at b0 (s_b = 0); a = (0,0,1)-(1,0,1) at a0 (s_a = 0).
    check_zone_hit(decide(EE, query(a0, a1, kOrigin, b1, translate(R(0, 0, -2))), e), at(q(1, 4)));
    check_zone_hit(decide(EE, query(R(0, 0, 1), a1, b0, b1, translate(R(0, 0, -2))), e), at(q(1, 4)));
    // b = (0,1/8,0)-(0,1,0) misses the closest point (s_b < 0): free, and a
    // passes below b's end: no plain contact either.
    check_miss(decide(EE, query(a0, a1, R(0, q(1, 8), 0), b1, translate(R(0, 0, -2))), e));
    check_miss(decide(EE, query(a0, a1, R(0, q(1, 8), 0), b1, translate(R(0, 0, -2)))));
    // Parallel edges never contact in the zone; plain contact when a lands on
    // b at u = 1 (overlapping segments).
    const RationalVec3 p0 = R(-1, 0, 0), p1 = R(1, 0, 0);
    check_miss(decide(EE, query(a0, a1, p0, p1, translate(R(0, 0, -1))), e));
    check_plain_hit(decide(EE, query(a0, a1, p0, p1, translate(R(0, 0, -1)))), at(1), 0, true);
    // Starting crossing (g(0) = 0): free either way; plain contact at 0.
    for (const RationalVec3& dir : {R(0, 0, 1), R(0, 0, -1)}) {
      check_miss(decide(EE, query(p0, p1, b0, b1, translate(dir)), e));
      check_miss(decide(EE, query(p0, p1, b0, b1, translate(dir)), Q(std::ldexp(1.0, -40))));
      check_plain_hit(decide(EE, query(p0, p1, b0, b1, translate(dir))), at(0), 1, false);
    }
  }

  SUBCASE("rotation") {
    // a = (1,0,-1)-(1,0,1), vertical at (cos phi, sin phi), turns about z;
    // b = (-5,3/2,0)-(5,3/2,0) lies along x at y = 3/2. The lines are
    // g = 3/2 - sin phi apart, decreasing up to phi = 90. e = 7/10: g = e at
    // sin phi = 4/5, tan(phi/2) = 1/2: u* = 1/2 for tau = 1. The closest
    // points are a's mid-height (s_a = 1/2) and x = 3/5 on b (s_b = 0.56).
    const RationalVec3 r0 = R(1, 0, -1), r1 = R(1, 0, 1), s0 = R(-5, q(3, 2), 0), s1 = R(5, q(3, 2), 0);
    check_zone_hit(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, 1)), q(7, 10)), at(q(1, 2)));
    // Plain: g >= 1/2 > 0, never.
    check_miss(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, 1))));
    // b turning clockwise instead: the same.
    check_zone_hit(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, -1), Mover::second), q(7, 10)),
                   at(q(1, 2)));
    // e = 1/2: g reaches e only at u = 1 (phi = 90), its least value, where
    // it stops decreasing (right after 90 degrees it grows): free.
    check_miss(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, 1)), e));
    // Clockwise, a moves away from b (g grows from 3/2): free.
    check_miss(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, -1)), 2));
    // Starting inside the zone approaching (e = 2 > g(0) = 3/2): 0.
    check_zone_hit(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, 1)), 2), at(0));
    // b shortened to x in [1, 5]: at sin phi = 4/5 the closest point x = 3/5
    // is off it; as phi grows x = cos phi shrinks: never on b.
    check_miss(decide(EE, query(r0, r1, R(1, q(3, 2), 0), s1, rotate(kOrigin, kZ, 1)), q(7, 10)));
  }

  SUBCASE("rotation: starting inside the zone moving away, contact at the greatest distance") {
    // The same a; b = (-5,-1/2,0)-(5,-1/2,0) at y = -1/2: g = sin phi + 1/2,
    // in the zone (e = 2) from the start but growing up to 3/2 at phi = 90,
    // where it begins to decrease (closest points: a's mid-height, x = 0 on
    // b). tau = 2 reaches 90 degrees at u = 1/2; tau = 1 at u = 1 (decreasing
    // right after, on the motion continued); tau = 1/2 never (53 degrees).
    const RationalVec3 r0 = R(1, 0, -1), r1 = R(1, 0, 1), s0 = R(-5, q(-1, 2), 0), s1 = R(5, q(-1, 2), 0);
    check_zone_hit(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, 2)), 2), at(q(1, 2)));
    check_zone_hit(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, 1)), 2), at(1));
    check_miss(decide(EE, query(r0, r1, s0, s1, rotate(kOrigin, kZ, q(1, 2))), 2));
  }

  SUBCASE("rotation: parallel at u = 0, contact right after it") {
    // b = (-2,0,0)-(2,0,0) and a = (-2,1,0)-(2,1,0) are parallel, 1 apart.
    // a turns about the axis (1, 1, 0) through the origin, which crosses b at
    // the origin and a at (1, 1, 0). With c = cos(theta / 2), s = sin(theta
    // / 2): a's direction is ((1 + cos theta) / 2, (1 - cos theta) / 2,
    // -sin theta / sqrt 2), m = (0, -sin theta / sqrt 2, -(1 - cos theta) / 2),
    // |m|^2 = s^2 (1 + c^2), and from w = (0,0,0) - (1,1,0): m . w =
    // sqrt 2 s c, so g = sqrt 2 c / sqrt(1 + c^2), 1 in the limit theta -> 0
    // and decreasing in |theta|; the closest points sit at -1 / (1 + c^2)
    // along a from (1, 1, 0) and 1 / (1 + c^2) along b from the origin, on
    // both segments. With e = 1 every u in (0, 1] is a contact but u = 0
    // (parallel edges): toi = 0, the infimum, not a contact itself.
    const RationalVec3 a0 = R(-2, 1, 0), a1 = R(2, 1, 0), b0 = R(-2, 0, 0), b1 = R(2, 0, 0);
    const RationalVec3 axis = R(1, 1, 0);
    check_zone_hit(decide(EE, query(a0, a1, b0, b1, rotate(kOrigin, axis, 1)), 1), at(0));
    check_zone_hit(decide(EE, query(a0, a1, b0, b1, rotate(kOrigin, axis, -1)), 1), at(0));
    // e = 9/10: g <= e iff c^2 <= 81/119, with tan(theta / 2) = u tau |a| =
    // sqrt 2 u for tau = 1: c^2 = 1 / (1 + 2 u^2), so u* = sqrt 19 / 9.
    const Side root19 = [](const Q& t) { return sgn(81 * t * t - 19); };
    check_zone_hit(decide(EE, query(a0, a1, b0, b1, rotate(kOrigin, axis, 1)), q(9, 10)), root19);
    // The lines never meet (g >= 0.7): no plain contact.
    check_miss(decide(EE, query(a0, a1, b0, b1, rotate(kOrigin, axis, 1))));
  }
}

// ------------------------------------- translation: independent computations

// The linear query whose t = 1 points are those of the rigid translation at
// u = 1: the moving primitive's points plus v (exactly), the others as they
// are. Built without inverse(): with `mover` second the second primitive
// moves by +v.
RationalQuery linear_query(QueryType type, const RationalRigidQuery& r) {
  const int moving = type == VF ? 1 : 2;
  const RationalVec3& v = r.motion.translation;
  RationalQuery l;
  for (int i = 0; i < 4; ++i) {
    const RationalVec3& p = r.points[i];
    const bool moves = (i < moving) == (r.mover == Mover::first);
    l.points[i] = p;
    l.points[i + 4] = moves ? R(p.x + v.x, p.y + v.y, p.z + v.z) : p;
  }
  return l;
}

TEST_CASE("rigid.oracle.translation equals the linear oracle") {
  // Points and v from the linear tests' families (uniform doubles, integer
  // grids full of coplanar, parallel and touching cases, planar grids that
  // stay coplanar), and non-dyadic rationals.
  test::QueryGenerator gen(41);
  std::uniform_int_distribution<int> small(-6, 6);
  const std::size_t per_family = test::scaled(150, 40);
  for (QueryType type : {VF, EE}) {
    int hits = 0, coplanar = 0, at_ends = 0;
    for (int family = 0; family < 5; ++family) {
      for (std::size_t i = 0; i < per_family; ++i) {
        RationalQuery points;
        switch (family) {
          case 0: points = gen.uniform(); break;
          case 1: points = gen.grid(1, false); break;
          case 2: points = gen.grid(2, true); break;
          case 3: points = gen.grid(3, false); break;
          default:
            for (RationalVec3& p : points.points) {
              p = R(q(small(gen.rng()), 3), q(small(gen.rng()), 7), q(small(gen.rng()), 5));
            }
        }
        const RationalVec3& p4 = points.points[4];
        const RationalRigidQuery r = query(points.points[0], points.points[1], points.points[2],
                                           points.points[3], translate(p4),
                                           i % 2 == 0 ? Mover::first : Mover::second);
        const Result a = rigid_exact_ccd(type, r), b = exact_ccd(type, linear_query(type, r));
        CAPTURE(family);
        CAPTURE(i);
        INFO("rigid: " << test::describe(a) << "; linear: " << test::describe(b));
        REQUIRE(same(a, b));
        hits += b.hit;
        coplanar += b.always_coplanar;
        at_ends += b.hit && (b.toi_lo == 0 || b.toi_hi == 1);
      }
    }
    MESSAGE(to_string(type), ": ", hits, " hits, ", coplanar, " always coplanar, ", at_ends,
            " at u = 0 or 1, of ", 5 * per_family);
    CHECK(hits > int(per_family) / 2);
    CHECK(coplanar > 0);
    CHECK(at_ends > 0);
  }
}

// Exact rotations of space with rational entries (Pythagorean triples),
// rows of a 3x3 matrix.
using Rotation = std::array<std::array<Q, 3>, 3>;

const Rotation kIdentity = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
// About z by cos 3/5, sin 4/5.
const Rotation kRz = {{{q(3, 5), q(-4, 5), 0}, {q(4, 5), q(3, 5), 0}, {0, 0, 1}}};
// About x by cos 5/13, sin 12/13.
const Rotation kRx = {{{1, 0, 0}, {0, q(5, 13), q(-12, 13)}, {0, q(12, 13), q(5, 13)}}};
// The cyclic permutation of the axes (x, y, z) -> (y, z, x) (determinant 1).
const Rotation kCycle = {{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}};

RationalVec3 turned(const Rotation& m, const RationalVec3& p) {
  const Q v[3] = {p.x, p.y, p.z};
  Q r[3];
  for (int i = 0; i < 3; ++i) r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  return R(r[0], r[1], r[2]);
}

Rotation compose(const Rotation& a, const Rotation& b) {
  Rotation r;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  }
  return r;
}

Q dot3(const RationalVec3& a, const RationalVec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
RationalVec3 sub3(const RationalVec3& a, const RationalVec3& b) { return R(a.x - b.x, a.y - b.y, a.z - b.z); }
RationalVec3 add3(const RationalVec3& a, const RationalVec3& b) { return R(a.x + b.x, a.y + b.y, a.z + b.z); }
RationalVec3 cross3(const RationalVec3& a, const RationalVec3& b) {
  return R(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

// A zone answer against an independently computed rational toi (nullopt:
// no contact).
void check_expected(const Result& r, const std::optional<Q>& expected) {
  INFO(test::describe(r));
  REQUIRE(r.hit == expected.has_value());
  if (expected) check_zone_hit(r, at(*expected));
}

// The infimum of {u in [0, 1] : every constraint holds}, constraints
// c0 + c1 u >= 0 (closed) or > 0 (open): nullopt when empty.
struct Linear {
  Q c0, c1;
  bool open = false;
};
std::optional<Q> infimum(const std::vector<Linear>& constraints) {
  Q lo = 0, hi = 1;
  bool lo_open = false, hi_open = false;
  for (const Linear& c : constraints) {
    if (sgn(c.c1) == 0) {
      if (sgn(c.c0) < 0 || (c.open && sgn(c.c0) == 0)) return std::nullopt;
      continue;
    }
    const Q bound = -c.c0 / c.c1;
    if (sgn(c.c1) > 0) {  // u >= bound
      if (bound > lo || (bound == lo && c.open)) {
        lo = bound;
        lo_open = c.open;
      }
    } else if (bound < hi || (bound == hi && c.open)) {  // u <= bound
      hi = bound;
      hi_open = c.open;
    }
  }
  if (lo < hi || (lo == hi && !lo_open && !hi_open)) return lo;
  return std::nullopt;
}

TEST_CASE("rigid.oracle.translation vertex-face zone against van Waveren's closed form") {
  // van Waveren: with d1, d2 the vertex's signed distances to the face's plane
  // at u = 0 and 1, the vertex collides when the line of its move passes
  // through the closed face (Pluecker sidedness against the three edges: all
  // of one sign or 0), d1 >= 0, d2 <= e and d1 > d2, at u* = max(0, (d1 - e)
  // / (d1 - d2)). (His report has d2 < e; rigid_ccd.hpp's zone 0 <= h <= e
  // is closed, which adds the contact at u = 1 when d2 = e.) Computed here in
  // rationals from |n|, rational for these faces.
  std::mt19937_64 rng(43);
  std::uniform_int_distribution<int> g(-3, 3);
  const Rotation turns[] = {kIdentity, kRz, kRx, compose(kRz, kRx), kCycle};
  const Q expels[] = {q(1, 2), 1, 2, q(1, 3)};
  const std::size_t count = test::scaled(1500, 200);
  int hits = 0, at_one = 0, at_zero = 0, beside = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Rotation& turn = turns[i % 5];
    const Q c = g(rng);
    std::array<RationalVec3, 3> flat, f;
    for (RationalVec3& p : flat) p = R(g(rng), g(rng), c);
    // Half of the moves start in front of the plane (the face turned to
    // face +z) near its centroid, and head for it.
    const bool toward = i % 2 == 0;
    if (toward && sgn(cross3(sub3(flat[1], flat[0]), sub3(flat[2], flat[0])).z) < 0) std::swap(flat[1], flat[2]);
    for (int k = 0; k < 3; ++k) f[k] = turned(turn, flat[k]);
    std::uniform_int_distribution<int> near(-1, 1), height(0, 3);
    const Q cx = (flat[0].x + flat[1].x + flat[2].x) / 3, cy = (flat[0].y + flat[1].y + flat[2].y) / 3;
    const RationalVec3 x = turned(turn, toward ? R(cx + q(near(rng), 2), cy + q(near(rng), 2), c + height(rng))
                                               : R(g(rng), g(rng), g(rng)));
    const RationalVec3 v = turned(turn, toward ? R(q(near(rng), 2), q(near(rng), 2), -height(rng))
                                               : R(g(rng), g(rng), g(rng)));
    const Q e = expels[i % 4];
    const Mover mover = i % 3 == 0 ? Mover::second : Mover::first;
    // The vertex's move relative to the face.
    const RationalVec3 rel = mover == Mover::first ? v : R(-v.x, -v.y, -v.z);
    const RationalVec3 n = cross3(sub3(f[1], f[0]), sub3(f[2], f[0]));
    // |n| = |n_z| of the face before the turn (rotations keep lengths).
    const Q n_len = abs(cross3(sub3(flat[1], flat[0]), sub3(flat[2], flat[0])).z);
    REQUIRE(n_len * n_len == dot3(n, n));
    std::optional<Q> expected;
    if (sgn(n_len) != 0) {
      const Q d1 = dot3(n, sub3(x, f[0])) / n_len, d2 = dot3(n, sub3(add3(x, rel), f[0])) / n_len;
      // Pluecker: the line (rel, x x rel) against the edge lines (e_i, f_i x e_i).
      int positive = 0, negative = 0;
      for (int k = 0; k < 3; ++k) {
        const RationalVec3 edge = sub3(f[(k + 1) % 3], f[k]);
        const int side = sgn(dot3(rel, cross3(f[k], edge)) + dot3(edge, cross3(x, rel)));
        positive += side > 0;
        negative += side < 0;
      }
      const bool through = positive == 0 || negative == 0;
      if (through && sgn(d1) >= 0 && d2 <= e && d1 > d2) {
        const Q u = (d1 - e) / (d1 - d2);
        expected = sgn(u) > 0 ? u : Q(0);
      }
    }
    CAPTURE(i);
    const Result r = decide(VF, query(x, f[0], f[1], f[2], translate(v), mover), e);
    // rigid_ccd.hpp adds that the vertex be within e of the face, which holds
    // at van Waveren's fraction when the vertex is over the face there (its
    // distance is then h <= e). Beside the face, a contact can only come
    // later, once the vertex is within e of an edge: not before his fraction.
    bool over = false;
    if (expected) {
      const RationalVec3 p = add3(x, R(*expected * rel.x, *expected * rel.y, *expected * rel.z));
      over = true;
      for (int k = 0; k < 3; ++k) {
        const RationalVec3 edge = sub3(f[(k + 1) % 3], f[k]);
        over = over && sgn(dot3(cross3(edge, sub3(p, f[k])), n)) >= 0;
      }
    }
    if (!expected || over) {
      check_expected(r, expected);
    } else {
      ++beside;
      if (r.hit) CHECK(Q(r.toi_hi) >= *expected);
    }
    if (expected && over) {
      ++hits;
      at_zero += sgn(*expected) == 0;
      at_one += *expected == 1;
    }
  }
  MESSAGE(hits, " hits (", at_zero, " at u = 0, ", at_one, " at u = 1) of ", count, "; ", beside,
          " beside the face at his fraction");
  CHECK(hits > int(count) / 20);
  CHECK(at_zero > 0);
  CHECK(at_one > 0);
}

TEST_CASE("rigid.oracle.translation edge-edge zone against intervals of linear constraints") {
  // For a translation, m = da x db is constant and every condition of the
  // edge-edge rule is linear in u. The closest points' parameters come from
  // the normal equations of min |a0 + s da - b0 - t db|^2 (a Gram system,
  // not the oracle's triple products): with w = b0 - a0,
  //   s |m|^2 = (da . w)(db . db) - (da . db)(db . w),
  //   t |m|^2 = (da . db)(da . w) - (da . da)(db . w);
  // the line distance is |m . w| / |m| (|m| rational for edges along two
  // axes, turned by an exact rotation), decreasing right after u iff
  // (m . w)(m . w)' < 0 (open).
  std::mt19937_64 rng(47);
  std::uniform_int_distribution<int> g(-3, 3), len(1, 3), axis(0, 2);
  const Rotation turns[] = {kIdentity, kRz, kRx, compose(kRx, kRz)};
  const Q expels[] = {q(1, 2), 1, 2};
  const std::size_t count = test::scaled(1500, 200);
  int hits = 0, at_zero = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Rotation& turn = turns[i % 4];
    // Edges along two different axes (before the turn), the third axis c.
    const int ia = axis(rng), ib = (ia + 1 + int(rng() % 2)) % 3, ic = 3 - ia - ib;
    const auto along = [](int k, const Q& length) {
      return R(k == 0 ? length : Q(0), k == 1 ? length : Q(0), k == 2 ? length : Q(0));
    };
    RationalVec3 da = along(ia, len(rng) * (rng() % 2 ? 1 : -1)), db = along(ib, len(rng) * (rng() % 2 ? 1 : -1));
    const RationalVec3 b0 = R(g(rng), g(rng), g(rng));
    RationalVec3 a0 = R(g(rng), g(rng), g(rng)), v = R(g(rng), g(rng), g(rng));
    if (i % 2 == 0) {
      // Half of them: a's middle at height k over b's middle (along c),
      // moving down by j with a small jitter along a and b.
      std::uniform_int_distribution<int> near(-1, 1), height(0, 3);
      const int k = height(rng);
      a0 = add3(sub3(add3(b0, R(db.x / 2, db.y / 2, db.z / 2)), R(da.x / 2, da.y / 2, da.z / 2)), along(ic, k));
      v = add3(add3(along(ic, -height(rng)), along(ia, q(near(rng), 2))), along(ib, q(near(rng), 2)));
    }
    a0 = turned(turn, a0);
    v = turned(turn, v);
    da = turned(turn, da);
    db = turned(turn, db);
    const RationalVec3 b0t = turned(turn, b0);
    const Q e = expels[i % 3];
    const Mover mover = i % 3 == 0 ? Mover::second : Mover::first;
    const RationalVec3 rel = mover == Mover::first ? v : R(-v.x, -v.y, -v.z);  // a's move relative to b
    const RationalVec3 m = cross3(da, db);
    // |m| = |da| |db| (perpendicular), each an integer length.
    const Q m_len = sqrt(mpz_class((dot3(da, da)).get_num())) * sqrt(mpz_class((dot3(db, db)).get_num()));
    REQUIRE(m_len * m_len == dot3(m, m));
    // w(u) = w0 + u w1 with w0 = b0 - a0, w1 = -rel.
    const RationalVec3 w0 = sub3(b0t, a0), w1 = R(-rel.x, -rel.y, -rel.z);
    const Q aa = dot3(da, da), bb = dot3(db, db), ab = dot3(da, db), mm = dot3(m, m);
    const auto s_num = [&](const RationalVec3& w) -> Q { return dot3(da, w) * bb - ab * dot3(db, w); };
    const auto t_num = [&](const RationalVec3& w) -> Q { return ab * dot3(da, w) - aa * dot3(db, w); };
    const Q p0 = dot3(m, w0), p1 = dot3(m, w1);
    const std::vector<Linear> constraints = {
        {e * m_len - p0, -p1},                        // m . w <= e |m|
        {e * m_len + p0, p1},                         // m . w >= -e |m|
        {-p0 * p1, -p1 * p1, true},                   // (m . w)(m . w)' < 0
        {s_num(w0), s_num(w1)},                       // s >= 0
        {mm - s_num(w0), -s_num(w1)},                 // s <= 1
        {t_num(w0), t_num(w1)},                       // t >= 0
        {mm - t_num(w0), -t_num(w1)},                 // t <= 1
    };
    const std::optional<Q> expected = infimum(constraints);
    CAPTURE(i);
    check_expected(decide(EE, query(a0, add3(a0, da), b0t, add3(b0t, db), translate(v), mover), e), expected);
    if (expected) {
      ++hits;
      at_zero += sgn(*expected) == 0;
    }
  }
  MESSAGE(hits, " hits (", at_zero, " at u = 0) of ", count);
  CHECK(hits > int(count) / 20);
  CHECK(at_zero > 0);
}

// ------------------------------------------------------------- metamorphic

// A query and its expel zone, transformed together.
struct Case {
  RationalRigidQuery query;
  Q expel;
};
using Transform = std::function<Case(const Case&)>;

// Maps every point and the center by `point`, the translation and the axis
// by `vector`, the expel by `length`.
Case map_space(const Case& c, const std::function<RationalVec3(const RationalVec3&)>& point,
               const std::function<RationalVec3(const RationalVec3&)>& vector, const Q& length) {
  Case r = c;
  for (RationalVec3& p : r.query.points) p = point(p);
  RationalRigidMotion& m = r.query.motion;
  m.translation = vector(m.translation);
  m.center = point(m.center);
  m.axis = vector(m.axis);
  r.expel = length * c.expel;
  return r;
}

Case reorder(const Case& c, std::array<int, 4> order) {
  Case r = c;
  for (int i = 0; i < 4; ++i) r.query.points[i] = c.query.points[order[i]];
  return r;
}

// Transformations that keep the whole answer.
std::vector<std::pair<const char*, Transform>> symmetries(QueryType type, const Case& c) {
  const auto turn = [](const Rotation& m) {
    return [m](const Case& c) {
      const auto f = [&](const RationalVec3& p) { return turned(m, p); };
      return map_space(c, f, f, 1);
    };
  };
  // Points, center, translation and expel scaled; not the axis, whose length
  // sets the angle's rate.
  const auto scale = [](const Q& s) {
    return [s](const Case& c) {
      const auto f = [&](const RationalVec3& p) { return R(s * p.x, s * p.y, s * p.z); };
      Case r = map_space(c, f, f, s);
      r.query.motion.axis = c.query.motion.axis;
      return r;
    };
  };
  std::vector<std::pair<const char*, Transform>> t = {
      {"translated scene",
       [](const Case& c) {
         const RationalVec3 d = R(q(3, 7), q(-5, 2), 1024);
         return map_space(c, [&](const RationalVec3& p) { return add3(p, d); },
                          [](const RationalVec3& v) { return v; }, 1);
       }},
      {"turned about z (3/5, 4/5)", turn(kRz)},
      {"turned about x and z", turn(compose(kRx, kRz))},
      {"axes cycled", turn(kCycle)},
      {"scaled by 2^20", scale(Q(mpz_class(1) << 20))},
      {"scaled by 2^-10", scale(Q(mpz_class(1), mpz_class(1) << 10))},
  };
  // Only the fields of the motion's type are read: the points and vectors
  // of the other type (zero here) may change freely.
  if (c.query.motion.type == RigidMotionType::rotation && c.query.motion.tan_half_infinity == 0) {
    // s a unchanged: g = 1, s = u tau.
    t.push_back({"axis doubled, tan_half halved", [](const Case& c) {
                   Case r = c;
                   RationalRigidMotion& m = r.query.motion;
                   m.axis = R(2 * m.axis.x, 2 * m.axis.y, 2 * m.axis.z);
                   m.tan_half /= 2;
                   return r;
                 }});
  }
  if (type == VF) {
    // A cyclic order keeps the face's front.
    t.push_back({"face 1 2 0", [](const Case& c) { return reorder(c, {0, 2, 3, 1}); }});
    t.push_back({"face 2 0 1", [](const Case& c) { return reorder(c, {0, 3, 1, 2}); }});
  } else {
    t.push_back({"edge a reversed", [](const Case& c) { return reorder(c, {1, 0, 2, 3}); }});
    t.push_back({"edge b reversed", [](const Case& c) { return reorder(c, {0, 1, 3, 2}); }});
    // The same edge moves, now the other primitive of the query: decided
    // relative to the other edge (the inverse motion), the same contacts.
    t.push_back({"edges swapped", [](const Case& c) {
                   Case r = reorder(c, {2, 3, 0, 1});
                   r.query.mover = c.query.mover == Mover::first ? Mover::second : Mover::first;
                   return r;
                 }});
  }
  if (sgn(c.expel) == 0 && type == VF) {
    // Plain contact has no front.
    t.push_back({"face 0 2 1", [](const Case& c) { return reorder(c, {0, 1, 3, 2}); }});
  }
  return t;
}

// The query on [0, s] stretched to [0, 1]: tan_half or the translation times
// s (x(s u) of rigid_motion.hpp for a finite tau). Not for half turns.
RationalRigidQuery restricted_to(const RationalRigidQuery& q, const Q& s) {
  RationalRigidQuery r = q;
  RationalRigidMotion& m = r.motion;
  m.translation = R(s * m.translation.x, s * m.translation.y, s * m.translation.z);
  m.tan_half *= s;
  return r;
}

// The contact set's infimum u* satisfies toi_lo <= u* <= toi_hi: the query
// restricted to [0, toi_hi] collides and, when toi_lo < u*, the one
// restricted to [0, toi_lo] does not; when u* is a double (toi_lo = toi_hi)
// nothing happens before the double below it. (A zone contact may begin
// right after u* without u* itself (rigid_ccd.hpp): then [0, toi_hi] may
// have none when toi_hi = u*, and the next double must.)
void check_restrictions(QueryType type, const Case& c, const Result& r) {
  const RationalRigidQuery& query = c.query;
  if (query.motion.type == RigidMotionType::rotation && query.motion.tan_half_infinity != 0) return;
  const auto hits_until = [&](double s) { return rigid_exact_ccd(type, restricted_to(query, s), c.expel).hit; };
  CHECK((hits_until(r.toi_hi) || (r.toi_lo == r.toi_hi && hits_until(std::nextafter(r.toi_hi, 2.0)))));
  const double before = r.toi_lo == r.toi_hi ? std::nextafter(r.toi_lo, -1.0) : r.toi_lo;
  if (before >= 0) CHECK_FALSE(hits_until(before));
}

TEST_CASE("rigid.oracle.metamorphic symmetries and time of impact") {
  const Q expels[] = {0, q(1, 4), 1};
  for (QueryType type : {VF, EE}) {
    for (RigidMotionType motion : {RigidMotionType::translation, RigidMotionType::rotation}) {
      test::RigidQueryGenerator gen(type == VF ? 51 + int(motion) : 53 + int(motion));
      const std::size_t count = test::scaled(400, 40);
      int hits = 0, zone_hits = 0;
      for (std::size_t i = 0; i < count; ++i) {
        const Case c{gen.any(type, motion), expels[i % 3]};
        CAPTURE(i);
        const Result base = decide(type, c.query, c.expel);
        INFO("base: " << test::describe(base));
        REQUIRE(base.status == Status::exact);
        for (const auto& [name, transform] : symmetries(type, c)) {
          const Case t = transform(c);
          const Result r = decide(type, t.query, t.expel);
          INFO(std::string(name) << ": " << test::describe(r));
          CHECK(same(r, base));
        }
        if (base.hit) {
          ++hits;
          zone_hits += sgn(c.expel) > 0;
          CHECK((0 <= base.toi_lo && base.toi_hi <= 1));
          check_restrictions(type, c, base);
        }
      }
      MESSAGE(to_string(type), " ", to_string(motion), ": ", hits, " hits (", zone_hits, " in the zone) of ",
              count);
      CHECK(hits > int(count) / 10);
      CHECK(zone_hits > int(count) / 20);
    }
  }
}

// ---------------------------------------------------------- invalid input

TEST_CASE("rigid.oracle.invalid input") {
  RigidQuery base;
  base.points = {Vec3{0.25, 0.25, 1}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}};
  base.motion = RigidMotion::translate({0, 0, -2});
  const auto invalid = [](const Result& r) {
    CHECK(r.status == Status::invalid_input);
    CHECK_FALSE(r.hit);
    CHECK(std::isinf(r.toi_lo));
    CHECK(std::isinf(r.toi_hi));
  };
  REQUIRE(rigid_exact_ccd(VF, base).hit);
  for (double bad : {kNaN, kInf, -kInf}) {
    RigidQuery q1 = base;
    q1.points[2].y = bad;
    invalid(rigid_exact_ccd(VF, q1));
    RigidQuery q2 = base;
    q2.motion.translation.z = bad;
    invalid(rigid_exact_ccd(VF, q2, 0.25));
    RigidQuery q3 = base;
    q3.motion = RigidMotion::rotate({bad, 0, 0}, {0, 0, 1}, 1);
    invalid(rigid_exact_ccd(EE, q3));
    q3.motion = RigidMotion::rotate({0, 0, 0}, {0, bad, 1}, 1);
    invalid(rigid_exact_ccd(EE, q3));
    invalid(rigid_exact_ccd(VF, base, bad));  // expel NaN or infinite
  }
  RigidQuery nan_tau = base;
  nan_tau.motion = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, kNaN);
  invalid(rigid_exact_ccd(VF, nan_tau));
  // Unread fields of the other motion type do not matter.
  RigidQuery unread = base;
  unread.motion.tan_half = kNaN;
  unread.motion.center = {kInf, 0, 0};
  CHECK(same(rigid_exact_ccd(VF, unread), rigid_exact_ccd(VF, base)));
  // A half turn about a zero axis, as doubles and as rationals.
  RigidQuery half = base;
  half.motion = RigidMotion::rotate({0, 0, 0}, {0, 0, 0}, kInf);
  invalid(rigid_exact_ccd(VF, half));
  invalid(rigid_exact_ccd(VF, to_rational(half)));
  half.motion.tan_half = -kInf;
  invalid(rigid_exact_ccd(EE, half, 0.5));
  // A half turn about a nonzero axis is valid input.
  half.motion.axis = {0, 0, 1};
  CHECK(rigid_exact_ccd(VF, half).status == Status::exact);
  // Negative expel, as doubles and as rationals; -0 is 0.
  invalid(rigid_exact_ccd(VF, base, -0.25));
  invalid(rigid_exact_ccd(VF, base, -std::ldexp(1.0, -1074)));
  invalid(rigid_exact_ccd(VF, to_rational(base), q(-1, 3)));
  CHECK(same(rigid_exact_ccd(VF, base, -0.0), rigid_exact_ccd(VF, base)));
  // A mover naming neither primitive.
  RigidQuery bogus = base;
  bogus.mover = static_cast<Mover>(7);
  invalid(rigid_exact_ccd(VF, bogus));
  // Finite input beyond the kernels' domain is decided: (2^61 away).
  RigidQuery far = base;
  far.points[0] = {0.25, 0.25, std::ldexp(1.0, 61)};
  far.motion.translation = {0, 0, -std::ldexp(1.0, 62)};
  CHECK_FALSE(is_valid(far));
  const Result r = rigid_exact_ccd(VF, far);
  CHECK(r.status == Status::exact);
  CHECK(r.hit);
  CHECK(r.toi_lo == 0.5);
}

}  // namespace
}  // namespace simdccd
