// The space-time batch entries: tiles through the active kernel, on one
// thread or over all cores with oneTBB.
#include "common/parallel_tiles.hpp"
#include "simdccd/spacetime/tile_io.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "spacetime/scalar_tile.hpp"

namespace simdccd {
namespace {

using spacetime::IdentifiedQueries;

using spacetime::PlanarIdentifiedQueries;

template <class Queries, class Results>
BatchStats run(const Queries& queries, const Options& options, const Results& out,
               std::size_t begin, std::size_t end) {
  return spacetime::run_tiles(queries, options, out, begin, end,
                              spacetime::active_tile_function(spacetime::type_of(queries)));
}

template <class Results>
BatchStats run(const PlanarIdentifiedQueries& queries, const Options& options, const Results& out,
               std::size_t begin, std::size_t end) {
  return spacetime::run_planar_tiles(queries, options, out, begin, end,
                                     spacetime::active_planar_tile_function());
}

std::size_t count_of(const IdentifiedQueries& q) { return q.queries.count; }
std::size_t count_of(const IndexedQueries& q) { return q.count(); }
std::size_t count_of(const PlanarIdentifiedQueries& q) { return q.queries.count; }

template <class Queries, class Results>
BatchStats run_parallel(const Queries& queries, const Options& options, const Results& out,
                        const ParallelOptions& parallel) {
  return simd::run_tiles_parallel(count_of(queries), parallel, [&](std::size_t begin, std::size_t end) {
    return run(queries, options, out, begin, end);
  });
}

}  // namespace

BatchStats spacetime_ccd(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                         const Options& options, const BatchResults& out, std::size_t begin,
                         std::size_t end) {
  return run(IdentifiedQueries{queries, ids}, options, out, begin, end);
}

BatchStats spacetime_ccd(const IndexedQueries& queries, const Options& options,
                         const BatchResults& out, std::size_t begin, std::size_t end) {
  return run(queries, options, out, begin, end);
}

BatchStats spacetime_ccd_parallel(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                                  const Options& options, const BatchResults& out,
                                  const ParallelOptions& parallel) {
  return run_parallel(IdentifiedQueries{queries, ids}, options, out, parallel);
}

BatchStats spacetime_ccd_parallel(const IndexedQueries& queries, const Options& options,
                                  const BatchResults& out, const ParallelOptions& parallel) {
  return run_parallel(queries, options, out, parallel);
}

BatchStats spacetime_ccd(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                         const Options& options, const SpacetimeResults& out, std::size_t begin,
                         std::size_t end) {
  return run(IdentifiedQueries{queries, ids}, options, out, begin, end);
}

BatchStats spacetime_ccd(const IndexedQueries& queries, const Options& options,
                         const SpacetimeResults& out, std::size_t begin, std::size_t end) {
  return run(queries, options, out, begin, end);
}

BatchStats spacetime_ccd_parallel(const SoaQueries& queries, const SpacetimeIdArrays& ids,
                                  const Options& options, const SpacetimeResults& out,
                                  const ParallelOptions& parallel) {
  return run_parallel(IdentifiedQueries{queries, ids}, options, out, parallel);
}

BatchStats spacetime_ccd_parallel(const IndexedQueries& queries, const Options& options,
                                  const SpacetimeResults& out, const ParallelOptions& parallel) {
  return run_parallel(queries, options, out, parallel);
}

BatchStats spacetime_ccd_planar(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                const Options& options, const BatchResults& out,
                                std::size_t begin, std::size_t end) {
  return run(PlanarIdentifiedQueries{queries, ids}, options, out, begin, end);
}

BatchStats spacetime_ccd_planar(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                const Options& options, const SpacetimeResults& out,
                                std::size_t begin, std::size_t end) {
  return run(PlanarIdentifiedQueries{queries, ids}, options, out, begin, end);
}

BatchStats spacetime_ccd_planar_parallel(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                         const Options& options, const BatchResults& out,
                                         const ParallelOptions& parallel) {
  return run_parallel(PlanarIdentifiedQueries{queries, ids}, options, out, parallel);
}

BatchStats spacetime_ccd_planar_parallel(const PlanarSoaQueries& queries, const PlanarIdArrays& ids,
                                         const Options& options, const SpacetimeResults& out,
                                         const ParallelOptions& parallel) {
  return run_parallel(PlanarIdentifiedQueries{queries, ids}, options, out, parallel);
}

}  // namespace simdccd
