// The three advancement methods on one model pair (advance.hpp), over any
// motion that can say its state at a time: rigid paths (advance.cpp) and the
// link pairs of articulated models (articulated.cpp). Internal.
#pragma once

#include <functional>

#include "advance/traversal.hpp"

namespace simdccd::advancement {

using StateAt = std::function<PairState(double t)>;

/// The ToC of a and b before `t_stop` (later contacts are not looked for:
/// `separate` means none before t_stop), with options.threshold resolved.
AdvanceResult advance_pair(const RigidModel& a, const RigidModel& b, const StateAt& state, double t_stop,
                           const AdvanceOptions& options);

}  // namespace simdccd::advancement
