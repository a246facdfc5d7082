// The exact oracle of the space-time motion model (Brochu & Bridson 2009,
// "Numerically Robust Continuous Collision Detection for Dynamic Explicit
// Surfaces"), in rational arithmetic.
//
// The model: a point p at time t lifts to (p, t) in R^4 (R^3 for the planar
// case), x to (x, 0) and x' to (x', 1) for the t=0 and t=1 positions. Instead
// of curved swept surfaces it uses flat simplices cut along diagonals chosen
// by global vertex id, so that elements sharing vertices share diagonals:
// - a moving vertex sweeps the segment (p, p');
// - a moving edge whose endpoints, ordered by id, are a, b sweeps the quad
//   a b b' a' cut into triangle 0 = (a, b, b') and triangle 1 = (a, a', b');
// - a moving triangle whose vertices, ordered by id, are x1, x2, x3 sweeps a
//   prism cut into tetrahedron 0 = (x1, x2, x3, x3'), 1 = (x1, x2, x2', x3'),
//   2 = (x1, x1', x2', x3') (on each side quad this is the edge rule).
// Ordering by id breaks ties by position in the query (stable), so equal or
// absent ids (all zero, the default) order the vertices as the query lists them.
//
// A query collides when the closed simplices swept by its two primitives
// intersect: VF, the segment of the vertex and one of the 3 tetrahedra; EE, one
// of the 2 triangles of edge a and one of the 2 of edge b. The time of impact is
// the least t over the intersection. Each pair of simplices is one "piece":
// VF piece i is tetrahedron i; EE piece 2 * i + j pairs triangle i of edge a
// with triangle j of edge b; planar piece i is triangle i of the edge. When
// several pieces reach the earliest time, the smallest index is reported.
//
// Not the linear model of exact_oracle.hpp: the two agree on static queries
// (every vertex at rest) but in general neither answer implies the other.
//
// Method: each piece is an exact linear program over barycentric coordinates
// (kernels/spacetime/simplex_intersection.hpp), so every degenerate input (flat
// prisms, zero-length edges, parallel motion, coincident points) is decided
// exactly.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>

#include <gmpxx.h>

#include "simdccd/query.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"

namespace simdccd {

/// Global vertex ids of the four query vertices in query point order (VF: v,
/// f0, f1, f2; EE: a0, a1, b0, b1). Only their order within a primitive matters;
/// the VF vertex's id is unused.
struct SpacetimeIds {
  std::array<std::int64_t, 4> id{};
};

struct SpacetimeResult {
  /// The swept simplices intersect. False for `invalid_input`.
  bool hit = false;
  /// When `hit`: the tightest doubles toi_lo <= t* <= toi_hi around the
  /// earliest contact time t* (equal when t* is a double, else adjacent).
  /// Otherwise both are +infinity.
  double toi_lo = std::numeric_limits<double>::infinity();
  double toi_hi = std::numeric_limits<double>::infinity();
  /// When `hit`: the smallest piece (see above) that reaches t*; else 0.
  std::uint8_t piece = 0;
  /// `exact`, or `invalid_input` for a non-finite double query.
  Status status = Status::exact;
};

/// The earliest contact, exactly.
struct SpacetimeContact {
  mpq_class toi;
  std::uint8_t piece = 0;
};

/// The earliest contact of a query, or nullopt for a miss. Exact for any input.
std::optional<SpacetimeContact> spacetime_earliest_contact(QueryType type, const RationalQuery& q,
                                                           const SpacetimeIds& ids);

/// Exact answer for any rational input; `status` is `exact`.
SpacetimeResult spacetime_exact_ccd(QueryType type, const RationalQuery& q, const SpacetimeIds& ids);

/// Same for doubles (read exactly). Non-finite input gives `invalid_input`.
SpacetimeResult spacetime_exact_ccd(QueryType type, const Query& q, const SpacetimeIds& ids);

// The planar case: a point against an edge, both moving in the x-y plane;
// space-time is R^3 = (x, y, t) and the pieces are the 2 triangles of the edge.

struct Vec2 {
  double x = 0, y = 0;
  friend bool operator==(const Vec2&, const Vec2&) = default;
};

struct RationalVec2 {
  mpq_class x, y;
};

/// p, e0, e1 at t=0, then p', e0', e1' at t=1.
struct PlanarQuery {
  std::array<Vec2, 6> points{};
};

/// Point order as in `PlanarQuery`.
struct PlanarRationalQuery {
  std::array<RationalVec2, 6> points;
};

/// Global vertex ids of p, e0, e1 (as `SpacetimeIds`; p's is unused).
struct PlanarSpacetimeIds {
  std::array<std::int64_t, 3> id{};
};

std::optional<SpacetimeContact> spacetime_earliest_contact(const PlanarRationalQuery& q,
                                                           const PlanarSpacetimeIds& ids);
SpacetimeResult spacetime_exact_ccd(const PlanarRationalQuery& q, const PlanarSpacetimeIds& ids);
/// Non-finite input gives `invalid_input`.
SpacetimeResult spacetime_exact_ccd(const PlanarQuery& q, const PlanarSpacetimeIds& ids);

}  // namespace simdccd
