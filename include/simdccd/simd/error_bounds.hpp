// Constants of the forward error analysis shared by the kernels (linear/,
// spacetime/ and the shared -inl.h headers of this folder).
//
// Model: every operation on doubles rounds once, |fl(a op b) - a op b| <=
// kUnitRoundoff |a op b| + kUnderflow. Each bound of the kernels is written as
// c * kUnitRoundoff * P + kTiny, where P is the same expression evaluated on
// absolute values (a permanent), c is at least twice what the analysis needs,
// and kTiny absorbs every underflow: with coordinates of at most
// kMaxCoordinate, an underflow error of 2^-1075 grows by at most (2^62)^4 times
// through the kernels' expressions (of degree at most 4), far under kTiny.
#pragma once

namespace simdccd::simd {

inline constexpr double kUnitRoundoff = 0x1p-53;
inline constexpr double kTiny = 0x1p-800;

/// The valid input domain: finite coordinates of magnitude at most 2^60
/// (about 1.15e18). Anything else is reported as `invalid_input`.
inline constexpr double kMaxCoordinate = 0x1p60;

/// Queries whose coordinates are all below this in magnitude are scaled up
/// into [1, 2) by the kernels (tile_common-inl.h: scale_up_query), so that
/// kTiny never swamps their bounds. Above it, even a feature 2^-100 times the
/// query's size keeps its degree-4 terms times kUnitRoundoff above 2^-748,
/// where adding kTiny changes no bit: the kernels answer as at scale 1.
inline constexpr double kTinyCoordinate = 0x1p-64;

}  // namespace simdccd::simd
