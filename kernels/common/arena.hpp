// Work on a chosen number of threads: the one place the library opens a
// oneTBB arena for a caller's `threads` option.
#pragma once

#include <tbb/task_arena.h>

#include <algorithm>

namespace simdccd {

/// The most threads an arena gets: a larger request is capped (TBB's arenas
/// crash above 65536; this is far above the cores of the machines we run on).
inline constexpr int kMaxThreads = 4096;

/// body() on `threads` threads, or where threads <= 0 in the caller's arena
/// (all cores, oneTBB's default). Answers never depend on the count.
template <class F>
decltype(auto) on_threads(int threads, F&& body) {
  if (threads <= 0) return body();
  tbb::task_arena arena(std::min(threads, kMaxThreads));
  return arena.execute(body);
}

}  // namespace simdccd
