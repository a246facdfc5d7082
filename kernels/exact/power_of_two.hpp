// Exact scaling of a rational by a power of two, for the exact kernels that
// bring numbers far outside the doubles' range back to it (real_root.cpp,
// convex/exact_sqrt.hpp, convex/exact_gjk.cpp). Internal.
#pragma once

#include <gmpxx.h>

namespace simdccd::exact {

/// x 2^k, exactly.
inline mpq_class times_power_of_two(const mpq_class& x, long k) {
  mpq_class out;
  if (k >= 0) {
    mpq_mul_2exp(out.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(k));
  } else {
    mpq_div_2exp(out.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(-k));
  }
  return out;
}

}  // namespace simdccd::exact
