// Checks shared by the fuzz targets of the rational CSV readers
// (fuzz_query_csv.cpp, fuzz_rigid_csv.cpp): a broken promise aborts.
#pragma once

#include <cstdlib>

#include <gmpxx.h>

#include "simdccd/rational_query.hpp"

namespace fuzz_checks {

inline void require(bool ok) {
  if (!ok) std::abort();
}

/// Positive denominator, lowest terms.
inline bool canonical(const mpq_class& q) {
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return q.get_den() > 0 && g == 1;
}

inline bool canonical(const simdccd::RationalVec3& p) { return canonical(p.x) && canonical(p.y) && canonical(p.z); }

}  // namespace fuzz_checks
