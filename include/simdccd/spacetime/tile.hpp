// A tile of space-time queries: the plain data that every instantiation of the
// space-time kernel (spacetime/tile_kernel-inl.h) reads and writes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdccd/simd/tile.hpp"

namespace simdccd::spacetime {

using simd::kTileSize;
using simd::Verdict;  // miss, hit, uncertain, invalid (no candidates here)

/// Queries in structure-of-arrays form, `coord[3 * (4 * time + point) + axis]`,
/// with the vertices of each primitive already put in id order (VF: the face's
/// three; EE: each edge's two; stable, see spacetime_oracle.hpp), so that the
/// kernel's pieces are the same for every lane. Rows start on cache lines, so
/// that no vector load or store spans two.
struct alignas(64) Tile {
  std::size_t count = 0;  ///< queries in the tile
  alignas(64) double coord[24][kTileSize];
  std::int16_t scale[kTileSize] = {};  ///< coord holds the query times 2^scale (scale_up_query)
  alignas(64) double verdict[kTileSize];  ///< a Verdict per query
  alignas(64) double toi[kTileSize];      ///< hit or uncertain: a lower bound of the earliest contact; else +inf
  /// Hit: the piece of the earliest contact, or -1 when two hit pieces' toi
  /// brackets overlap (which one is earliest is not certified).
  alignas(64) double piece[kTileSize];
  /// 1 where the box screen separated every piece (a miss without
  /// determinants), else 0.
  alignas(64) double screened[kTileSize];
  /// The query point (0..3) loaded into each slot (set by load_tile).
  std::uint8_t slot[4][kTileSize];
};

/// A kernel instantiation: decides a loaded tile.
using TileFunction = void (*)(Tile& tile, double tolerance);

/// A tile of planar queries: `coord[2 * (3 * time + point) + axis]`, points
/// p, then the edge's two endpoints in id order; otherwise as Tile (rows on
/// cache lines too).
struct alignas(64) PlanarTile {
  std::size_t count = 0;
  alignas(64) double coord[12][kTileSize];
  std::int16_t scale[kTileSize] = {};  ///< as Tile
  alignas(64) double verdict[kTileSize];
  alignas(64) double toi[kTileSize];
  alignas(64) double piece[kTileSize];
  alignas(64) double screened[kTileSize];
  std::uint8_t slot[3][kTileSize];
};

using PlanarTileFunction = void (*)(PlanarTile& tile, double tolerance);

}  // namespace simdccd::spacetime
