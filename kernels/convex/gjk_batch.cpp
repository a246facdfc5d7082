// Many GJK queries over cores (convex/gjk_batch.hpp).
#include "simdccd/convex/gjk_batch.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "convex/gjk_valid.hpp"

namespace simdccd::convex {
namespace {

GjkBatchStats& operator+=(GjkBatchStats& s, const GjkBatchStats& t) {
  s.intersecting += t.intersecting;
  s.invalid += t.invalid;
  s.not_converged += t.not_converged;
  s.iterations += t.iterations;
  return s;
}

}  // namespace

GjkBatchStats gjk_batch(std::span<const ConvexShape> shapes, std::span<const ShapePair> pairs,
                        std::span<GjkResult> results, const GjkOptions& options, int threads,
                        std::span<const GjkWarmStart> warm) {
  if (results.size() != pairs.size() || (!warm.empty() && warm.size() != pairs.size())) {
    throw std::invalid_argument("gjk_batch: results and warm must have one entry a pair");
  }
  std::vector<double> reach_of(shapes.size());
  const bool options_ok = is_valid(options);
  const auto run = [&](const tbb::blocked_range<std::size_t>& range, GjkBatchStats stats) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      const ShapePair& p = pairs[i];
      GjkResult& r = results[i];
      const bool ok = options_ok && p.a < shapes.size() && p.b < shapes.size() && !std::isnan(reach_of[p.a]) &&
                      !std::isnan(reach_of[p.b]) && is_valid(p.pose_a) && is_valid(p.pose_b);
      r = ok ? gjk_valid(shapes[p.a], reach_of[p.a], p.pose_a, shapes[p.b], reach_of[p.b], p.pose_b, options,
                         warm.empty() ? nullptr : &warm[i])
             : GjkResult{};
      stats.invalid += !r.valid;
      stats.intersecting += r.intersecting;
      stats.not_converged += r.valid && !r.intersecting && !r.converged;
      stats.iterations += r.iterations;
    }
    return stats;
  };
  const auto body = [&] {
    // A shape's reach, or NaN for an invalid shape: checked once, not once a pair.
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, shapes.size(), 256), [&](const auto& range) {
      for (std::size_t i = range.begin(); i < range.end(); ++i) reach_of[i] = checked_reach(shapes[i]);
    });
    return tbb::parallel_reduce(tbb::blocked_range<std::size_t>(0, pairs.size(), 256), GjkBatchStats{}, run,
                                [](GjkBatchStats a, const GjkBatchStats& b) { return a += b; });
  };
  if (threads <= 0) return body();
  tbb::task_arena arena(threads);
  return arena.execute(body);
}

}  // namespace simdccd::convex
