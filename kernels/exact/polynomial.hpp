// Polynomials in t with exact rational coefficients: the algebra of the oracle.
#pragma once

#include <array>
#include <initializer_list>
#include <vector>

#include <gmpxx.h>

namespace simdccd::exact {

/// sum c[i] t^i, kept without trailing zero coefficients, so the zero
/// polynomial has no coefficients and degree -1.
class Poly {
 public:
  Poly() = default;
  Poly(std::initializer_list<mpq_class> coefficients);
  explicit Poly(std::vector<mpq_class> coefficients);

  int degree() const { return static_cast<int>(c_.size()) - 1; }
  bool is_zero() const { return c_.empty(); }
  const mpq_class& operator[](int i) const { return c_[i]; }
  const mpq_class& leading() const { return c_.back(); }
  const std::vector<mpq_class>& coefficients() const { return c_; }

  bool has_integer_coefficients() const;
  /// Exact sign of p(t), computed in integers (no rational canonical forms).
  int sign_at(const mpq_class& t) const;

  friend Poly operator+(const Poly& a, const Poly& b);
  friend Poly operator-(const Poly& a, const Poly& b);
  friend Poly operator*(const Poly& a, const Poly& b);
  friend Poly operator*(const mpq_class& s, const Poly& a);
  friend bool operator==(const Poly& a, const Poly& b) { return a.c_ == b.c_; }

 private:
  void trim();
  std::vector<mpq_class> c_;
};

Poly derivative(const Poly& p);
/// Quotient and remainder of division by a nonzero `b`.
Poly quotient(const Poly& a, const Poly& b);
Poly remainder(const Poly& a, const Poly& b);
/// Monic greatest common divisor; gcd(0, 0) = 0.
Poly gcd(const Poly& a, const Poly& b);
/// p with every repeated factor reduced to a single one (same real roots).
Poly square_free_part(const Poly& p);
/// Integer coefficients of a polynomial, lowest degree first.
using IntCoefficients = std::vector<mpz_class>;
/// The coefficients of k p for the least k > 0 that makes them integers.
IntCoefficients integer_multiple(const Poly& p);
/// c(x) := c(x + m).
void shift_by(IntCoefficients& c, const mpz_class& m);
/// p divided by f as often as f divides it exactly (f of degree >= 1); p
/// itself when p is zero. Removes factors without real roots, such as a
/// positive weight, before roots are isolated.
Poly without_factor(const Poly& p, const Poly& f);

inline int sign(const mpq_class& v) { return sgn(v); }

/// A moving point or vector: each coordinate a polynomial in t.
using PolyVec3 = std::array<Poly, 3>;

PolyVec3 operator+(const PolyVec3& a, const PolyVec3& b);
PolyVec3 operator-(const PolyVec3& a, const PolyVec3& b);
PolyVec3 operator*(const Poly& s, const PolyVec3& v);
PolyVec3 derivative(const PolyVec3& v);
PolyVec3 cross(const PolyVec3& a, const PolyVec3& b);
Poly dot(const PolyVec3& a, const PolyVec3& b);
/// gcd of the three coordinates: its roots are the times where a vector is 0.
Poly common_divisor(const PolyVec3& v);

}  // namespace simdccd::exact
