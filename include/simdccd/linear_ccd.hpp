// Batched CCD under linear trajectories: the vectorized kernels.
//
// Every query is screened and solved by the SIMD kernel of the active
// implementation (targets.hpp) in tiles of 64; see include/simdccd/linear/
// for the math and its error bounds. Guarantees, for valid input (finite
// coordinates of magnitude <= 2^60, about 1.15e18):
// - Mode::conservative: never a false negative. A hit's `toi` is <= the exact
//   earliest contact time t*. Queries the kernel cannot certify (status
//   `uncertain`) count as hits with toi = a certified lower bound of t*; only
//   they can be false positives: near-degenerate queries (coplanar during a
//   whole interval, or touching within rounding distance, or with a root of
//   the coplanarity cubic that is nearly double).
// - Scale: a query and its copy scaled by any power of two (both in the valid
//   domain, the copy exact) get the same answer, toi and status: queries whose
//   coordinates are all below 2^-64 are scaled up exactly into [1, 2) before
//   the kernels (simd/error_bounds.hpp: kTinyCoordinate), so that underflow
//   never costs certification. Not with Options::min_distance > 0.
// - Mode::exact: every `hit` equals the exact oracle's (exact_oracle.hpp).
//   Certified hits have t* - time_tolerance <= toi <= t*; uncertain queries
//   are decided by the oracle (status `exact`, toi = its toi_lo).
// - Mode::oracle: every query decided by the oracle.
// Invalid input (NaN, infinity, magnitude > 2^60, an index out of range) gets
// status `invalid_input`, hit 0, toi +infinity, and is counted in `invalid`;
// Mode::oracle, being exact for any finite input, decides magnitudes > 2^60 too.
// Options that are not valid_options (options.hpp: a mode outside the enum, a
// negative or NaN time_tolerance, a bad min_distance) make every query of the
// batch invalid_input.
// Answers depend neither on the implementation nor on the thread count: the
// kernels round every operation the same way on every target (no fused
// multiply-add), so even conservative-mode toi values are bit-identical.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "simdccd/options.hpp"
#include "simdccd/query.hpp"
#include "simdccd/result.hpp"

namespace simdccd {

/// Queries as structure of arrays: `coord[3 * point + axis]` holds `count`
/// doubles, point 0..7 in the order of `Query` (the four points at t=0, then
/// at t=1). No alignment or padding is required.
struct SoaQueries {
  QueryType type = QueryType::vertex_face;
  std::size_t count = 0;
  std::array<const double*, 24> coord{};
};

/// Queries by index into a mesh, the way a simulator holds them: vertex
/// positions at t=0 and t=1, and candidate pairs, VF (vertex, face) into
/// `faces` or EE (edge, edge) into `edges`. Gathered into tiles internally.
struct IndexedQueries {
  QueryType type = QueryType::vertex_face;
  std::span<const Vec3> x0, x1;
  std::span<const std::array<std::int32_t, 3>> faces;
  std::span<const std::array<std::int32_t, 2>> edges;
  std::span<const std::array<std::int32_t, 2>> pairs;
  std::size_t count() const { return pairs.size(); }
};

/// Where the answers go: arrays indexed like the queries.
struct BatchResults {
  std::uint8_t* hit = nullptr;  ///< 0 or 1
  double* toi = nullptr;        ///< hit: lower bound of the earliest contact time; else +inf
  Status* status = nullptr;
};

/// What happened to the queries of a call.
struct BatchStats {
  std::uint64_t queries = 0;
  std::uint64_t hits = 0;
  std::uint64_t invalid = 0;
  std::uint64_t screened_out = 0;  ///< certified misses of the screen (boxes, cubic signs, separation, orientations)
  std::uint64_t root_stage = 0;    ///< reached root isolation and the inclusion test
  std::uint64_t uncertain = 0;     ///< not certified: conservative hits, or exact fallbacks
  BatchStats& operator+=(const BatchStats& o);
};

/// Decides queries [begin, end) on the calling thread, writing entries
/// [begin, end) of `out`. Thread-safe: calls on disjoint ranges may run
/// concurrently (bring your own job system).
BatchStats linear_ccd(const SoaQueries& queries, const Options& options, const BatchResults& out,
                      std::size_t begin, std::size_t end);
BatchStats linear_ccd(const IndexedQueries& queries, const Options& options,
                      const BatchResults& out, std::size_t begin, std::size_t end);

struct ParallelOptions {
  int threads = 0;          ///< 0: all cores (oneTBB's default); above 4096: 4096
  std::size_t grain = 1024;  ///< queries per task, at least
};

/// The whole batch, spread over cores with oneTBB. Same answers as one thread.
BatchStats linear_ccd_parallel(const SoaQueries& queries, const Options& options,
                               const BatchResults& out, const ParallelOptions& parallel = {});
BatchStats linear_ccd_parallel(const IndexedQueries& queries, const Options& options,
                               const BatchResults& out, const ParallelOptions& parallel = {});

}  // namespace simdccd
