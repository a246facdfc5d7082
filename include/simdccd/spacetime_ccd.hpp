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
//   hits with toi = 0 (a piece touching within rounding) or a certified lower
//   bound of t* (a wide bracket); only they can be false positives.
// - Mode::exact: every `hit` equals spacetime_exact_ccd's. Certified hits have
//   t* - time_tolerance <= toi <= t*; uncertain queries are decided by the
//   oracle (status `exact`, toi = its toi_lo).
// - Mode::oracle: every query decided by the oracle.
// Invalid input (NaN, infinity, magnitude > 2^60, an index out of range) gets
// status `invalid_input`, hit 0, toi +infinity; Mode::oracle decides any
// finite input. Answers are bit-identical on every implementation and thread
// count. The contact piece is not reported (see spacetime_exact_ccd); in
// BatchStats, `screened_out` and `root_stage` stay 0.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "simdccd/linear_ccd.hpp"

namespace simdccd {

/// Global vertex ids of SoaQueries: `id[p]` holds `count` ids of query point p
/// (VF: v, f0, f1, f2; EE: a0, a1, b0, b1; as SpacetimeIds). A null array reads
/// as all zero (vertices then ordered as the query lists them).
struct SpacetimeIdArrays {
  std::array<const std::int64_t*, 4> id{};
};

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

}  // namespace simdccd
