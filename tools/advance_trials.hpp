// The trials of `simdccd advance` and `simdccd_bench advance`: a scene's
// random configuration pairs answered by one method (or FCL), each timed
// alone, then judged (advance_judge.hpp), and their totals.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "simdccd/advance.hpp"
#include "simdccd/advance_judge.hpp"
#include "simdccd/advance_scenes.hpp"
#ifdef SIMDCCD_HAVE_FCL
#include "fcl_peer.hpp"
#endif

namespace simdccd::cli {

/// One trial's answer, its wall time and its verdict.
struct Outcome {
  AdvanceResult answer;
  double ms = 0;
  TrialVerdict verdict;
};

/// Sums over trials; "colliding" means the answer reports a contact.
struct Totals {
  std::uint64_t trials = 0, collisions = 0, missed = 0, late = 0, above = 0, unverified = 0, limit = 0, invalid = 0;
  double sum_ms = 0, max_ms = 0, sum_colliding_ms = 0, sum_free_ms = 0, max_gap = 0;

  void add(const Outcome& o);
  double mean_ms() const;
  double mean_colliding_ms() const;  ///< 0 when none collided
  double mean_free_ms() const;       ///< 0 when all collided
  /// Trials the reference contradicts (late, missed, above the threshold).
  std::uint64_t wrong() const { return missed + late + above; }
};

/// A scene of advance_scenes.hpp, rigid or articulated, built once; "funnel"
/// is funnel_scene() on the bundled test data.
struct LoadedScene {
  std::string name;
  bool articulated = false;
  RigidScene rigid;
  ArticulatedScene joints;
  std::size_t triangles_a = 0, triangles_b = 0;
  std::size_t trials() const { return articulated ? joints.trials.size() : rigid.trials.size(); }
};
/// One line of totals: `who` (a method or peer), times, collisions and the
/// checks against the reference.
void print_totals(const std::string& who, const Totals& t);

/// advance_scene_names() and "funnel".
std::vector<std::string> scene_names();
/// `motion`: "general" (the scene's own trials), or "translation" or
/// "rotation" (pure_motion_scene(), rigid scenes only). UsageError for an
/// unknown name or motion.
/// The --trials option: 1 to 100000, 200 when absent (the paper's count);
/// UsageError otherwise.
int trials_option(std::optional<std::string_view> value);

LoadedScene load_scene(std::string_view name, int trials, std::uint64_t seed, std::string_view motion = "general");

/// Called once per trial done, never from two threads at once (a progress
/// line).
using TrialTick = std::function<void()>;

/// Every trial answered with `options` on `threads` threads (each timed alone).
std::vector<Outcome> advance_trials(const LoadedScene& scene, const AdvanceOptions& options, int threads,
                                    const TrialTick& tick = {});
/// Judges every outcome (on all cores).
void judge_trials(const LoadedScene& scene, std::vector<Outcome>& outcomes, const TrialTick& tick = {});

#ifdef SIMDCCD_HAVE_FCL
/// Every trial of a rigid scene answered by FCL in `config`, one thread (its
/// own timing); `threshold` is the distance check's, as FCL has none.
std::vector<Outcome> fcl_trials(const LoadedScene& scene, const FclConfig& config, double threshold,
                                const TrialTick& tick = {});
#endif

}  // namespace simdccd::cli
