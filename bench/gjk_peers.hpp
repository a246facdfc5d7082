// The GJK of the peer libraries on simdccd's polytope pairs, for the bench:
// libccd 2.1 (`libccd-dev`; its release answers intersection only, it has no
// distance query) and Bullet 3.24's double-precision build (`libbullet-dev`;
// btGjkPairDetector on btConvexHullShape with margin 0: distance, or no
// distance when the shapes overlap). Each is compiled only where found.
// Shapes are built before the clock starts; the callbacks pose the support
// as R S(R^T d) + x, as simdccd's GJK does.
#pragma once

#include <span>
#include <vector>

#include "simdccd/convex/random_pairs.hpp"

namespace simdccd::bench {
using convex::PolytopePair;

struct PeerAnswers {
  std::vector<char> intersecting;  ///< per pair
  std::vector<double> distance;    ///< per pair; 0 where intersecting (Bullet only)
  std::vector<Vec3> axes;          ///< per pair: Bullet's cached separating axis after the query
  double seconds = 0;              ///< all pairs, `repeats` times, one thread
};

#ifdef SIMDCCD_HAVE_CCD
PeerAnswers libccd_gjk(std::span<const PolytopePair> pairs, int repeats);
#endif
#ifdef SIMDCCD_HAVE_BULLET
/// `warm`: a cached separating axis a pair to start from (Bullet's warm
/// start, the `axes` of the previous frame's answers); empty: its default.
PeerAnswers bullet_gjk(std::span<const PolytopePair> pairs, int repeats, std::span<const Vec3> warm = {});
#endif

}  // namespace simdccd::bench
