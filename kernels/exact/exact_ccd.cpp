// The exact oracle (see include/simdccd/exact_oracle.hpp for the method):
// the linear motion of the query's points, decided by exact/contact.hpp.
#include "simdccd/exact_oracle.hpp"

#include "conversions.hpp"
#include "exact/contact.hpp"

namespace simdccd {
namespace {

using exact::Poly;
using exact::PolyMotion;

// The four moving points: VF p, f0, f1, f2; EE a0, a1, b0, b1 (weight 1).
// Scaled by the common denominator of all coordinates, which changes no answer
// and keeps the coefficients integers (cheap for GMP's canonicalization).
PolyMotion motion_of(const RationalQuery& q) {
  mpz_class denominator = 1;
  for (const RationalVec3& p : q.points) include_denominators(denominator, p);
  const mpq_class s(denominator);
  PolyMotion m;
  for (int i = 0; i < 4; ++i) {
    const RationalVec3& a = q.points[i];
    const RationalVec3& b = q.points[i + 4];
    m.X[i] = {Poly{s * a.x, s * (b.x - a.x)}, Poly{s * a.y, s * (b.y - a.y)},
              Poly{s * a.z, s * (b.z - a.z)}};
  }
  return m;
}

}  // namespace

Result exact_ccd(QueryType type, const RationalQuery& q) {
  return exact::plain_contact(type, motion_of(q));
}

Result exact_ccd(QueryType type, const Query& q) {
  if (!is_finite(q)) {
    Result r;
    r.status = Status::invalid_input;
    return r;
  }
  return exact_ccd(type, to_rational(q));
}

}  // namespace simdccd
