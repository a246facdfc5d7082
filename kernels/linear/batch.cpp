// The batch entries: tiles through the active kernel, on one thread or over
// all cores with oneTBB.
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

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
  return linear::run_tiles(queries, options, out, begin, end, linear::active_tile_function(queries.type));
}

std::size_t count_of(const SoaQueries& q) { return q.count; }
std::size_t count_of(const IndexedQueries& q) { return q.count(); }

template <class Queries>
BatchStats run_parallel(const Queries& queries, const Options& options, const BatchResults& out,
                        const ParallelOptions& parallel) {
  // Tasks never split a tile, so the tiles, and so the answers, are those of one thread.
  const std::size_t tiles = (count_of(queries) + linear::kTileSize - 1) / linear::kTileSize;
  const std::size_t grain = std::max<std::size_t>(1, parallel.grain / linear::kTileSize);
  const auto body = [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, tiles, grain), BatchStats{},
        [&](const tbb::blocked_range<std::size_t>& r, BatchStats stats) {
          const std::size_t begin = r.begin() * linear::kTileSize;
          const std::size_t end = std::min(count_of(queries), r.end() * linear::kTileSize);
          return stats += run(queries, options, out, begin, end);
        },
        [](BatchStats a, const BatchStats& b) { return a += b; });
  };
  if (parallel.threads <= 0) return body();
  tbb::task_arena arena(parallel.threads);
  return arena.execute(body);
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
