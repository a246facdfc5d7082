// The exact distance between the convex hulls of two point sets of any size:
// GJK run in exact arithmetic (integers and rationals, GMP). A second exact
// method beside exact_distance.hpp's hulls, which brute force limits to
// exact_max_points points a set: here each iteration costs one pass over the
// points, and in exact arithmetic GJK ends after finitely many (|v| falls
// strictly each time, and no simplex can come back). It settles the float
// GJK's stalls near contact on polytopes of any size (gjk.hpp, rule 5) and
// judges pairs beyond the hull method's reach; the tests hold the two exact
// methods equal. docs/convex_exact.md describes the method.
#pragma once

#include <span>

#include <gmpxx.h>

#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/query.hpp"

namespace simdccd::convex {

/// The exact distance between conv(a) and conv(b), as
/// exact_polytope_distance() answers it (the same `intersecting`,
/// `squared_distance` and `distance`; a closest pair, which need not be the
/// same one where several are closest).
///
/// `hint`: a direction from b towards a (the last v of a float GJK, say);
/// only the first support point comes from it, so any vector serves (0 or
/// one not finite: the first points of a and b start).
///
/// Preconditions (std::invalid_argument otherwise): each set has at least
/// one point, every coordinate finite (any magnitude; `distance` is +inf
/// where D exceeds the largest double, squared_distance stays exact).
/// Thread-safe. Cost: an iteration is a pass of integer dot products over
/// the points, whose integers span the sets' exponent range (a few thousand
/// bits for coordinates from 2^-1074 to 2^1023: then 0.2 s for 2,000 points
/// a set, where unit-scale sets take about 0.01 s).
ExactPolytopeDistance exact_gjk_distance(std::span<const Vec3> a, std::span<const Vec3> b, const Vec3& hint = {});

/// Whether the squared distance between conv(a) and conv(b) is at most
/// `limit` (a finite double), exactly; stops as soon as an iteration decides
/// (|v|^2 <= limit, or a plane through a support point more than
/// sqrt(limit) from the origin). Same preconditions and hint.
bool exact_gjk_within(std::span<const Vec3> a, std::span<const Vec3> b, double limit, const Vec3& hint = {});

}  // namespace simdccd::convex
