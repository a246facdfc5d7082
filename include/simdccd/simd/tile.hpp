// What the tiles of every kernel family share (linear/tile.hpp,
// spacetime/tile.hpp): the tile size and the verdict values.
#pragma once

#include <cstddef>

namespace simdccd::simd {

inline constexpr std::size_t kTileSize = 64;  // a multiple of every vector length (<= 32 doubles)

/// The kernel's answer for one query, stored as a double so vectors can write it.
enum class Verdict : int { miss = 0, hit = 1, uncertain = 2, invalid = 3, candidate = 4 };

/// Whether a tile's verdict value is v.
inline bool is_verdict(double verdict, Verdict v) { return verdict == static_cast<double>(static_cast<int>(v)); }

}  // namespace simdccd::simd
