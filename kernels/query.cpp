// Small conversions and names of the public types.
#include <cmath>

#include "conversions.hpp"
#include "simdccd/options.hpp"
#include "simdccd/query.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"

namespace simdccd {

std::string_view to_string(QueryType type) {
  return type == QueryType::vertex_face ? "vf" : "ee";
}

std::string_view to_string(Status status) {
  switch (status) {
    case Status::certified: return "certified";
    case Status::exact: return "exact";
    case Status::uncertain: return "uncertain";
    case Status::invalid_input: return "invalid_input";
  }
  return "?";
}

std::string_view to_string(Mode mode) {
  switch (mode) {
    case Mode::conservative: return "conservative";
    case Mode::exact: return "exact";
    case Mode::oracle: return "oracle";
  }
  return "?";
}

std::optional<Mode> parse_mode(std::string_view name) {
  for (Mode m : {Mode::conservative, Mode::exact, Mode::oracle}) {
    if (name == to_string(m)) return m;
  }
  return std::nullopt;
}

bool is_finite(const Query& q) {
  for (const Vec3& p : q.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
  }
  return true;
}

RationalVec3 to_rational(const Vec3& p) { return {mpq_class(p.x), mpq_class(p.y), mpq_class(p.z)}; }

RationalQuery to_rational(const Query& q) {
  RationalQuery r;
  for (int i = 0; i < 8; ++i) r.points[i] = to_rational(q.points[i]);
  return r;
}

// mpq_get_d truncates; this rounds to nearest, ties to even.
double nearest_double(const mpq_class& v) {
  const double t = v.get_d();
  if (!std::isfinite(t)) return t;
  const mpq_class tq(t);
  if (tq == v) return t;
  const double other = std::nextafter(t, v > tq ? INFINITY : -INFINITY);
  if (!std::isfinite(other)) return other;
  const mpq_class d_t = abs(v - tq), d_o = abs(v - mpq_class(other));
  if (d_t != d_o) return d_t < d_o ? t : other;
  std::int64_t bits;
  static_assert(sizeof bits == sizeof t);
  __builtin_memcpy(&bits, &t, sizeof t);
  return (bits & 1) == 0 ? t : other;
}

void include_denominators(mpz_class& l, const RationalVec3& p) {
  for (const mpq_class* c : {&p.x, &p.y, &p.z}) mpz_lcm(l.get_mpz_t(), l.get_mpz_t(), c->get_den_mpz_t());
}

Vec3 to_double(const RationalVec3& p) { return {nearest_double(p.x), nearest_double(p.y), nearest_double(p.z)}; }

Query to_double(const RationalQuery& q) {
  Query d;
  for (int i = 0; i < 8; ++i) d.points[i] = to_double(q.points[i]);
  return d;
}

}  // namespace simdccd
