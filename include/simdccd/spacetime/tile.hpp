// A tile of space-time queries: the plain data that every instantiation of the
// space-time kernel (spacetime/tile_kernel-inl.h) reads and writes.
#pragma once

#include <cstddef>

#include "simdccd/linear/tile.hpp"

namespace simdccd::spacetime {

using linear::kTileSize;
using linear::Verdict;  // miss, hit, uncertain, invalid (no candidates here)

/// Queries in structure-of-arrays form, `coord[3 * (4 * time + point) + axis]`,
/// with the vertices of each primitive already put in id order (VF: the face's
/// three; EE: each edge's two; stable, see spacetime_oracle.hpp), so that the
/// kernel's pieces are the same for every lane.
struct alignas(64) Tile {
  std::size_t count = 0;  ///< queries in the tile
  double coord[24][kTileSize];
  double verdict[kTileSize];  ///< a Verdict per query
  double toi[kTileSize];      ///< hit or uncertain: a lower bound of the earliest contact; else +inf
};

/// A kernel instantiation: decides a loaded tile.
using TileFunction = void (*)(Tile& tile, double tolerance);

}  // namespace simdccd::spacetime
