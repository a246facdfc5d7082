// Seeded random draws that are the same on every platform (std::
// distributions differ between standard libraries), for generated scenes.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "simdccd/pose.hpp"

namespace simdccd {

// splitmix64 (Steele, Lea and Flood): the same draws on every platform.
class Random {
 public:
  static constexpr double kTwoPi = 2 * std::numbers::pi;

  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = state_ += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// [0, 1) on the 2^-53 grid.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  Vec3 unit_vector() {
    const double z = uniform(-1, 1), phi = uniform(0, kTwoPi), r = std::sqrt(std::max(0.0, 1 - z * z));
    return {r * std::cos(phi), r * std::sin(phi), z};
  }
  /// Uniform over rotations: Shoemake's unit quaternion (w, x, y, z).
  std::array<double, 4> quaternion() {
    const double u = uniform(), a = uniform(0, kTwoPi), b = uniform(0, kTwoPi);
    const double s = std::sqrt(1 - u), t = std::sqrt(u);
    return {t * std::cos(b), s * std::sin(a), s * std::cos(a), t * std::sin(b)};
  }
  /// Its rotation matrix.
  std::array<double, 9> rotation() {
    const auto [w, x, y, z] = quaternion();
    return quaternion_rotation(w, x, y, z);
  }

 private:
  std::uint64_t state_;
};

}  // namespace simdccd
