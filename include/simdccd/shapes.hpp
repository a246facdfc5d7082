// Polyhedra to trace against (polyhedra.hpp), built by code: boxes, prisms
// over a polygon (gears are prisms over a toothed outline), and an exact test
// of a point strictly inside a convex polyhedron, for checking traces.
#pragma once

#include <vector>

#include "simdccd/polyhedra.hpp"
#include "simdccd/query.hpp"

namespace simdccd {

/// The axis-aligned box [lo, hi], 8 vertices and 12 triangles facing out.
Polyhedron box(const Vec3& lo, const Vec3& hi);

/// A right prism: the simple polygon `outline` (counter-clockwise in the x-y
/// plane, given by its (x, y) points) extruded from z = z0 to z = z1 > z0:
/// side quads as two triangles each, caps fanned from the centroid (the
/// outline must be star-shaped about it), all facing out.
Polyhedron prism(const std::vector<Vec3>& outline, double z0, double z1);

/// A gear's outline: `teeth` trapezoidal teeth between radii `root` and
/// `tip` about (cx, cy), tooth phase `phase` (radians), counter-clockwise;
/// 4 points a tooth. Star-shaped about its center (prism's cap fan).
std::vector<Vec3> gear_outline(double cx, double cy, double root, double tip, int teeth, double phase);

/// Exact (rational arithmetic): p lies strictly inside the closed convex
/// polyhedron `convex` (outward, counter-clockwise triangles): strictly
/// behind the plane of every non-degenerate triangle.
bool strictly_inside(const Polyhedron& convex, const Vec3& p);

}  // namespace simdccd
