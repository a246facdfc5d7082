// The neighbouring doubles, inline: std::nextafter(x, +-infinity) is a
// library call, and a step rounds hundreds of thousands of bounds outwards.
// Internal.
#pragma once

#include <bit>
#include <cfloat>
#include <cstdint>
#include <limits>

namespace simdccd {

/// std::nextafter(x, +infinity): the least double above x (NaN and +inf unchanged).
inline double next_up(double x) {
  if (x != x || x == std::numeric_limits<double>::infinity()) return x;
  if (x == 0) return DBL_TRUE_MIN;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits + 1 : bits - 1);
}

/// std::nextafter(x, -infinity): the greatest double below x (NaN and -inf unchanged).
inline double next_down(double x) { return -next_up(-x); }

}  // namespace simdccd
