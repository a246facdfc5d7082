// Loops of the broad phase spread over cores in fixed blocks. Internal.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace simdccd::broad {

/// f(i) for i in [0, n), spread over cores (per-element work of a few
/// nanoseconds: blocks of 4096).
template <class F>
void for_each_block(std::size_t n, const F& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) f(i);
  });
}

/// The sum of f(i) over i in [0, n), spread over cores in fixed blocks that
/// are added in order: the same for any thread count, also in doubles.
template <class T, class F>
T block_sum(std::size_t n, const F& f) {
  constexpr std::size_t kBlock = 4096;
  std::vector<T> part((n + kBlock - 1) / kBlock);
  tbb::parallel_for(std::size_t{0}, part.size(), [&](std::size_t b) {
    T sum{};
    for (std::size_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) sum += f(i);
    part[b] = sum;
  });
  T total{};
  for (const T& p : part) total += p;
  return total;
}

}  // namespace simdccd::broad
