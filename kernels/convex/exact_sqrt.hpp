// The square root of an exact squared distance as a double, shared by the
// two exact distance methods (exact_distance.cpp, exact_gjk.cpp). Internal.
#pragma once

#include <cmath>

#include <gmpxx.h>

#include "exact/power_of_two.hpp"

namespace simdccd::convex {

using exact::times_power_of_two;

/// sqrt(q) of a q >= 0 far outside the doubles' range (a squared distance
/// below 2^-1074, say), as a double: q scaled by an even power of two to
/// about 1 first, the root scaled back (+inf beyond the largest double).
inline double sqrt_of(const mpq_class& q) {
  if (sgn(q) == 0) return 0;
  const long e = static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2)) -
                 static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));  // log2(q) within 1
  const long half = e >= 0 ? e / 2 : -((1 - e) / 2);  // floor(e / 2)
  return std::ldexp(std::sqrt(times_power_of_two(q, -2 * half).get_d()), static_cast<int>(half));
}

}  // namespace simdccd::convex
