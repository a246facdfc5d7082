// Conversions of single numbers and points between doubles and rationals,
// shared by the conversions of the query types (query.cpp, rigid/motion.cpp),
// and the common denominator that scales rationals to integers (the oracles).
#pragma once

#include <gmpxx.h>

#include "simdccd/query.hpp"
#include "simdccd/rational_query.hpp"

namespace simdccd {

/// The nearest double (ties to even); +-infinity beyond the double range.
double nearest_double(const mpq_class& v);

/// Exact. Precondition: finite coordinates.
RationalVec3 to_rational(const Vec3& p);
/// Each coordinate by nearest_double.
Vec3 to_double(const RationalVec3& p);

/// l := lcm(l, the denominators of p's coordinates).
void include_denominators(mpz_class& l, const RationalVec3& p);

}  // namespace simdccd
