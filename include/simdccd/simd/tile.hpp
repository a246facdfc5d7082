// What the tiles of every kernel family share (linear/tile.hpp,
// spacetime/tile.hpp): the tile size and the verdict values.
#pragma once

#include <cstddef>

namespace simdccd::simd {

inline constexpr std::size_t kTileSize = 64;  // a multiple of every vector length (<= 32 doubles)

/// Rows a query's cubic takes in a tile of the kernels that reduce a query to
/// a cubic in time (simd/cubic_solve-inl.h): its Bernstein coefficients b0..b3
/// and their error bounds e0..e3, then the window [w0, w1] of [0,1] outside
/// which stage 1 certified that no root of the cubic is a contact ([0, 1]
/// where it did not look).
inline constexpr std::size_t kCubicRows = 10;

/// The kernel's answer for one query, stored as a double so vectors can write it.
enum class Verdict : int { miss = 0, hit = 1, uncertain = 2, invalid = 3, candidate = 4 };

/// Whether a tile's verdict value is v.
inline bool is_verdict(double verdict, Verdict v) { return verdict == static_cast<double>(static_cast<int>(v)); }

}  // namespace simdccd::simd
