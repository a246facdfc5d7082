// What a CCD query answers.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

namespace simdccd {

enum class Status : std::uint8_t {
  certified,      ///< decided in floating point with certified error bounds
  exact,          ///< decided in exact rational arithmetic
  uncertain,      ///< not certified; conservative mode reports it as a hit (see linear_ccd.hpp)
  invalid_input,  ///< a coordinate was NaN, infinite or outside the valid range; not decided
};

std::string_view to_string(Status status);

struct Result {
  /// The primitives touch for some t in [0,1]. False for `invalid_input`.
  bool hit = false;
  /// When `hit`: toi_lo <= t* <= toi_hi, t* the earliest contact time.
  /// Otherwise both are +infinity.
  double toi_lo = std::numeric_limits<double>::infinity();
  double toi_hi = std::numeric_limits<double>::infinity();
  /// Distinct roots in [0,1] of the coplanarity cubic at which the primitives
  /// touch (0..3). Zero when `always_coplanar`: there the contact set need not
  /// be finite. Root-parity methods see only the odd counts.
  std::uint8_t contact_roots = 0;
  /// The coplanarity cubic is identically zero: the four points stay coplanar.
  bool always_coplanar = false;
  Status status = Status::exact;
};

}  // namespace simdccd
