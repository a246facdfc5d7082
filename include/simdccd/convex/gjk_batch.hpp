// Many GJK queries in one call (convex/gjk.hpp), spread over cores with
// oneTBB and over the SIMD lanes of the active implementation (targets.hpp),
// one pair a lane: shapes are listed once, pairs name them by index. Each
// pair's answer is gjk()'s, bit for bit, for any thread count and
// implementation.
#pragma once

#include <cstdint>
#include <span>

#include "simdccd/convex/gjk.hpp"

namespace simdccd::convex {

/// Shapes `a` and `b` (indices into the batch's shape list) at their poses.
struct ShapePair {
  std::uint32_t a = 0, b = 0;
  Pose pose_a, pose_b;
};

struct GjkBatchStats {
  std::uint64_t intersecting = 0;
  std::uint64_t invalid = 0;        ///< a shape, pose or option out of range, or an index past the shapes
  std::uint64_t not_converged = 0;  ///< valid, separate, and the termination test not met
  std::uint64_t iterations = 0;     ///< support evaluations over all pairs
};

/// results[i] = gjk(shapes[pairs[i].a], pairs[i].pose_a, shapes[pairs[i].b],
/// pairs[i].pose_b, options, warm.empty() ? nullptr : &warm[i]). `threads`:
/// 0 for all cores. Throws std::invalid_argument when results (or a non-empty
/// warm) is not as long as pairs.
GjkBatchStats gjk_batch(std::span<const ConvexShape> shapes, std::span<const ShapePair> pairs,
                        std::span<GjkResult> results, const GjkOptions& options = {}, int threads = 0,
                        std::span<const GjkWarmStart> warm = {});

}  // namespace simdccd::convex
