// The inner loop of sort-and-sweep (dispatch/off_axis_scan.cc): among the
// boxes that start within a box's reach on the sweep axis, those that also
// overlap it on the two other axes; the scan ends where the boxes start past
// that reach. Internal to the library.
#pragma once

#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "common/next_representable.hpp"

namespace simdccd::broad {

/// Readable entries past `end` that the scan may load (one vector of floats
/// of the widest target, 2048-bit SVE) and output slots past the last it writes.
inline constexpr std::size_t kScanSlack = 64;

/// Boxes in sweep order, in floats rounded outwards (half the memory traffic
/// of doubles, twice the lanes): box j starts at lo0[j] on the sweep axis
/// (ascending in j) and is [lo1[j], hi1[j]] x [lo2[j], hi2[j]] on the two
/// off axes. Optionally (body null: none) each
/// box's body and its box in that body's frame on the three axes, [frame[0][j],
/// frame[1][j]] x [frame[2][j], frame[3][j]] x [frame[4][j], frame[5][j]].
struct OffAxes {
  const float *lo0, *lo1, *hi1, *lo2, *hi2;
  const std::int32_t* body = nullptr;
  const float* frame[6] = {};
};

/// The box the scan looks for, in the same layout (its end hi0 on the sweep
/// axis; body < 0: no frame test).
struct Probe {
  float hi0, lo1, hi1, lo2, hi2;
  std::int32_t body = -1;
  float frame[6] = {};
};

/// The float below or equal to x, and above or equal (x not NaN). Doubles
/// beyond the float range are clamped first: converting them is undefined.
inline float float_below(double x) {
  if (x > FLT_MAX) return FLT_MAX;
  if (x < -FLT_MAX) return -std::numeric_limits<float>::infinity();
  const float f = static_cast<float>(x);
  return f > x ? next_down(f) : f;
}
inline float float_above(double x) {
  if (x > FLT_MAX) return std::numeric_limits<float>::infinity();
  if (x < -FLT_MAX) return -FLT_MAX;
  const float f = static_cast<float>(x);
  return f < x ? next_up(f) : f;
}

/// Writes, in increasing order, each j in [begin, end) with lo0[j] <= hi0
/// whose closed box overlaps the probe's [lo1, hi1] x [lo2, hi2] and, when
/// both have a body and it is the same, whose frame box overlaps the
/// probe's; returns their count. It stops after the first vector that
/// reaches past hi0, so the caller need not search for the end of the
/// window. Every overlap of the exact boxes is found (the floats enclose
/// them); a few more may be, which the caller rechecks in doubles. The same
/// on every target. `out` needs end - begin + kScanSlack entries and the
/// arrays kScanSlack readable entries past `end`. `past` tells whether the
/// scan stopped at a box past hi0 (else at `end`).
std::size_t off_axis_overlaps(const OffAxes& boxes, std::size_t begin, std::size_t end, const Probe& probe,
                              std::int32_t* out, bool& past);

}  // namespace simdccd::broad
