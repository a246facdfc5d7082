// A tile of queries: the plain data that every kernel instantiation reads and
// writes (see tile_kernel-inl.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdccd/simd/tile.hpp"

namespace simdccd::linear {

using simd::kTileSize;
using simd::Verdict;

/// Queries in structure-of-arrays form, `coord[3 * (4 * time + point) + axis]`,
/// and the kernel's working memory. Plain data: every stage loads and stores.
/// Rows start on cache lines, so that no vector load or store spans two.
struct alignas(64) Tile {
  std::size_t count = 0;  ///< queries in the tile
  /// The orientation screen's running guess of its order, 0 to 7, kept from
  /// tile to tile (tile_kernel-inl.h); it changes no answer.
  int screen_order = 0;
  alignas(64) double coord[24][kTileSize];
  std::int16_t scale[kTileSize] = {};  ///< coord holds the query times 2^scale (scale_up_query)
  alignas(64) double verdict[kTileSize];  ///< a Verdict per query
  alignas(64) double toi[kTileSize];      ///< hit or uncertain: lower bound of the earliest contact
  alignas(64) double cubic[simd::kCubicRows][kTileSize];  ///< b0..b3, e0..e3, w0, w1 of each query (stage 1)
  // Stage 2 works on the candidates, compacted.
  std::size_t candidates = 0;
  std::uint16_t index[kTileSize];
  alignas(64) double candidate_coord[24][kTileSize];
  alignas(64) double candidate_cubic[simd::kCubicRows][kTileSize];
  alignas(64) double candidate_verdict[kTileSize];
  alignas(64) double candidate_toi[kTileSize];
};

}  // namespace simdccd::linear
