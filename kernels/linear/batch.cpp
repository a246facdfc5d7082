// The batch entries: tiles through the active kernel, on one thread or over
// all cores with oneTBB.
#include "common/parallel_tiles.hpp"
#include "linear/tile_dispatch.hpp"
#include "simdccd/linear/tile_io.hpp"
#include "simdccd/linear_ccd.hpp"

namespace simdccd {

BatchStats& BatchStats::operator+=(const BatchStats& o) {
  queries += o.queries;
  hits += o.hits;
  invalid += o.invalid;
  screened_out += o.screened_out;
  root_stage += o.root_stage;
  uncertain += o.uncertain;
  return *this;
}

namespace {

template <class Queries>
BatchStats run(const Queries& queries, const Options& options, const BatchResults& out,
               std::size_t begin, std::size_t end) {
  return linear::run_tiles(queries, options, out, begin, end, linear::active_tile_function(queries.type),
                           linear::active_separation_function(queries.type));
}

std::size_t count_of(const SoaQueries& q) { return q.count; }
std::size_t count_of(const IndexedQueries& q) { return q.count(); }

template <class Queries>
BatchStats run_parallel(const Queries& queries, const Options& options, const BatchResults& out,
                        const ParallelOptions& parallel) {
  return simd::run_tiles_parallel(count_of(queries), parallel, [&](std::size_t begin, std::size_t end) {
    return run(queries, options, out, begin, end);
  });
}

}  // namespace

BatchStats linear_ccd(const SoaQueries& queries, const Options& options, const BatchResults& out,
                      std::size_t begin, std::size_t end) {
  return run(queries, options, out, begin, end);
}

BatchStats linear_ccd(const IndexedQueries& queries, const Options& options,
                      const BatchResults& out, std::size_t begin, std::size_t end) {
  return run(queries, options, out, begin, end);
}

BatchStats linear_ccd_parallel(const SoaQueries& queries, const Options& options,
                               const BatchResults& out, const ParallelOptions& parallel) {
  return run_parallel(queries, options, out, parallel);
}

BatchStats linear_ccd_parallel(const IndexedQueries& queries, const Options& options,
                               const BatchResults& out, const ParallelOptions& parallel) {
  return run_parallel(queries, options, out, parallel);
}

}  // namespace simdccd
