// Many times of impact over cores (convex/time_of_impact.hpp): each pair's
// own conservative advancement, whose steps differ too much from pair to
// pair for lanes to pay; pairs never interact, so any thread count gives the
// same answers.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <stdexcept>

#include "common/arena.hpp"
#include "simdccd/convex/time_of_impact.hpp"

namespace simdccd::convex {

void time_of_impact_batch(std::span<const ConvexShape> shapes, std::span<const MovingPair> pairs,
                          std::span<ToiResult> results, const ToiOptions& options, int threads) {
  if (results.size() != pairs.size()) {
    throw std::invalid_argument("time_of_impact_batch: results must have one entry a pair");
  }
  on_threads(threads, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 8), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) {
        const MovingPair& p = pairs[i];
        results[i] = p.a < shapes.size() && p.b < shapes.size()
                         ? time_of_impact(shapes[p.a], p.path_a, shapes[p.b], p.path_b, options)
                         : ToiResult{};
      }
    });
  });
}

}  // namespace simdccd::convex
