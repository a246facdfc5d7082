// The batch check the GJK tests share: every runnable implementation answers
// a set of pairs as gjk() did. Test-only.
#pragma once

#include <doctest/doctest.h>

#include <span>
#include <string>
#include <vector>

#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/targets.hpp"

namespace simdccd::test {

/// On each runnable implementation (2 threads): gjk_batch gives `expected`
/// (gjk()'s answers) bit for bit, and gjk_intersect_batch their flags.
inline void check_every_implementation(std::span<const convex::ConvexShape> shapes,
                                       std::span<const convex::ShapePair> pairs,
                                       std::span<const convex::GjkResult> expected,
                                       const convex::GjkOptions& options) {
  const std::string before = active_implementation();
  for (const std::string& impl : runnable_implementations()) {
    CAPTURE(impl);
    REQUIRE(set_implementation(impl));
    std::vector<convex::GjkResult> got(pairs.size());
    std::vector<convex::Overlap> flags(pairs.size());
    convex::gjk_batch(shapes, pairs, got, options, 2);
    convex::gjk_intersect_batch(shapes, pairs, flags, options, 2);
    std::size_t differ = 0, flags_differ = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      differ += !identical(got[i], expected[i]);
      flags_differ +=
          flags[i] != (expected[i].intersecting ? convex::Overlap::intersecting : convex::Overlap::separate);
    }
    CHECK(differ == 0);
    CHECK(flags_differ == 0);
  }
  set_implementation(before);
}

}  // namespace simdccd::test
