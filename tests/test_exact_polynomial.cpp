// The oracle's polynomial algebra in integers (kernels/exact/polynomial.hpp,
// real_root.hpp) against plain rational evaluation: signs at rational points,
// integer multiples, Taylor shifts, and signs at algebraic roots.
#include <doctest/doctest.h>

#include <vector>

#include "common/splitmix.hpp"
#include "exact/polynomial.hpp"
#include "exact/real_root.hpp"

namespace simdccd::exact {
namespace {

// sum c_i t^i in rationals, by Horner's scheme: the reference.
mpq_class value(const Poly& p, const mpq_class& t) {
  mpq_class v = 0;
  for (int i = p.degree(); i >= 0; --i) v = v * t + p[i];
  return v;
}

// A rational with numerator in [-8, 8] and denominator in [1, 8] (or 1:
// integers, the oracle's common case).
mpq_class small_rational(Random& rng, bool integer) {
  mpq_class q(static_cast<long>(rng.next() % 17) - 8, integer ? 1 : 1 + rng.next() % 8);
  q.canonicalize();
  return q;
}

Poly random_poly(Random& rng, int degree, bool integer) {
  std::vector<mpq_class> c;
  for (int i = 0; i <= degree; ++i) c.push_back(small_rational(rng, integer));
  return Poly(std::move(c));
}

TEST_CASE("exact.polynomial: signs at rational points, integer multiples and shifts equal rational evaluation") {
  Random rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const bool integer = trial % 2 == 0;
    const Poly p = random_poly(rng, static_cast<int>(rng.next() % 6), integer);
    const mpq_class t = small_rational(rng, trial % 3 == 0);
    CHECK(p.sign_at(t) == sgn(value(p, t)));
    if (p.is_zero()) continue;
    // k p with integer coefficients, k > 0 the least such: the same signs,
    // and k divides the common denominator of p's coefficients.
    const IntCoefficients c = integer_multiple(p);
    REQUIRE(c.size() == p.coefficients().size());
    const mpq_class k = mpq_class(c.back()) / p.leading();
    CHECK(sgn(k) > 0);
    for (std::size_t i = 0; i < c.size(); ++i) CHECK(mpq_class(c[i]) == k * p[static_cast<int>(i)]);
    // c(x + m) at x equals c at x + m.
    IntCoefficients shifted = c;
    const mpz_class m = static_cast<long>(rng.next() % 9) - 4;
    shift_by(shifted, m);
    const mpq_class x = small_rational(rng, true);
    mpq_class at_x = 0, at_x_plus_m = 0;
    for (std::size_t i = c.size(); i-- > 0;) {
      at_x = at_x * x + shifted[i];
      at_x_plus_m = at_x_plus_m * (x + m) + c[i];
    }
    CHECK(at_x == at_x_plus_m);
  }
}

TEST_CASE("exact.polynomial: signs at the roots of a product, exact zeros included") {
  // p = (t - 1/3)(t - 5/7) q(t) has roots 1/3 and 5/7 in [0, 1], simple when
  // q has none there; a polynomial sharing the factor (t - 1/3) is exactly 0
  // at that root, one without it has the sign of its rational value nearby.
  Random rng(5);
  const Poly a{mpq_class(-1, 3), 1}, b{mpq_class(-5, 7), 1};
  for (int trial = 0; trial < 200; ++trial) {
    const Poly q{1 + static_cast<long>(rng.next() % 5), 0, 1};  // no real root
    const Poly p = a * b * q;
    std::vector<RealRoot> roots = roots_in_unit_interval(p);
    REQUIRE(roots.size() == 2);
    const Poly with_factor = a * random_poly(rng, 2, trial % 2 == 0);
    const Poly other = random_poly(rng, 3, trial % 2 == 1);
    CHECK(roots[0].sign_of(with_factor) == 0);
    CHECK(roots[0].sign_of(other) == sgn(value(other, mpq_class(1, 3))));
    CHECK(roots[1].sign_of(other) == sgn(value(other, mpq_class(5, 7))));
  }
}

}  // namespace
}  // namespace simdccd::exact
