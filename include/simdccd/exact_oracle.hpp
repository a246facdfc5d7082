// The exact oracle: decides a linear-trajectory CCD query in rational arithmetic.
//
// Method (Huh et al., "Fast and Robust CCD", with every step exact):
// - the coplanarity cubic det(...)(t) is computed exactly; its real roots in
//   [0,1] are isolated by a Sturm sequence of its square-free part;
// - at each root, in increasing order, inclusion (point in closed triangle, or
//   closed segments intersecting) is decided from exact signs of polynomials at
//   that algebraic number (one component of the cross products suffices there:
//   the points are coplanar, docs/linear.md#the-exact-oracle);
// - if the cubic is identically zero the query reduces, exactly, to contact at
//   t=0 or a point-edge (VF) / endpoint-on-edge (EE) contact, and those reduce to
//   point-point contact when the point stays on the edge's line.
// Degenerate triangles and edges, parallel or stationary motion, contact at
// t=0 or t=1 and tangential (double-root) contact are all decided exactly.
#pragma once

#include "simdccd/query.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"

namespace simdccd {

/// Exact answer for any rational input. `status` is `exact`; when `hit`,
/// [toi_lo, toi_hi] is the tightest pair of doubles enclosing the earliest
/// contact time (equal when it is a double, else adjacent doubles).
Result exact_ccd(QueryType type, const RationalQuery& q);

/// Same for doubles (read exactly). Non-finite input gives `invalid_input`.
Result exact_ccd(QueryType type, const Query& q);

/// Minimum separation d >= 0: the query hits when the closed primitives are
/// within Euclidean distance d of each other at some t in [0,1] (already at
/// t=0: toi 0), and [toi_lo, toi_hi] encloses the earliest such t. Decided
/// feature pair by feature pair (vertex-vertex, vertex-edge, vertex-face;
/// EE also edge-edge interiors), each a conjunction of polynomial sign
/// conditions on squared distances, by their exact signs at the candidate
/// times (0 and the polynomials' roots). d = 0 is exact_ccd above, bit for
/// bit; for d > 0, contact_roots is 0 and always_coplanar false. A
/// negative d is invalid_input.
Result exact_ccd(QueryType type, const RationalQuery& q, const mpq_class& min_distance);

/// Same for doubles. `invalid_input` for non-finite input or a min_distance
/// that is not a valid_min_distance (options.hpp).
Result exact_ccd(QueryType type, const Query& q, double min_distance);

}  // namespace simdccd
