// Random convex polytope pairs for GJK's tests, fuzzing, `simdccd gjk` and the
// benchmark: generic pairs at random poses, and pairs built to touch exactly
// or to miss by a tiny exact gap, which are the hard cases for a tolerance.
// A pair's class says how it was built, not what it is: the exact judge
// (convex/exact_distance.hpp) decides that.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/pose.hpp"

namespace simdccd::convex {

enum class PairClass : std::uint8_t {
  generic,        ///< random rotations, centers 0 to 3 sizes apart
  shared_vertex,  ///< b's body origin is a vertex of b, posed exactly onto a world vertex of a
  face_contact,   ///< axis-aligned box a, unrotated b on a dyadic grid, b's lowest z on a's top face
  near_contact,   ///< face_contact lifted by an exact 2^-k, k in [10, 45]: distance 2^-k when b's
                  ///< foot is over a's top face
};
std::string_view to_string(PairClass type);

/// Two polytopes (each the convex hull of its body vertices) and their poses.
struct PolytopePair {
  std::vector<Vec3> a, b;
  Pose pose_a, pose_b;
  PairClass type = PairClass::generic;
};

/// `count` pairs from `seed` (splitmix64 draws: the same pairs on every
/// platform up to the last bits of std::sin/std::cos in generic rotations),
/// classes in turn (generic, shared_vertex, generic, face_contact, generic,
/// near_contact, ...: half generic), 4 to `max_vertices` (>= 4) vertices a
/// polytope, sizes about 1 times 2^s, s in [-8, 8] drawn per pair so that
/// tolerances are tested at many scales. `thin` in (0, 1) makes every
/// polytope a plate (its z radius, or box a's z half extent, times thin) or
/// a needle (x and z times thin): a and b plate / plate, plate / needle,
/// needle / plate, needle / needle in turn within each class. thin = 1 (no
/// squeezing) draws the very pairs of a call without it.
std::vector<PolytopePair> random_polytope_pairs(std::size_t count, std::uint64_t seed, int max_vertices = 24,
                                                double thin = 1);

/// Pairs as gjk_batch() takes them: pair i is shapes 2i and 2i + 1 (polytopes).
struct PolytopeBatch {
  std::vector<ConvexShape> shapes;
  std::vector<ShapePair> pairs;
};
PolytopeBatch polytope_batch(std::span<const PolytopePair> pairs);

}  // namespace simdccd::convex
