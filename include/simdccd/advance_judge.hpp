// Judging an advancement answer (advance.hpp) against the references of
// advance_reference.hpp: what the tests, `simdccd advance` and the bench
// check on every trial.
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "simdccd/advance.hpp"
#include "simdccd/advance_reference.hpp"

namespace simdccd {

struct TrialVerdict {
  bool exact = false;            ///< judged by the exact oracle (pure translation or rotation of a)
  bool reference_contact = false;  ///< the reference found a contact in [0, 1]
  bool late = false;             ///< the reference shows a contact before the reported ToC
  bool missed = false;           ///< "separate", but the reference finds a contact
  bool above_threshold = false;  ///< the distance at the ToC is certainly above the threshold
  bool unverified = false;       ///< the reference could not decide (none of the above is claimed)
  /// The reference ToC minus the reported one (exact judge, contact on both
  /// sides); NaN otherwise.
  double toc_gap = NAN;
  bool failed() const { return late || missed || above_threshold; }
};
// Both judges give an answer of status invalid_input an empty verdict: it
// claims nothing (the caller counts such answers apart).

/// Judges trials of one rigid model pair: the exact oracle when a moves by a
/// pure translation or a pure rotation (|angle| < 3.14) and b stands still,
/// else the certified interval reference on [0, ToC] (or [0, 1]). The
/// distance check at the ToC uses answer.threshold. Builds the reference
/// trees once; keeps references to the models, which must outlive it.
/// Thread-safe: call it from many threads at once.
class RigidJudge {
 public:
  RigidJudge(const RigidModel& a, const RigidModel& b);
  TrialVerdict operator()(const RigidPath& pa, const RigidPath& pb, const AdvanceResult& answer) const;

 private:
  const RigidModel& a_;
  const RigidModel& b_;
  ReferenceTree tree_a_, tree_b_;
};

/// Judges trials of one articulated model pair: every link pair certified
/// apart by reference distances and a Lipschitz bound of the link motions,
/// on time pieces. Same lifetime and threading rules as RigidJudge.
class ArticulatedJudge {
 public:
  ArticulatedJudge(const ArticulatedModel& a, const ArticulatedModel& b);
  TrialVerdict operator()(const ArticulatedPath& pa, const ArticulatedPath& pb, const AdvanceResult& answer) const;

 private:
  const ArticulatedModel& a_;
  const ArticulatedModel& b_;
  std::vector<std::optional<ReferenceTree>> trees_a_, trees_b_;  ///< per link; none for a link without a model
};

}  // namespace simdccd
