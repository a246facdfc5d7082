// The sweep's order of a box set: indices by (lo on the sweep axis, index).
// Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdccd/large_vector.hpp"

namespace simdccd::broad {

/// The strict total order of the sweep: lo on the axis, then the index (-0
/// equals +0; no NaN).
struct ByLo {
  const double* lo;
  bool operator()(std::int32_t a, std::int32_t b) const { return lo[a] < lo[b] || (lo[a] == lo[b] && a < b); }
};

/// `order` becomes 0..n-1 sorted by ByLo{lo}: a stable
/// radix sort of the high halves of keys that order like the doubles, then
/// each run of equal high halves by the low halves (short runs by
/// comparisons, long ones by radix passes), so the order is the comparison
/// sort's, in O(n) and with few indirect loads.
/// Precondition: no lo[i] is NaN (swept boxes are finite or infinite).
void lo_order(LargeVector<std::int32_t>& order, std::size_t n, const double* lo);

}  // namespace simdccd::broad
