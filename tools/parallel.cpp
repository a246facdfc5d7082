#include "parallel.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>

namespace simdccd::cli {

BatchStats parallel_ranges(std::size_t begin, std::size_t end, int threads, std::size_t grain,
                           const std::function<BatchStats(std::size_t, std::size_t)>& range) {
  if (threads == 1 || end - begin <= grain) return range(begin, end);
  const std::size_t pieces = (end - begin + grain - 1) / grain;
  tbb::task_arena arena(threads);
  return arena.execute([&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, pieces), BatchStats{},
        [&](const tbb::blocked_range<std::size_t>& r, BatchStats stats) {
          return stats += range(begin + r.begin() * grain, std::min(end, begin + r.end() * grain));
        },
        [](BatchStats a, const BatchStats& b) { return a += b; });
  });
}

}  // namespace simdccd::cli
