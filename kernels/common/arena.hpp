// Work on a chosen number of threads: the one place the library opens a
// oneTBB arena for a caller's `threads` option.
#pragma once

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>

namespace simdccd {

/// The most threads an arena gets: a larger request is capped (TBB's arenas
/// crash above 65536; this is far above the cores of the machines we run on).
inline constexpr int kMaxThreads = 4096;

/// The size of an arena for `threads` (>= 1): at most what oneTBB may run
/// now (global_control's max_allowed_parallelism, the cores by default) and
/// kMaxThreads. A larger arena would only idle, and oneTBB warns on stderr
/// about one far above its limit.
inline int arena_threads(int threads) {
  const std::size_t allowed = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return static_cast<int>(std::min({static_cast<std::size_t>(threads), allowed, std::size_t{kMaxThreads}}));
}

/// body() on `threads` threads, or where threads <= 0 in the caller's arena
/// (all cores, oneTBB's default). Answers never depend on the count.
template <class F>
decltype(auto) on_threads(int threads, F&& body) {
  if (threads <= 0) return body();
  tbb::task_arena arena(arena_threads(threads));
  return arena.execute(body);
}

}  // namespace simdccd
