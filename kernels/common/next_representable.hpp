// The neighbouring floats and doubles, inline: std::nextafter(x, +-infinity)
// is a library call, and a step rounds hundreds of thousands of bounds
// outwards (the frame boxes in doubles, the sweep's scan boxes in floats).
// Internal.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace simdccd {

/// std::nextafter(x, +infinity) for float or double: the least value above
/// x (NaN and +inf unchanged).
template <class T>
T next_up(T x) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  using Bits = std::conditional_t<std::is_same_v<T, float>, std::uint32_t, std::uint64_t>;
  if (x != x || x == std::numeric_limits<T>::infinity()) return x;
  if (x == 0) return std::numeric_limits<T>::denorm_min();
  const auto bits = std::bit_cast<Bits>(x);
  return std::bit_cast<T>(x > 0 ? Bits(bits + 1) : Bits(bits - 1));
}

/// std::nextafter(x, -infinity): the greatest value below x (NaN and -inf unchanged).
template <class T>
T next_down(T x) {
  return -next_up(-x);
}

}  // namespace simdccd
