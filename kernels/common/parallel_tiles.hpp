// The parallel batch entries of both models (linear/batch.cpp,
// spacetime/batch.cpp): whole tiles over cores with oneTBB. Internal to the
// library.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstddef>

#include "common/arena.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/simd/tile.hpp"

namespace simdccd::simd {

/// Runs `run(begin, end)`, which decides queries [begin, end) and returns
/// their BatchStats, over ranges of whole tiles of queries [0, count) with
/// oneTBB (on `parallel.threads` threads; 0: all), summing the stats. Tasks
/// never split a tile, so the tiles, and so the answers, are those of one
/// thread.
template <class Run>
BatchStats run_tiles_parallel(std::size_t count, const ParallelOptions& parallel, Run run) {
  const std::size_t tiles = (count + kTileSize - 1) / kTileSize;
  const std::size_t grain = std::max<std::size_t>(1, parallel.grain / kTileSize);
  const auto body = [&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, tiles, grain), BatchStats{},
        [&](const tbb::blocked_range<std::size_t>& r, BatchStats stats) {
          const std::size_t begin = r.begin() * kTileSize;
          const std::size_t end = std::min(count, r.end() * kTileSize);
          return stats += run(begin, end);
        },
        [](BatchStats a, const BatchStats& b) { return a += b; });
  };
  return on_threads(parallel.threads, body);
}

}  // namespace simdccd::simd
