// The exact oracle (see include/simdccd/exact_oracle.hpp for the method):
// the linear motion of the query's points, decided by exact/contact.hpp.
#include "simdccd/exact_oracle.hpp"

#include "conversions.hpp"
#include "exact/contact.hpp"
#include "exact/within_distance.hpp"
#include "simdccd/options.hpp"

namespace simdccd {
namespace {

using exact::Poly;
using exact::PolyMotion;

Result invalid() {
  Result r;
  r.status = Status::invalid_input;
  return r;
}

// The four moving points: VF p, f0, f1, f2; EE a0, a1, b0, b1 (weight 1).
// Scaled by the common denominator of all coordinates, which changes no answer
// and keeps the coefficients integers (cheap for GMP's canonicalization).
// `denominator` comes in with any other denominator to include (1 if none)
// and leaves as the common one.
PolyMotion motion_of(const RationalQuery& q, mpz_class& denominator) {
  for (const RationalVec3& p : q.points) include_denominators(denominator, p);
  // In integers: no canonical forms to compute.
  const auto scaled = [&](const mpq_class& v) { return mpz_class(v.get_num() * (denominator / v.get_den())); };
  const auto line = [&](const mpq_class& a, const mpq_class& b) {
    const mpz_class sa = scaled(a);
    return Poly{mpq_class(sa), mpq_class(scaled(b) - sa)};
  };
  PolyMotion m;
  for (int i = 0; i < 4; ++i) {
    const RationalVec3& a = q.points[i];
    const RationalVec3& b = q.points[i + 4];
    m.X[i] = {line(a.x, b.x), line(a.y, b.y), line(a.z, b.z)};
  }
  return m;
}

}  // namespace

Result exact_ccd(QueryType type, const RationalQuery& q) {
  mpz_class denominator = 1;
  return exact::plain_contact(type, motion_of(q, denominator));
}

Result exact_ccd(QueryType type, const Query& q) {
  if (!is_finite(q)) return invalid();
  return exact_ccd(type, to_rational(q));
}

Result exact_ccd(QueryType type, const RationalQuery& q, const mpq_class& min_distance) {
  if (sgn(min_distance) < 0) return invalid();
  if (sgn(min_distance) == 0) return exact_ccd(type, q);
  // Scaled with the points, so that the distance scales too.
  mpz_class denominator = min_distance.get_den();
  const PolyMotion m = motion_of(q, denominator);
  const mpq_class d = min_distance * denominator;
  return exact::exact_result(exact::earliest_within(type == QueryType::vertex_face, m.X, d * d));
}

Result exact_ccd(QueryType type, const Query& q, double min_distance) {
  if (!is_finite(q) || !valid_min_distance(min_distance)) return invalid();
  return exact_ccd(type, to_rational(q), mpq_class(min_distance));
}

}  // namespace simdccd
