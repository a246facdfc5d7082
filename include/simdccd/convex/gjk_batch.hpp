// Many GJK queries in one call (convex/gjk.hpp), spread over cores with
// oneTBB and over the SIMD lanes of the active implementation (targets.hpp),
// one pair a lane: shapes are listed once, pairs name them by index. Each
// pair's answer is gjk()'s, bit for bit, for any thread count and
// implementation. gjk_intersect_batch(): the intersection flags alone.
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
/// 0 for all cores, above 4096: 4096. Throws std::invalid_argument when
/// results (or a non-empty warm) is not as long as pairs.
GjkBatchStats gjk_batch(std::span<const ConvexShape> shapes, std::span<const ShapePair> pairs,
                        std::span<GjkResult> results, const GjkOptions& options = {}, int threads = 0,
                        std::span<const GjkWarmStart> warm = {});

/// What gjk_intersect_batch() says of a pair.
enum class Overlap : std::uint8_t {
  separate,      ///< gjk()'s `intersecting` is false
  intersecting,  ///< ... true
  invalid,       ///< gjk()'s answer is invalid (a shape, pose or option out of range, or an index past the shapes)
};

/// The intersection test alone, for a broad phase's candidate pairs:
/// overlap[i] is gjk_batch()'s answer for pair i (cold start) read as
/// invalid, intersecting or separate, under `options` with intersection_only
/// set (which never changes the `intersecting` flag: gjk.hpp). No closest
/// points, features or warm starts are made: the answer is one byte a pair.
/// The stats are gjk_batch()'s with intersection_only. Throws
/// std::invalid_argument when overlap is not as long as pairs.
GjkBatchStats gjk_intersect_batch(std::span<const ConvexShape> shapes, std::span<const ShapePair> pairs,
                                  std::span<Overlap> overlap, const GjkOptions& options = {}, int threads = 0);

}  // namespace simdccd::convex
