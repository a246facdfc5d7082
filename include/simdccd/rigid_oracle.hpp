// The exact oracle of the rigid-body model (rigid_ccd.hpp, rigid_motion.hpp):
// decides a vertex-face or edge-edge query under a translation or a rotation,
// plain contact or expel zone, in rational arithmetic.
//
// Method: in the frame of the still primitive (relative_to_still), every
// moving point is x(u) = X(u) / W(u) with X a polynomial vector of degree <= 2
// (degree 1 for a translation, with W = 1) and W(u) = g^2 + s^2 |a|^2 > 0 on
// [0, 1] (rigid_motion.hpp); the still points are X = W x. Every predicate of
// the contact rules is homogeneous in the points, so it becomes the sign of a
// polynomial in u with rational coefficients:
// - plain contact: the method of exact_oracle.hpp on these polynomial
//   motions (the coplanarity polynomial, with the factors of W divided out,
//   isolated by Sturm sequences; inclusion from exact signs at each root; an
//   identically zero polynomial reduced exactly to point-edge and point-point
//   contact);
// - expel zone: every condition of the rules is a polynomial sign condition
//   (distances compared through their squares, "strictly decreasing right
//   after u" through the sign of the first nonzero derivative), so the
//   infimum of the contact set is 0 or a root of one of those polynomials:
//   the candidates are tested in increasing order, each at the point itself
//   and on the interval right after it, by exact signs at algebraic numbers.
// Degenerate input (coplanar, parallel or collinear features, points on the
// axis, zero-length edges, contact at u = 0 or 1, tangential contact) is
// decided exactly.
#pragma once

#include <array>

#include <gmpxx.h>

#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"
#include "simdccd/rigid_ccd.hpp"

namespace simdccd {

/// A RigidMotion with rational parameters. A half turn has
/// `tan_half_infinity` = +1 or -1 (and `tan_half` unused).
struct RationalRigidMotion {
  RigidMotionType type = RigidMotionType::translation;
  RationalVec3 translation, center, axis;
  mpq_class tan_half;
  int tan_half_infinity = 0;
  /// Every field, those the type does not read included.
  friend bool operator==(const RationalRigidMotion&, const RationalRigidMotion&) = default;
};

struct RationalRigidQuery {
  std::array<RationalVec3, 4> points;
  Mover mover = Mover::first;
  RationalRigidMotion motion;
  friend bool operator==(const RationalRigidQuery&, const RationalRigidQuery&) = default;
};

/// Exact: every finite double is a rational. Precondition: the query's
/// numbers are finite except tan_half, which may be infinite.
RationalRigidQuery to_rational(const RigidQuery& q);
/// Each number rounded to the nearest double (an infinite tan_half stays
/// infinite; a finite one beyond double's range becomes NaN, so is_valid()
/// refuses it as it refuses any |tan_half| > 2^60).
RigidQuery to_double(const RationalRigidQuery& q);

/// The exact answer (Result, result.hpp): `hit`; the infimum u* of the
/// contact set (rigid_ccd.hpp) as the tightest doubles toi_lo <= u* <= toi_hi;
/// for plain contact `contact_roots` (the distinct roots in [0, 1] of the
/// coplanarity polynomial at which the primitives touch) and `always_coplanar`
/// (the four points stay coplanar); for the expel zone both are 0 / false.
/// `status` is `exact`, or `invalid_input` for a half turn about a zero axis
/// or a negative `expel`.
Result rigid_exact_ccd(QueryType type, const RationalRigidQuery& q, const mpq_class& expel = 0);

/// The same for doubles, read exactly: any finite input (not only the
/// kernels' domain); `invalid_input` for NaN, infinite coordinates or
/// parameters (but an infinite tan_half), a half turn about a zero axis, or an
/// `expel` that is negative or not finite.
Result rigid_exact_ccd(QueryType type, const RigidQuery& q, double expel = 0);

}  // namespace simdccd
