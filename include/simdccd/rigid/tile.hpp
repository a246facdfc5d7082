// A tile of rigid-motion queries (rigid_ccd.hpp): the plain data that every
// instantiation of the rigid kernels (rigid/tile_kernel-inl.h) reads and writes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdccd/simd/tile.hpp"

namespace simdccd::rigid {

using simd::kTileSize;
using simd::Verdict;

/// Rows of a query in a tile: the four points at u = 0 (`3 * point + axis`),
/// then the motion's parameters (kParam + k: translation x, y, z; rotation
/// center x, y, z, axis x, y, z, tan_half).
inline constexpr int kParam = 12;
inline constexpr int kRows = 19;

/// Queries in the frame of the still primitive (relative_to_still: the first
/// primitive moves, by the inverse motion where the second moved), and the
/// kernel's working memory. Rows start on cache lines, so that no vector load
/// or store spans two.
struct alignas(64) Tile {
  std::size_t count = 0;  ///< queries in the tile
  alignas(64) double coord[kRows][kTileSize];
  alignas(64) double verdict[kTileSize];  ///< a Verdict per query
  alignas(64) double toi[kTileSize];      ///< hit or uncertain: a lower bound of the toi; else +inf
  alignas(64) double cubic[simd::kCubicRows][kTileSize];  ///< the contact polynomial as a cubic: b0..b3, e0..e3, w0, w1 (stage 1)
  // Stage 2 works on the candidates, compacted.
  std::size_t candidates = 0;
  std::uint16_t index[kTileSize];
  alignas(64) double candidate_coord[kRows][kTileSize];
  alignas(64) double candidate_cubic[simd::kCubicRows][kTileSize];
  alignas(64) double candidate_verdict[kTileSize];
  alignas(64) double candidate_toi[kTileSize];
};

/// A kernel instantiation: decides a loaded tile; `expel` is RigidOptions::expel.
using TileFunction = void (*)(Tile& tile, double tolerance, double expel);

}  // namespace simdccd::rigid
