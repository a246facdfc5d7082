// Real roots in [0,1] as exact algebraic numbers, and signs of polynomials at them.
#pragma once

#include <optional>
#include <vector>

#include "exact/polynomial.hpp"

namespace simdccd::exact {

/// A real number given exactly: either the rational `lo` (when lo == hi), or
/// the only root of `q` in the open interval (lo, hi), a simple one, with
/// q(lo) and q(hi) nonzero and of opposite signs. Queries may shrink the
/// interval; the number never changes.
class RealRoot {
 public:
  static RealRoot rational(const mpq_class& value);
  RealRoot(Poly q, mpq_class lo, mpq_class hi);

  bool is_rational() const { return lo_ == hi_; }
  const mpq_class& lo() const { return lo_; }
  const mpq_class& hi() const { return hi_; }

  /// Halves the interval (in the ordering of doubles while a double lies
  /// strictly inside, so that enclosing needs at most ~64 steps).
  void refine();

  /// Exact sign of p at this number.
  int sign_of(const Poly& p);
  /// Exact sign of p on (x, x + delta) for all small delta > 0: the sign of
  /// its first derivative that is nonzero at this number x (0 for p = 0).
  int right_sign_of(const Poly& p);

  /// The tightest doubles lo <= x <= hi: equal when x is a double, else adjacent.
  struct Enclosure {
    double lo, hi;
  };
  Enclosure enclose();

 private:
  RealRoot() = default;
  double guess() const;
  Poly q_;
  mpq_class lo_, hi_;
  int sign_lo_ = 0;  // sign of q at lo_
};

/// The earlier of two contact times given by their enclosures (nullopt: no
/// contact): the componentwise minimum encloses the minimum and stays tightest.
std::optional<RealRoot::Enclosure> earliest(std::optional<RealRoot::Enclosure> a,
                                            std::optional<RealRoot::Enclosure> b);

/// The distinct real roots of a nonzero p in the closed interval [0,1], in
/// increasing order.
std::vector<RealRoot> roots_in_unit_interval(const Poly& p);

}  // namespace simdccd::exact
