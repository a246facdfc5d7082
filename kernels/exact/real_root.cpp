#include "exact/real_root.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>

#include "exact/power_of_two.hpp"

namespace simdccd::exact {
namespace {

// Largest double <= v and smallest double >= v (mpq's get_d truncates toward 0).
double round_down(const mpq_class& v) {
  const double d = v.get_d();
  return mpq_class(d) <= v ? d : std::nextafter(d, -INFINITY);
}
double round_up(const mpq_class& v) {
  const double d = v.get_d();
  return mpq_class(d) >= v ? d : std::nextafter(d, INFINITY);
}

// A double strictly inside (lo, hi), halfway between the extreme such doubles
// in the ordering of non-negative doubles, if there is one. For v >= 0,
// get_d truncates to the largest double <= v, so the least double > lo is
// the next one up.
std::optional<double> double_inside(const mpq_class& lo, const mpq_class& hi) {
  assert(sgn(lo) >= 0);
  const double a = std::nextafter(lo.get_d(), INFINITY);
  double b = hi.get_d();
  if (mpq_class(b) == hi) b = std::nextafter(b, -INFINITY);
  if (a > b) return std::nullopt;
  const auto ua = std::bit_cast<std::uint64_t>(a), ub = std::bit_cast<std::uint64_t>(b);
  return std::bit_cast<double>(ua + (ub - ua) / 2);
}

// Nonzero when p keeps one strict sign on [lo, hi]: the Taylor expansion at
// the midpoint m gives |p(m + s) - p(m)| <= sum_k |c_k| w^k for |s| <= w.
// In integers: with lo = L / D and hi = H / D over D = lcm of their
// denominators, m = M / 2D and w = W / 2D for M = L + H, W = H - L; with
// k p = sum C_i x^i (integers), e(S) = sum C_i (2D)^(n-i) (M + S)^i is
// (2D)^n k p(m + S / 2D), and the test reads |e_0| > sum_k |e_k| W^k.
int constant_sign(const Poly& p, const mpq_class& lo, const mpq_class& hi) {
  if (p.is_zero()) return 0;
  mpz_class d;
  mpz_lcm(d.get_mpz_t(), lo.get_den_mpz_t(), hi.get_den_mpz_t());
  const mpz_class l = lo.get_num() * (d / lo.get_den()), h = hi.get_num() * (d / hi.get_den());
  const mpz_class two_d = 2 * d, w = h - l;
  IntCoefficients e = integer_multiple(p);
  mpz_class scale = 1;
  for (std::size_t i = e.size() - 1; i-- > 0;) {
    scale *= two_d;
    e[i] *= scale;
  }
  shift_by(e, l + h);
  mpz_class bound = 0, wk = 1;
  for (std::size_t k = 1; k < e.size(); ++k) {
    wk *= w;
    e[k] = abs(e[k]);
    mpz_addmul(bound.get_mpz_t(), wk.get_mpz_t(), e[k].get_mpz_t());
  }
  return mpz_cmpabs(e[0].get_mpz_t(), bound.get_mpz_t()) > 0 ? sgn(e[0]) : 0;
}

// Sturm sequence of a square-free polynomial: roots in (a, b] = V(a) - V(b).
std::vector<Poly> sturm_sequence(const Poly& p) {
  std::vector<Poly> s{p, derivative(p)};
  while (s.back().degree() > 0) {
    s.push_back(mpq_class(-1) * remainder(s[s.size() - 2], s.back()));
  }
  if (s.back().is_zero()) s.pop_back();
  return s;
}

int sign_variations(const std::vector<Poly>& sturm, const mpq_class& x) {
  int count = 0, last = 0;
  for (const Poly& p : sturm) {
    const int s = p.sign_at(x);
    if (s == 0) continue;
    if (last != 0 && s != last) ++count;
    last = s;
  }
  return count;
}

// Appends the roots of q in (a, b], knowing that there are va - vb of them.
void isolate(const Poly& q, const std::vector<Poly>& sturm, const mpq_class& a,
             const mpq_class& b, int va, int vb, std::vector<RealRoot>& out) {
  const int count = va - vb;
  if (count == 0) return;
  if (count == 1) {
    if (q.sign_at(b) == 0) return out.push_back(RealRoot::rational(b));
    if (q.sign_at(a) != 0) return out.push_back(RealRoot(q, a, b));
  }
  const mpq_class m = (a + b) / 2;
  const int vm = sign_variations(sturm, m);
  isolate(q, sturm, a, m, va, vm, out);
  isolate(q, sturm, m, b, vm, vb, out);
}

}  // namespace

RealRoot RealRoot::rational(const mpq_class& value) {
  RealRoot r;
  r.lo_ = r.hi_ = value;
  return r;
}

namespace {
// k q with integer coefficients (k > 0; q itself when they are): the same
// roots and signs, and the many signs a root's refinement takes need no
// common denominator.
Poly integer_form(Poly q) {
  if (q.has_integer_coefficients()) return q;
  const IntCoefficients c = integer_multiple(q);
  return Poly(std::vector<mpq_class>(c.begin(), c.end()));
}
}  // namespace

RealRoot::RealRoot(Poly q, mpq_class lo, mpq_class hi)
    : q_(integer_form(std::move(q))), lo_(std::move(lo)), hi_(std::move(hi)), sign_lo_(q_.sign_at(lo_)) {
  assert(lo_ < hi_ && sign_lo_ != 0 && sign_lo_ == -q_.sign_at(hi_));
}

void RealRoot::refine() {
  if (is_rational()) return;
  const std::optional<double> inside = double_inside(lo_, hi_);
  const mpq_class m = inside ? mpq_class(*inside) : mpq_class((lo_ + hi_) / 2);
  const int s = q_.sign_at(m);
  if (s == 0) {
    *this = rational(m);
  } else if (s == sign_lo_) {
    lo_ = m;
  } else {
    hi_ = m;
  }
}

int RealRoot::sign_of(const Poly& p) {
  if (is_rational()) return p.sign_at(lo_);
  if (p == q_) return 0;
  // Most signs show on an interval one double wide; only then pay for the gcd
  // that detects an exact zero (p vanishes here iff gcd(p, q) has its root here).
  enclose();
  if (is_rational()) return p.sign_at(lo_);
  if (const int s = constant_sign(p, lo_, hi_)) return s;
  const Poly g = gcd(p, q_);
  if (g.degree() >= 1 && g.sign_at(lo_) != g.sign_at(hi_)) return 0;
  for (;; refine()) {
    if (is_rational()) return p.sign_at(lo_);
    if (const int s = constant_sign(p, lo_, hi_)) return s;
  }
}

int RealRoot::right_sign_of(const Poly& p) {
  for (Poly d = p; !d.is_zero(); d = derivative(d)) {
    if (const int s = sign_of(d)) return s;
  }
  return 0;
}

// A floating-point guess of the root of q in [lo, hi]: bisection on q with
// coefficients rounded to doubles. Only a guess; `enclose` verifies it.
double RealRoot::guess() const {
  // The coefficients divided by a power of two near the largest (exact and
  // cheap, unlike a division by the largest), so that they fit doubles.
  long top = LONG_MIN;
  for (const mpq_class& x : q_.coefficients()) {
    if (sgn(x) == 0) continue;
    top = std::max(top, static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 2)) -
                            static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 2)));
  }
  std::vector<double> c;
  for (const mpq_class& x : q_.coefficients()) c.push_back(times_power_of_two(x, -top).get_d());
  const auto value = [&](double t) {
    double v = 0;
    for (auto it = c.rbegin(); it != c.rend(); ++it) v = v * t + *it;
    return v;
  };
  double a = lo_.get_d(), b = hi_.get_d();
  const bool rising_at_a = sign_lo_ < 0;
  for (int i = 0; i < 200; ++i) {
    const double m = a + (b - a) / 2;
    if (m <= a || m >= b) break;
    (value(m) < 0) == rising_at_a ? a = m : b = m;
  }
  return a;
}

RealRoot::Enclosure RealRoot::enclose() {
  if (!is_rational() && double_inside(lo_, hi_)) {
    // Bracket the guess ever more widely until q changes sign across the bracket.
    const double x = guess();
    for (double width = 4 * std::max(std::abs(x), 1e-300) * 0x1p-52; width < 1; width *= 1024) {
      const mpq_class a = std::max(lo_, mpq_class(std::max(0.0, x - width)));
      const mpq_class b = std::min(hi_, mpq_class(x + width));
      const int sa = q_.sign_at(a), sb = q_.sign_at(b);
      if (sa == 0 || sb == 0) {
        *this = rational(sa == 0 ? a : b);
        break;
      }
      if (sa == sign_lo_ && sb == -sign_lo_) {
        lo_ = a;
        hi_ = b;
        break;
      }
    }
  }
  while (!is_rational() && double_inside(lo_, hi_)) refine();
  return {round_down(lo_), round_up(hi_)};
}

std::optional<RealRoot::Enclosure> earliest(std::optional<RealRoot::Enclosure> a,
                                            std::optional<RealRoot::Enclosure> b) {
  if (!a) return b;
  if (!b) return a;
  return RealRoot::Enclosure{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
}

namespace {

// For c(x) = k p(a + (b - a) x), k > 0: the sign variations in the
// coefficients of (1 + x)^n c(1 / (1 + x)), whose positive roots are the
// images of the roots of p in (a, b). By Descartes' rule of signs their
// number, counted with multiplicity, is the variations minus an even number
// (0 variations: none; 1: exactly one, simple).
int variations(IntCoefficients c) {
  std::reverse(c.begin(), c.end());
  shift_by(c, 1);
  int count = 0, last = 0;
  for (const mpz_class& x : c) {
    const int s = sgn(x);
    if (s == 0) continue;
    if (last != 0 && s != last) ++count;
    last = s;
  }
  return count;
}

// Appends the roots of p in (a, b), where p(a), p(b) != 0 and c(x) =
// k p(a + (b - a) x) with k > 0, isolated by Descartes' rule and bisection
// (in integers: the halves are 2^n c(x / 2) and that at x + 1). False
// (giving up) at a root on a midpoint, or roots closer than (b - a) / 2^depth
// (such as a multiple root).
bool descartes_isolate(const Poly& p, const IntCoefficients& c, const mpq_class& a,
                       const mpq_class& b, int depth, std::vector<RealRoot>& out) {
  switch (variations(c)) {
    case 0: return true;
    case 1: out.push_back(RealRoot(p, a, b)); return true;
    default: break;
  }
  if (depth == 0) return false;
  const std::size_t n = c.size() - 1;
  IntCoefficients left(c.size());
  for (std::size_t i = 0; i <= n; ++i) mpz_mul_2exp(left[i].get_mpz_t(), c[i].get_mpz_t(), n - i);
  IntCoefficients right = left;
  shift_by(right, 1);
  if (sgn(right[0]) == 0) return false;  // p vanishes at the midpoint
  const mpq_class m = (a + b) / 2;
  return descartes_isolate(p, left, a, m, depth - 1, out) &&
         descartes_isolate(p, right, m, b, depth - 1, out);
}

}  // namespace

std::vector<RealRoot> roots_in_unit_interval(const Poly& p) {
  assert(!p.is_zero());
  std::vector<RealRoot> roots;
  // Without a root at 0 or 1 and with simple roots, Descartes' rule
  // isolates them without the gcd and the Sturm sequence (the expensive
  // steps); else, or when it gives up, the Sturm sequence does.
  const mpq_class zero = 0, one = 1;
  if (p.degree() >= 1 && p.sign_at(zero) != 0 && p.sign_at(one) != 0) {
    if (descartes_isolate(p, integer_multiple(p), zero, one, 8, roots)) return roots;
    roots.clear();
  }
  const Poly q = square_free_part(p);
  if (q.degree() < 1) return roots;
  if (q.sign_at(zero) == 0) roots.push_back(RealRoot::rational(zero));
  const std::vector<Poly> sturm = sturm_sequence(q);
  isolate(q, sturm, zero, one, sign_variations(sturm, zero), sign_variations(sturm, one), roots);
  return roots;
}

}  // namespace simdccd::exact
