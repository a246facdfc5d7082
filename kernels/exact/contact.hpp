// Plain contact of four points on polynomial motions: the decision of the
// exact oracles (exact_oracle.hpp for linear motion, rigid_oracle.hpp for
// rigid motion).
#pragma once

#include <array>

#include <optional>

#include "exact/polynomial.hpp"
#include "exact/real_root.hpp"
#include "simdccd/query.hpp"
#include "simdccd/result.hpp"

namespace simdccd::exact {

/// Four points, VF p, f0, f1, f2 or EE a0, a1, b0, b1, each at
/// x_i(t) = X_i(t) / W(t) with one weight W > 0 on [0, 1]. Every predicate
/// of the decision is a homogeneous polynomial in the points, so its sign
/// is that of the same polynomial in the X_i: the weight changes no answer.
struct PolyMotion {
  std::array<PolyVec3, 4> X;
  Poly W{1};
};

/// Whether the closed primitives share a point for some t in [0, 1], the
/// earliest such t, and the coplanarity polynomial's part of the answer
/// (Result::contact_roots, always_coplanar): the method of exact_oracle.hpp.
/// The coplanarity polynomial is det[X1 - X0, X2 - X0, X3 - X0] with every
/// factor W divided out (W has no real root, so the roots are those of the
/// points' coplanarity).
Result plain_contact(QueryType type, const PolyMotion& m);

/// An exact answer: a hit at `toi` (its enclosure), or none (nullopt).
Result exact_result(const std::optional<RealRoot::Enclosure>& toi);

/// The lines a0 + s_a da and b0 + s_b db, with w = b0 - a0 and n = da x db:
/// where n != 0 their closest points have s_a = along_a / |n|^2 and
/// s_b = along_b / |n|^2 (the intersection point when they are coplanar).
struct LineParameters {
  Poly along_a, along_b;
};
LineParameters line_parameters(const PolyVec3& da, const PolyVec3& db, const PolyVec3& w,
                               const PolyVec3& n);

}  // namespace simdccd::exact
