// How the sweep compares the elements' DiagonalSlabs (broad_phase.hpp).
// Internal.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

#include "simdccd/broad_phase.hpp"

namespace simdccd::broad {

using SlabKey = SortAndSweep::Sorted::SlabKey;

/// The key of an element's slabs (Sorted::SlabKey); whole lines without them.
inline SlabKey slab_key(const DiagonalSlabs* slabs, std::int32_t element) {
  constexpr int n = DiagonalSlabs::kDirections;
  SlabKey key;
  key.fill(-std::numeric_limits<float>::infinity());
  if (slabs == nullptr) return key;
  const auto& b = slabs->bounds[std::size_t(element)];
  for (int k = 0; k < n; ++k) key[k] = b[k], key[n + k] = -b[n + k];
  return key;
}

/// What another element's key is compared against: (hi, -lo), made once
/// per primary box of the sweep.
inline SlabKey slab_reach(const SlabKey& key) {
  constexpr int n = DiagonalSlabs::kDirections;
  SlabKey reach;
  for (int k = 0; k < n; ++k) reach[k] = -key[n + k], reach[n + k] = -key[k];
  return reach;
}

/// Four lanes of 32 bits (GCC and Clang vector extensions: SSE2 or NEON),
/// and a comparison's mask of them: the hit loop's tests as a few vector
/// compares and one test of the combined mask.
typedef float Four __attribute__((vector_size(16)));
typedef std::int32_t FourMask __attribute__((vector_size(16)));

/// Whether every lane of a mask is set (its two halves, no lane extracts).
inline bool all_set(FourMask m) {
  std::uint64_t half[2];
  std::memcpy(half, &m, sizeof half);
  return (half[0] & half[1]) == ~std::uint64_t{0};
}

/// Where two elements' slabs overlap (a.lo <= b.hi and b.lo <= a.hi): a's key
/// against b's reach in three compares of four lanes; every lane is set when
/// they overlap on every direction.
inline FourMask slabs_overlap(const SlabKey& a, const SlabKey& reach) {
  Four x[3], y[3];
  std::memcpy(x, a.data(), sizeof x);
  std::memcpy(y, reach.data(), sizeof y);
  return (x[0] <= y[0]) & (x[1] <= y[1]) & (x[2] <= y[2]);
}

}  // namespace simdccd::broad
