// The inner loop of sort-and-sweep (dispatch/off_axis_scan.cc): among the
// boxes that overlap a box on the sweep axis, those that also overlap it on
// the two other axes. Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simdccd::broad {

/// Readable entries past `end` that the scan may load (one vector of floats
/// of the widest target, 2048-bit SVE) and output slots past the last it writes.
inline constexpr std::size_t kScanSlack = 64;

/// Boxes in sweep order, the two off axes, in floats rounded outwards (half
/// the memory traffic of doubles, twice the lanes): box j is
/// [lo1[j], hi1[j]] x [lo2[j], hi2[j]].
struct OffAxes {
  const float *lo1, *hi1, *lo2, *hi2;
};

/// The float below or equal to x, and above or equal (x not NaN).
float float_below(double x);
float float_above(double x);

/// Writes, in increasing order, each j in [begin, end) whose closed box
/// overlaps [lo1, hi1] x [lo2, hi2]; returns their count. Every overlap of the
/// exact boxes is found (the floats enclose them); a few more may be, which
/// the caller rechecks in doubles. The same on every target. `out` needs
/// end - begin + kScanSlack entries and the arrays kScanSlack readable
/// entries past `end`.
std::size_t off_axis_overlaps(const OffAxes& boxes, std::size_t begin, std::size_t end,
                              float lo1, float hi1, float lo2, float hi2, std::int32_t* out);

}  // namespace simdccd::broad
