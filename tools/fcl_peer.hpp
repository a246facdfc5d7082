// FCL 0.7 as a peer of conservative advancement (advance.hpp): the first
// contact of two triangle soups along the paper's rigid paths, with FCL's
// continuous collision (fcl::continuousCollide on prebuilt BVH models).
//
// The motion is FCL's InterpMotion (CCDM_LINEAR) with its reference point at
// the body origin: translation of the origin linear in t and a constant
// angular velocity about it, which is RigidPath's motion (CCDM_SCREW turns
// about a screw axis instead, a different path unless the angle is zero).
//
// FCL's answers are not certified: naive sampling reports the first sampled
// pose in collision (a ToC at or after the first contact, missing contacts
// between samples), and its mesh conservative advancement answers wrongly on
// simple cases (FCL issues #120 and #555; the cubes of `simdccd advance
// --scene cubes`). Compare before timing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "simdccd/advance.hpp"

namespace simdccd::cli {

enum class FclSolver : std::uint8_t {
  naive,                     ///< CCDC_NAIVE: discrete collision at `steps` poses i / (steps - 1)
  conservative_advancement,  ///< CCDC_CONSERVATIVE_ADVANCEMENT (FCL's own time tolerance, 1e-5)
};
enum class FclVolume : std::uint8_t { rss, obbrss };

struct FclConfig {
  FclSolver solver = FclSolver::naive;
  FclVolume volume = FclVolume::obbrss;
  int steps = 100;  ///< naive sampling, >= 2
};
/// E.g. "naive-100/obbrss", "ca/rss".
std::string to_string(const FclConfig& config);

struct FclAnswer {
  bool collides = false;
  double toc = 1;  ///< FCL's time of contact; 1 when it reports none
  double ms = 0;   ///< wall time of the continuous query alone
};

/// Both soups as FCL models (RSS and OBBRSS hierarchies, built once); queries
/// are const and may run concurrently.
class FclPeer {
 public:
  FclPeer(const TriangleSoup& a, const TriangleSoup& b);
  ~FclPeer();
  FclPeer(FclPeer&&) noexcept;
  FclPeer& operator=(FclPeer&&) noexcept;

  /// Model a moving along pa against model b along pb over t in [0, 1].
  /// Throws std::invalid_argument for steps < 2.
  FclAnswer query(const RigidPath& pa, const RigidPath& pb, const FclConfig& config) const;

 private:
  struct Models;
  std::unique_ptr<Models> models_;
};

}  // namespace simdccd::cli
