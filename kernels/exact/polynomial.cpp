#include "exact/polynomial.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace simdccd::exact {

Poly::Poly(std::initializer_list<mpq_class> coefficients) : c_(coefficients) { trim(); }
Poly::Poly(std::vector<mpq_class> coefficients) : c_(std::move(coefficients)) { trim(); }

namespace {

// The oracle's polynomials mostly have integer coefficients (exact_ccd scales
// the motion to integers): their products and sums then need no gcd for
// the canonical form, and no temporary. Both keep c canonical.
bool is_integer(const mpq_class& x) { return mpz_cmp_ui(mpq_denref(x.get_mpq_t()), 1) == 0; }

// c += sign * x.
void accumulate(mpq_class& c, const mpq_class& x, int sign) {
  if (is_integer(c) && is_integer(x)) {
    (sign > 0 ? mpz_add : mpz_sub)(mpq_numref(c.get_mpq_t()), mpq_numref(c.get_mpq_t()),
                                   mpq_numref(x.get_mpq_t()));
  } else {
    (sign > 0 ? mpq_add : mpq_sub)(c.get_mpq_t(), c.get_mpq_t(), x.get_mpq_t());
  }
}

// c += a b, with `scratch` for the product of non-integers.
void add_product(mpq_class& c, const mpq_class& a, const mpq_class& b, mpq_class& scratch) {
  if (is_integer(c) && is_integer(a) && is_integer(b)) {
    mpz_addmul(mpq_numref(c.get_mpq_t()), mpq_numref(a.get_mpq_t()), mpq_numref(b.get_mpq_t()));
  } else {
    mpq_mul(scratch.get_mpq_t(), a.get_mpq_t(), b.get_mpq_t());
    mpq_add(c.get_mpq_t(), c.get_mpq_t(), scratch.get_mpq_t());
  }
}

}  // namespace

void Poly::trim() {
  while (!c_.empty() && sgn(c_.back()) == 0) c_.pop_back();
}

bool Poly::has_integer_coefficients() const { return std::all_of(c_.begin(), c_.end(), is_integer); }

int Poly::sign_at(const mpq_class& t) const {
  if (is_zero()) return 0;
  // With t = a / b (b > 0) and integers C_i = k c_i (k > 0), p(t) has the
  // sign of b^n k p(t) = sum C_i a^i b^(n-i): Horner's scheme in integers.
  // Integer coefficients (the common case) are read in place.
  const bool integer_p = has_integer_coefficients();
  const IntCoefficients scaled = integer_p ? IntCoefficients{} : integer_multiple(*this);
  const auto coefficient = [&](int i) -> mpz_srcptr {
    return integer_p ? mpq_numref(c_[i].get_mpq_t()) : scaled[i].get_mpz_t();
  };
  const mpz_class &a = t.get_num(), &b = t.get_den();
  const bool integer_t = b == 1;
  mpz_class v(coefficient(degree())), b_power = 1;
  for (int i = degree() - 1; i >= 0; --i) {
    v *= a;
    if (integer_t) {
      mpz_add(v.get_mpz_t(), v.get_mpz_t(), coefficient(i));
    } else {
      b_power *= b;
      mpz_addmul(v.get_mpz_t(), coefficient(i), b_power.get_mpz_t());
    }
  }
  return sgn(v);
}

IntCoefficients integer_multiple(const Poly& p) {
  mpz_class k = 1;
  for (const mpq_class& x : p.coefficients()) {
    if (!is_integer(x)) mpz_lcm(k.get_mpz_t(), k.get_mpz_t(), x.get_den_mpz_t());
  }
  IntCoefficients c;
  c.reserve(p.coefficients().size());
  for (const mpq_class& x : p.coefficients()) {
    c.push_back(k == 1 ? x.get_num() : mpz_class(x.get_num() * (k / x.get_den())));
  }
  return c;
}

void shift_by(IntCoefficients& c, const mpz_class& m) {
  // Horner's scheme on polynomials: c(x + m) = (...(c_n (x + m) + c_{n-1})(x + m) ...).
  const std::size_t n = c.empty() ? 0 : c.size() - 1;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = n; j-- > i;) mpz_addmul(c[j].get_mpz_t(), m.get_mpz_t(), c[j + 1].get_mpz_t());
  }
}

Poly operator+(const Poly& a, const Poly& b) {
  std::vector<mpq_class> c(std::max(a.c_.size(), b.c_.size()));
  for (std::size_t i = 0; i < a.c_.size(); ++i) accumulate(c[i], a.c_[i], 1);
  for (std::size_t i = 0; i < b.c_.size(); ++i) accumulate(c[i], b.c_[i], 1);
  return Poly(std::move(c));
}

Poly operator-(const Poly& a, const Poly& b) {
  std::vector<mpq_class> c(std::max(a.c_.size(), b.c_.size()));
  for (std::size_t i = 0; i < a.c_.size(); ++i) accumulate(c[i], a.c_[i], 1);
  for (std::size_t i = 0; i < b.c_.size(); ++i) accumulate(c[i], b.c_[i], -1);
  return Poly(std::move(c));
}

Poly operator*(const Poly& a, const Poly& b) {
  if (a.is_zero() || b.is_zero()) return {};
  std::vector<mpq_class> c(a.c_.size() + b.c_.size() - 1);
  mpq_class scratch;
  for (std::size_t i = 0; i < a.c_.size(); ++i) {
    for (std::size_t j = 0; j < b.c_.size(); ++j) add_product(c[i + j], a.c_[i], b.c_[j], scratch);
  }
  return Poly(std::move(c));
}

Poly operator*(const mpq_class& s, const Poly& a) {
  std::vector<mpq_class> c(a.c_);
  for (mpq_class& x : c) x *= s;
  return Poly(std::move(c));
}

Poly derivative(const Poly& p) {
  std::vector<mpq_class> c;
  for (int i = 1; i <= p.degree(); ++i) c.push_back(p[i] * i);
  return Poly(std::move(c));
}

namespace {
std::pair<Poly, Poly> divide(const Poly& a, const Poly& b) {
  assert(!b.is_zero());
  std::vector<mpq_class> r = a.coefficients();
  const int db = b.degree();
  std::vector<mpq_class> q(std::max(0, a.degree() - db + 1));
  for (int i = a.degree(); i >= db; --i) {
    if (sgn(r[i]) == 0) continue;
    const mpq_class f = r[i] / b.leading();
    q[i - db] = f;
    for (int j = 0; j <= db; ++j) r[i - db + j] -= f * b[j];
  }
  r.resize(std::min<std::size_t>(r.size(), db));
  return {Poly(std::move(q)), Poly(std::move(r))};
}
}  // namespace

Poly quotient(const Poly& a, const Poly& b) { return divide(a, b).first; }
Poly remainder(const Poly& a, const Poly& b) { return divide(a, b).second; }

Poly gcd(const Poly& a, const Poly& b) {
  Poly x = a, y = b;
  while (!y.is_zero()) x = std::exchange(y, remainder(x, y));
  if (x.is_zero()) return x;
  return mpq_class(1) / x.leading() * x;
}

Poly square_free_part(const Poly& p) {
  if (p.degree() <= 1) return p;
  return quotient(p, gcd(p, derivative(p)));
}

Poly without_factor(const Poly& p, const Poly& f) {
  assert(f.degree() >= 1);
  Poly q = p;
  while (!q.is_zero()) {
    auto [next, rest] = divide(q, f);
    if (!rest.is_zero()) break;
    q = std::move(next);
  }
  return q;
}

PolyVec3 operator+(const PolyVec3& a, const PolyVec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}

PolyVec3 operator-(const PolyVec3& a, const PolyVec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

PolyVec3 operator*(const Poly& s, const PolyVec3& v) { return {s * v[0], s * v[1], s * v[2]}; }

PolyVec3 derivative(const PolyVec3& v) { return {derivative(v[0]), derivative(v[1]), derivative(v[2])}; }

PolyVec3 cross(const PolyVec3& a, const PolyVec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

Poly dot(const PolyVec3& a, const PolyVec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

Poly common_divisor(const PolyVec3& v) { return gcd(gcd(v[0], v[1]), v[2]); }

}  // namespace simdccd::exact
