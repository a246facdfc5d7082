// How the sweep compares the elements' DiagonalSlabs (broad_phase.hpp).
// Internal.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

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

/// Two doubles, and where a <= b as a mask of four 32-bit lanes (two a
/// double). On SSE2 by the intrinsic: GCC 12 turned the generic compare's
/// mask into integers and back.
typedef double Two __attribute__((vector_size(16)));
inline FourMask le_mask(Two a, Two b) {
#if defined(__SSE2__)
  return std::bit_cast<FourMask>(_mm_cmple_pd(a, b));
#else
  return std::bit_cast<FourMask>(a <= b);
#endif
}

/// Whether every lane of a mask is set: one byte mask on SSE2, one minimum
/// across lanes on AArch64, else its two halves (no lane extracts).
inline bool all_set(FourMask m) {
#if defined(__SSE2__)
  return _mm_movemask_epi8(std::bit_cast<__m128i>(m)) == 0xFFFF;
#elif defined(__aarch64__)
  return vminvq_u32(std::bit_cast<uint32x4_t>(m)) == ~std::uint32_t{0};
#else
  std::uint64_t half[2];
  std::memcpy(half, &m, sizeof half);
  return (half[0] & half[1]) == ~std::uint64_t{0};
#endif
}

/// A vector V (Four or Two) from the values at p: one unaligned load (an
/// array of vectors filled by one memcpy went through the stack).
template <class V, class T>
V load_lanes(const T* p) {
  static_assert(sizeof(V) % sizeof(T) == 0);
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// Where two elements' slabs overlap (a.lo <= b.hi and b.lo <= a.hi): a's key
/// against b's reach in three compares of four lanes; every lane is set when
/// they overlap on every direction.
inline FourMask slabs_overlap(const SlabKey& a, const SlabKey& reach) {
  const auto le = [&](int k) { return load_lanes<Four>(a.data() + k) <= load_lanes<Four>(reach.data() + k); };
  return le(0) & le(4) & le(8);
}

}  // namespace simdccd::broad
