// The sweep's order of a box set: indices by (lo on the sweep axis, index).
// Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdccd/large_vector.hpp"

namespace simdccd::broad {

/// `order` becomes 0..n-1 sorted by (lo[i], i), -0 equal to +0: a stable
/// radix sort of the high halves of keys that order like the doubles, then
/// each run of equal high halves by the low halves (short runs by
/// comparisons, long ones by radix passes), so the order is the comparison
/// sort's, in O(n) and with few indirect loads.
/// Precondition: no lo[i] is NaN (swept boxes are finite or infinite).
void lo_order(LargeVector<std::int32_t>& order, std::size_t n, const double* lo);

}  // namespace simdccd::broad
