// Scalar 3-vector arithmetic on Vec3 (query.hpp) for the library's scalar
// geometry: polyhedra, conservative advancement, its references and scenes.
// One rounding per operation, in a fixed order. Internal to the library.
#pragma once

#include <algorithm>
#include <cmath>

#include "simdccd/query.hpp"

namespace simdccd {

inline Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(double s, const Vec3& a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(const Vec3& a) { return std::sqrt(dot(a, a)); }
inline double max_abs(const Vec3& a) { return std::max({std::abs(a.x), std::abs(a.y), std::abs(a.z)}); }
inline bool is_zero(const Vec3& a) { return a.x == 0 && a.y == 0 && a.z == 0; }
inline bool finite(const Vec3& a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }
/// a times 2^k (exact while the results stay normal).
inline Vec3 ldexp(const Vec3& a, int k) { return {std::ldexp(a.x, k), std::ldexp(a.y, k), std::ldexp(a.z, k)}; }
/// The k that brings |m| to [1, 2) by m times 2^k (0 for a zero or non-finite m).
inline int unit_exponent(double m) { return m != 0 && std::isfinite(m) ? -std::ilogb(m) : 0; }
/// The k that brings max_abs(a) to [1, 2) by a times 2^k (0 for a zero or non-finite a).
inline int unit_exponent(const Vec3& a) { return unit_exponent(max_abs(a)); }
/// a times the power of two that brings max_abs(a) to [1, 2): its direction,
/// with products that neither underflow nor overflow.
inline Vec3 near_one(const Vec3& a) { return ldexp(a, unit_exponent(a)); }
/// |a| without the underflow or overflow of its square (norm() of a vector
/// of 2^-540 is 0): computed at the power of two that brings a near 1. The
/// same bits as norm() wherever the square stays normal.
inline double stable_norm(const Vec3& a) {
  const int k = unit_exponent(a);
  return std::ldexp(norm(ldexp(a, k)), -k);
}

}  // namespace simdccd
