// Batched CCD in the space-time model of Brochu & Bridson (spacetime_oracle.hpp):
// the vectorized kernels.
//
// Same shapes as linear_ccd.hpp (SoaQueries, IndexedQueries, BatchResults,
// BatchStats, Options), same implementations (targets.hpp: every runnable
// Highway target and "double"; the active one decides both models), and the
// vertex ids that choose the prisms' diagonals: per-query arrays with
// SoaQueries, the mesh vertex indices with IndexedQueries. See
// include/simdccd/spacetime/tile_kernel-inl.h for the predicates (signs of 4D
// orientation determinants with certified error bounds). Guarantees, for valid
// input (finite coordinates of magnitude <= 2^60):
// - Mode::conservative: never a false negative. A hit's `toi` is <= the exact
//   earliest contact time t*. Queries the kernel cannot certify (status
//   `uncertain`: touching or lower-dimensional contact within rounding, a
//   singular 4D system, or a toi bracket wider than time_tolerance) count as
//   hits with a certified lower bound of t* (for a piece touching within
//   rounding, the earliest contact of its lower-dimensional projections; see
//   spacetime/piece_kernel-inl.h); only they can be false positives.
// - Mode::exact: every `hit` equals spacetime_exact_ccd's. Certified hits have
//   t* - time_tolerance <= toi <= t*; uncertain queries are decided by the
//   oracle (status `exact`, toi = its toi_lo).
// - Scale: as linear_ccd.hpp, a query and its copy scaled by any power of two
//   get the same answer, toi, status and piece (tiny queries are scaled up
//   exactly before the kernels; the normal is computed from the caller's
//   coordinates).
// - Mode::oracle: every query decided by the oracle.
// Invalid input (NaN, infinity, magnitude > 2^60, an index out of range) gets
// status `invalid_input`, hit 0, toi +infinity; Mode::oracle decides any
// finite input. Options that are not valid_options (options.hpp), or a
// min_distance other than 0, make every query of the batch invalid_input.
// Answers are bit-identical on every implementation and thread
// count. In BatchStats, `screened_out` counts the misses whose every piece the
// box screen separated (no determinant computed), and `root_stage` stays 0
// (the model has no roots to isolate).
//
// The contact piece and normal (SpacetimeResults, optional outputs):
// - `piece`: the piece (spacetime_oracle.hpp numbering: VF tetrahedron 0..2;
//   EE 2 * triangle of edge a + triangle of edge b; planar triangle 0..1 of
//   the edge) that reaches the earliest contact time, the smallest index on a
//   tie, exactly as spacetime_exact_ccd's `piece`. Exact and oracle fallbacks
//   take the oracle's piece. A certified hit takes the piece with the least
//   toi bracket when every other hit piece's bracket lies strictly above it
//   (then it is the oracle's piece); otherwise (brackets overlap: two pieces
//   reach nearly the same time) the hit is not certified for the piece: in
//   Mode::exact it goes to the oracle (status `exact`, toi and piece the
//   oracle's), in Mode::conservative it becomes `uncertain` (still a hit, toi
//   the same certified lower bound). So in Mode::exact `piece` equals
//   spacetime_exact_ccd's on every hit. These extra fallbacks happen only when
//   `piece` or `normal` is requested: with both null, answers are those of
//   the BatchResults overloads. kNoPiece for misses, invalid input and
//   uncertain (conservative) hits.
// - `normal`: a contact normal for the response, defined here (Brochu &
//   Bridson's report does not pin one down for the space-time model; their
//   LosTopos code takes proximity normals instead): the face normal (VF) or
//   the cross product of the edge directions (EE) at the time end, t=0 or
//   t=1, that most vertices of the hit piece's two simplices lie on, ties to
//   t=1. That is t=0 for piece 0 (VF tetrahedron 0: 3 vertices at t=0, 1 at
//   t=1; EE piece 0: 4 of its 6 vertices at t=0; planar triangle 0: 2 of 3)
//   and t=1 for every other piece (VF tetrahedra 1 (2 and 2) and 2 (1 and 3);
//   EE pieces 1, 2 (3 and 3) and 3 (2 and 4); planar triangle 1 (1 and 2)).
//   With the query's points in the caller's order (not id order) at that time:
//     VF: (f1 - f0) x (f2 - f0);
//     EE: (a1 - a0) x (b1 - b0);
//     planar: (-(e1 - e0).y, (e1 - e0).x), the edge direction turned +90
//     degrees (written to normal[0], normal[1]; normal[2] is not written).
//   NOT normalized: each component is that expression in double arithmetic
//   (one rounding per operation, identical on every implementation). Ambiguous
//   cases: for a degenerate face (collinear or coincident vertices), parallel
//   or zero-length edges, or a zero-length planar edge at that time end it is
//   zero or, from rounding, a tiny vector of arbitrary direction: the model
//   gives no normal there, and the caller must choose one (e.g. from the other
//   time end, or the relative displacement). Its sign follows the caller's
//   vertex order, not the side of contact. NaN (all components) where `piece`
//   is kNoPiece. spacetime_contact_normal computes it for one query.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "simdccd/linear_ccd.hpp"

namespace simdccd {

struct PlanarQuery;  // spacetime_oracle.hpp

/// Global vertex ids of SoaQueries: `id[p]` holds `count` ids of query point p
/// (VF: v, f0, f1, f2; EE: a0, a1, b0, b1; as SpacetimeIds). A null array reads
/// as all zero (vertices then ordered as the query lists them).
struct SpacetimeIdArrays {
  std::array<const std::int64_t*, 4> id{};
};

/// No contact piece (see the top): misses, invalid input, uncertain hits.
inline constexpr std::uint8_t kNoPiece = 0xFF;

/// BatchResults with optional per-query contact piece and normal (see the
/// top). A null `piece` or `normal[k]` is not written.
struct SpacetimeResults : BatchResults {
  std::uint8_t* piece = nullptr;
  std::array<double*, 3> normal{};
  bool wants_contact() const {
    return piece != nullptr || normal[0] != nullptr || normal[1] != nullptr || normal[2] != nullptr;
  }
};

/// The contact normal (see the top) of a query whose earliest contact is at
/// `piece`, the points in query order; NaN for kNoPiece or piece out of range.
std::array<double, 3> spacetime_contact_normal(QueryType type, const Query& q, std::uint8_t piece);
/// Planar: {normal x, normal y, 0}.
std::array<double, 3> spacetime_contact_normal(const PlanarQuery& q, std::uint8_t piece);

/// Decides queries [begin, end) on the calling thread, writing entries
/// [begin, end) of `out`. Thread-safe on disjoint ranges.
BatchStats spacetime_ccd(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                         const Options& options, const BatchResults& out, std::size_t begin,
                         std::size_t end);
/// The ids are the mesh vertex indices.
BatchStats spacetime_ccd(const IndexedQueries& queries, const Options& options,
                         const BatchResults& out, std::size_t begin, std::size_t end);

/// The whole batch over cores with oneTBB. Same answers as one thread.
BatchStats spacetime_ccd_parallel(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                                  const Options& options, const BatchResults& out,
                                  const ParallelOptions& parallel = {});
BatchStats spacetime_ccd_parallel(const IndexedQueries& queries, const Options& options,
                                  const BatchResults& out, const ParallelOptions& parallel = {});

/// The same four entries, also writing the contact piece and normal.
BatchStats spacetime_ccd(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                         const Options& options, const SpacetimeResults& out, std::size_t begin,
                         std::size_t end);
BatchStats spacetime_ccd(const IndexedQueries& queries, const Options& options,
                         const SpacetimeResults& out, std::size_t begin, std::size_t end);
BatchStats spacetime_ccd_parallel(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                                  const Options& options, const SpacetimeResults& out,
                                  const ParallelOptions& parallel = {});
BatchStats spacetime_ccd_parallel(const IndexedQueries& queries, const Options& options,
                                  const SpacetimeResults& out, const ParallelOptions& parallel = {});

// The planar case (spacetime_oracle.hpp): a point against a moving edge in the
// x-y plane, space-time R^3, pieces the edge's 2 triangles. Its own kernel
// (include/simdccd/spacetime/planar_kernel-inl.h: signs of 3D orientation
// determinants with certified error bounds, the same method), on every
// implementation, with the guarantees and modes above, against the planar
// spacetime_exact_ccd.

/// `count` planar queries, `coord[2 * point + axis]` (axis 0 = x, 1 = y) for
/// the points in PlanarQuery order: p, e0, e1 at t=0, then p', e0', e1'.
struct PlanarSoaQueries {
  std::size_t count = 0;
  std::array<const double*, 12> coord{};
};

/// Global vertex ids of PlanarSoaQueries: `id[p]` for p, e0, e1 (as
/// PlanarSpacetimeIds; p's is unused). A null array reads as all zero.
struct PlanarIdArrays {
  std::array<const std::int64_t*, 3> id{};
};

BatchStats spacetime_ccd_planar(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                const Options& options, const BatchResults& out,
                                std::size_t begin, std::size_t end);
BatchStats spacetime_ccd_planar(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                const Options& options, const SpacetimeResults& out,
                                std::size_t begin, std::size_t end);
BatchStats spacetime_ccd_planar_parallel(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                         const Options& options, const BatchResults& out,
                                         const ParallelOptions& parallel = {});
BatchStats spacetime_ccd_planar_parallel(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                         const Options& options, const SpacetimeResults& out,
                                         const ParallelOptions& parallel = {});

}  // namespace simdccd
