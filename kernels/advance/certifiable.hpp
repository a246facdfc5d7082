// Whether the input is valid and the options can be certified for one model
// pair (advance.cpp). Internal.
#pragma once

#include "simdccd/advance.hpp"

namespace simdccd::advancement {

/// A pose's rotation is a rotation to 2^-46 (is_rotation) and its translation
/// finite, of norm at most 2^60.
bool valid_pose(const Pose& p);
/// A path's start pose valid, its velocity finite, its angle in [0, 4 pi]
/// about a unit axis (to 2^-46; any axis for angle 0), and |start.x| +
/// |velocity| at most 2^60.
bool valid_path(const RigidPath& p);

/// The least scale (reaches plus offset) of a model pair: below it the
/// kernels' projections could underflow by more than the distance error
/// (advance/pair_bounds-inl.h, kLeastLen2).
constexpr double kLeastScale = 0x1p-400;

/// Whether a model pair's scale (reaches plus offset) is at least kLeastScale.
inline bool certified_scale(double reach_a, double reach_b, double offset) {
  return reach_a + reach_b + offset >= kLeastScale;
}

/// Options in range whatever the models: a finite threshold >= 0 (0: the
/// default), a positive iteration cap, a control in (0, 1] and one of
/// AdvanceMethod's methods.
bool valid_options(const AdvanceOptions& o);

/// False when the options are not valid_options, the scale reach_a + reach_b
/// + offset is below 2^-400 or the threshold is not above 8
/// distance_error(reach_a, reach_b, offset).
bool certifiable(const AdvanceOptions& o, double reach_a, double reach_b, double offset);

}  // namespace simdccd::advancement
