// What every tile kernel (linear/tile_kernel-inl.h, spacetime/tile_kernel-inl.h,
// spacetime/planar_kernel-inl.h) does around its vector math, written once over
// the lane type L (see lanes.hpp): padding a tile to whole vectors, the input
// validity test and the verdict values.
//
// Defined in namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE: `portable` by
// default, and once per Highway target in dispatch/linear_ccd.cc and
// dispatch/spacetime_ccd.cc, which re-include this header (toggled by
// HWY_TARGET_TOGGLE) inside each target's region, so that SVE vectors pass only
// through functions compiled for SVE.
#if defined(SIMDCCD_SIMD_TILE_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SIMD_TILE_COMMON_INL_H_
#undef SIMDCCD_SIMD_TILE_COMMON_INL_H_
#else
#define SIMDCCD_SIMD_TILE_COMMON_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/tile.hpp"

namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE {

/// `count` rounded up to a whole number of vectors.
inline std::size_t padded_count(std::size_t count, std::size_t lanes) { return (count + lanes - 1) / lanes * lanes; }

/// Repeats the last of `count` queries up to a whole number of vectors, so
/// that every load is in bounds; returns the padded count.
template <std::size_t kRows>
std::size_t pad_to_vectors(double (&rows)[kRows][kTileSize], std::size_t count, std::size_t lanes) {
  const std::size_t padded = padded_count(count, lanes);
  for (auto& row : rows) std::fill(row + count, row + padded, row[count - 1]);
  return padded;
}

/// Pads the first `count` queries of `rows` to whole vectors, then calls
/// `decide(coord, i)` for each vector's first query i, `coord[k]` pointing to
/// rows[k].
template <class L, std::size_t kRows, class Decide>
void for_each_vector(double (&rows)[kRows][kTileSize], std::size_t count, Decide decide) {
  const std::size_t lanes = L::lanes();
  const double* coord[kRows];
  for (std::size_t k = 0; k < kRows; ++k) coord[k] = rows[k];
  const std::size_t padded = pad_to_vectors(rows, count, lanes);
  for (std::size_t i = 0; i < padded; i += lanes) decide(static_cast<const double* const*>(coord), i);
}

/// Scales query j of `rows` by the power of two 2^s that brings its largest
/// coordinate into [1, 2), s to `scale[j]`, when its coordinates are all
/// finite and below kTinyCoordinate in magnitude (not all zero). Exact
/// (scaling up loses no bit, subnormals included) and the same CCD question
/// (contact is invariant under uniform scaling), so a query certifies at any
/// power-of-two scale as at scale 1; validity is kept (NaN and infinities stay,
/// everything else stays within kMaxCoordinate). Not for minimum separation (d
/// would have to scale too).
template <std::size_t kRows>
void scale_up_query(double (&rows)[kRows][kTileSize], std::size_t j, std::int16_t (&scale)[kTileSize]) {
  double largest = 0;
  bool finite = true;
  for (auto& row : rows) {
    largest = std::max(largest, std::fabs(row[j]));
    finite = finite && std::isfinite(row[j]);
  }
  if (!finite || !(largest > 0 && largest < kTinyCoordinate)) return;
  const int s = -std::ilogb(largest);
  for (auto& row : rows) row[j] = std::ldexp(row[j], s);
  scale[j] = static_cast<std::int16_t>(s);
}

/// Scales up (scale_up_query) the queries among [i, min(i + lanes, count))
/// when `largest`, their largest |coordinate| lane by lane (NaN may be
/// dropped: scale_up_query checks again), is below kTinyCoordinate in some
/// lane; the common case is one compare.
template <class L, std::size_t kRows>
void scale_up_tiny_lanes(double (&rows)[kRows][kTileSize], std::size_t count, std::int16_t (&scale)[kTileSize],
                         std::size_t i, typename L::V largest) {
  if (!L::any(L::lt(largest, L::set(kTinyCoordinate)))) return;
  for (std::size_t j = i; j < std::min(i + L::lanes(), count); ++j) scale_up_query(rows, j, scale);
}

/// The lanes whose kCoords coordinates (rows coord[0..kCoords), from query i
/// on) all lie in the valid input domain (finite, |x| <= kMaxCoordinate), and
/// the largest |coordinate| of each lane (NaN may be dropped).
template <class L, int kCoords>
typename L::M valid_input(const double* const* coord, std::size_t i, typename L::V& largest) {
  // No mask per coordinate (on AVX-512 each one is a trip through a general
  // register): x - x is 0 for a finite x and NaN otherwise, so `junk` is NaN
  // exactly where some coordinate is not finite. Two chains of each, so that
  // each add and max waits on the one two loads back, not one.
  using V = typename L::V;
  V junk0 = L::set(0), junk1 = L::set(0), most0 = L::set(0), most1 = L::set(0);
  const auto take = [&](int k, V& junk, V& most) {
    const V x = L::abs(L::load(coord[k] + i));
    most = L::max(most, x);
    junk = L::add(junk, L::sub(x, x));
  };
  for (int k = 0; k + 1 < kCoords; k += 2) take(k, junk0, most0), take(k + 1, junk1, most1);
  if (kCoords % 2) take(kCoords - 1, junk0, most0);
  largest = L::max(most0, most1);
  return L::le(L::add(largest, L::add(junk0, junk1)), L::set(kMaxCoordinate));  // false for NaN
}

/// valid_input without the largest coordinate.
template <class L, int kCoords>
typename L::M valid_input(const double* const* coord, std::size_t i) {
  typename L::V unused;
  return valid_input<L, kCoords>(coord, i, unused);
}

template <class L>
typename L::V verdict_value(Verdict v) {
  return L::set(static_cast<double>(static_cast<int>(v)));
}

/// The lanes of `verdict` equal to v (is_verdict, lane by lane).
template <class L>
typename L::M has_verdict(typename L::V verdict, Verdict v) {
  const typename L::V value = verdict_value<L>(v);
  return L::eq(verdict, value);
}

}  // namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_SIMD_TILE_COMMON_INL_H_
