// The same query with exact rational coordinates (GMP), as the data sets store them.
#pragma once

#include <array>

#include <gmpxx.h>

#include "simdccd/query.hpp"

namespace simdccd {

struct RationalVec3 {
  mpq_class x, y, z;
  friend bool operator==(const RationalVec3&, const RationalVec3&) = default;
};

/// Point order and meaning as in `Query`.
struct RationalQuery {
  std::array<RationalVec3, 8> points;
};

/// Exact: every finite double is a rational. Precondition: `is_finite(q)`.
RationalQuery to_rational(const Query& q);

/// Each coordinate rounded to the nearest double (ties to even); values beyond
/// the double range become +-infinity, so the result may fail `is_finite`.
Query to_double(const RationalQuery& q);

}  // namespace simdccd
