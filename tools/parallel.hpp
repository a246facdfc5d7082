// Spreading a range of queries over threads for the deciders that have no
// parallel entry of their own: the xsimd entry and the oracle.
#pragma once

#include <cstddef>
#include <functional>

#include "simdccd/linear_ccd.hpp"

namespace simdccd::cli {

/// Decides [begin, end) with `range` on pieces of `grain` queries (counted
/// from begin; keep it a multiple of the kernels' tile size so that no tile
/// is split) spread over `threads` threads with oneTBB, and sums the stats.
/// One thread: a single call on the calling thread.
BatchStats parallel_ranges(std::size_t begin, std::size_t end, int threads, std::size_t grain,
                           const std::function<BatchStats(std::size_t, std::size_t)>& range);

}  // namespace simdccd::cli
