// The exact judge of GJK on convex polytopes: whether the convex hulls of two
// point sets intersect, and their exact squared distance with a closest point
// pair, in rational arithmetic (GMP) behind floating-point filters whose every
// decision carries a proven error bound. Independent of GJK (no support
// mappings, no simplices): exact hulls, separating axes, feature pairs.
// docs/convex_exact.md describes the method.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <gmpxx.h>

#include "simdccd/query.hpp"

namespace simdccd::convex {

/// The most points a set may have: the hull is found by brute force over
/// point triples (O(n^4) orientation tests, most of them cut short).
inline constexpr std::size_t exact_max_points = 128;
/// The largest coordinate magnitude accepted (keeps every filter product far
/// from overflow).
inline constexpr double exact_max_magnitude = 0x1p100;

/// A point with exact rational coordinates.
using ExactPoint = std::array<mpq_class, 3>;

struct ExactPolytopeDistance {
  /// The closed hulls share a point (touching counts).
  bool intersecting = false;
  /// The exact squared distance between the hulls; 0 when intersecting.
  mpq_class squared_distance;
  /// sqrt(squared_distance) in double, within 2 ulps (for reporting).
  double distance = 0;
  /// Separate hulls: a closest pair, point_a on conv(a) and point_b on
  /// conv(b), |point_b - point_a|^2 = squared_distance exactly. Intersecting:
  /// unset (zeros).
  ExactPoint point_a, point_b;
  /// The same pair rounded to doubles (each coordinate truncated toward zero).
  Vec3 approx_a{}, approx_b{};
};

/// Whether a point set meets the preconditions below: 1 to exact_max_points
/// points, every coordinate finite and at most exact_max_magnitude.
bool exact_accepts(std::span<const Vec3> points);

/// The exact distance between conv(a) and conv(b).
///
/// Guarantee: `intersecting` and `squared_distance` are the exact answers for
/// the closed convex hulls of the given doubles, whatever the configuration:
/// touching, coplanar faces, parallel edges, and degenerate hulls (duplicate
/// points; all points coplanar: a polygon; collinear: a segment; one point).
/// Every floating-point shortcut decides only when its proven error bound
/// allows; otherwise the question is settled in mpq.
///
/// Preconditions (std::invalid_argument otherwise): each set has 1 to
/// exact_max_points points, every coordinate finite and at most
/// exact_max_magnitude in magnitude. Thread-safe (no shared state).
ExactPolytopeDistance exact_polytope_distance(std::span<const Vec3> a, std::span<const Vec3> b);

/// Whether the closed hulls intersect (exact; the first half of
/// exact_polytope_distance, without the distance). Same preconditions.
bool exact_intersecting(std::span<const Vec3> a, std::span<const Vec3> b);

/// The boundary of conv(points) as triangles of point indices, from the same
/// exact hull the distance uses (no second hull code), for turning a convex
/// polytope into a Polyhedron (polyhedra.hpp). What comes back, by the
/// dimension of the hull:
/// - solid: each facet (a maximal planar face) fanned from one of its
///   extreme points over its extreme points in order, counter-clockwise seen
///   from outside (outward orientation); no two triangles overlap and the
///   triangles meet edge to edge (a closed 2-manifold). Points that are not
///   extreme (inside the hull, inside a facet or on an edge, duplicates after
///   the first) are used by no triangle.
/// - flat (all points coplanar): the polygon fanned likewise, counter-clockwise
///   about the normal (p[i1] - p[0]) x (p[i2] - p[0]) of the first points
///   p[0], p[i1], p[i2] not on a line (one side only: a flat hull has no outside).
/// - segment (all points on a line): one degenerate triangle {lo, hi, hi} of
///   its two end points (it carries the edge lo-hi into polyhedron_edges()).
/// - point (all points equal): no triangle.
/// Same preconditions as exact_polytope_distance (std::invalid_argument).
std::vector<std::array<std::uint32_t, 3>> exact_hull_triangles(std::span<const Vec3> points);

}  // namespace simdccd::convex
