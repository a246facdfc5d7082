// GJK in exact arithmetic (convex/exact_gjk.hpp). Every point is scaled to
// integers by one power of two (exact), so a support scan is integer dot
// products; the closest point of a simplex is solved in rationals over the
// subsets that hold the newest point (in exact arithmetic the closest point
// of conv(T + w) is nearer than v, the closest of conv(T), so it needs w).
#include "simdccd/convex/exact_gjk.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <vector>

#include "common/vec3_math.hpp"
#include "convex/exact_sqrt.hpp"

namespace simdccd::convex {
namespace {

using IPoint = std::array<mpz_class, 3>;

// x = M 2^(e - 53) with M an integer (|M| < 2^53): e - 53 is the exponent of
// x's last mantissa bit (subnormals included).
long last_bit_exponent(double x) {
  int e = 0;
  std::frexp(x, &e);
  return static_cast<long>(e) - 53;
}

// x 2^-e as an integer, for e at most last_bit_exponent(x).
mpz_class scaled_integer(double x, long e) {
  if (x == 0) return 0;
  int k = 0;
  mpz_class z(std::ldexp(std::frexp(x, &k), 53));
  mpz_mul_2exp(z.get_mpz_t(), z.get_mpz_t(), static_cast<mp_bitcnt_t>(static_cast<long>(k) - 53 - e));
  return z;
}

// The smallest last-bit exponent of the nonzero coordinates of `points` and
// of `e` (none: every coordinate 0).
std::optional<long> smallest_exponent(std::span<const Vec3> points, std::optional<long> e = std::nullopt) {
  for (const Vec3& p : points) {
    for (const double c : {p.x, p.y, p.z}) {
      if (c != 0 && (!e || last_bit_exponent(c) < *e)) e = last_bit_exponent(c);
    }
  }
  return e;
}

std::vector<IPoint> scaled(std::span<const Vec3> points, long e) {
  std::vector<IPoint> out;
  out.reserve(points.size());
  for (const Vec3& p : points) out.push_back({scaled_integer(p.x, e), scaled_integer(p.y, e), scaled_integer(p.z, e)});
  return out;
}

mpz_class dot(const IPoint& n, const IPoint& p) { return n[0] * p[0] + n[1] * p[1] + n[2] * p[2]; }
mpq_class dot(const ExactPoint& u, const ExactPoint& w) { return u[0] * w[0] + u[1] * w[1] + u[2] * w[2]; }

// A vertex of A - B: a[ia] - b[ib].
struct Vertex {
  std::size_t ia, ib;
  ExactPoint w;
};

// The closest point v of a simplex and the vertices (with positive weights) it needs.
struct Closest {
  std::vector<Vertex> kept;
  std::vector<mpq_class> lambda;
  ExactPoint v;
  mpq_class vv;
};

// mu := G^-1 r for an m x m Gram matrix (m <= 3); false where G is singular
// (affinely dependent points).
bool solve(std::array<std::array<mpq_class, 3>, 3>& G, std::array<mpq_class, 3>& r, int m) {
  for (int c = 0; c < m; ++c) {
    int p = c;
    while (p < m && sgn(G[p][c]) == 0) ++p;
    if (p == m) return false;
    std::swap(G[p], G[c]);
    std::swap(r[p], r[c]);
    for (int i = c + 1; i < m; ++i) {
      const mpq_class f = G[i][c] / G[c][c];
      for (int j = c; j < m; ++j) G[i][j] -= f * G[c][j];
      r[i] -= f * r[c];
    }
  }
  for (int c = m - 1; c >= 0; --c) {
    for (int j = c + 1; j < m; ++j) r[c] -= G[c][j] * r[j];
    r[c] /= G[c][c];
  }
  return true;
}

// The closest point of conv(s) to the origin, s's last vertex among those
// kept: over the subsets holding it, the origin projected on their affine
// hull where every weight is positive, the nearest kept (the closest point
// lies inside some affinely independent subset, where it is that projection).
Closest closest(const std::vector<Vertex>& s) {
  const int n = static_cast<int>(s.size());
  std::optional<Closest> best;
  for (unsigned mask = 1u << (n - 1); mask < (1u << n); ++mask) {
    std::vector<int> idx;
    for (int i = 0; i < n; ++i) {
      if (mask >> i & 1) idx.push_back(i);
    }
    const ExactPoint& p0 = s[idx[0]].w;
    const int m = static_cast<int>(idx.size()) - 1;
    std::array<ExactPoint, 3> e;
    for (int i = 0; i < m; ++i) {
      for (int k = 0; k < 3; ++k) e[i][k] = s[idx[i + 1]].w[k] - p0[k];
    }
    std::array<std::array<mpq_class, 3>, 3> G;
    std::array<mpq_class, 3> mu;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) G[i][j] = dot(e[i], e[j]);
      mu[i] = -dot(p0, e[i]);
    }
    if (!solve(G, mu, m)) continue;
    Closest c;
    mpq_class lambda0 = 1;
    for (int i = 0; i < m; ++i) lambda0 -= mu[i];
    bool positive = sgn(lambda0) > 0;
    for (int i = 0; i < m; ++i) positive = positive && sgn(mu[i]) > 0;
    if (!positive) continue;
    c.v = p0;
    for (int i = 0; i < m; ++i) {
      for (int k = 0; k < 3; ++k) c.v[k] += mu[i] * e[i][k];
    }
    c.vv = dot(c.v, c.v);
    if (best && c.vv >= best->vv) continue;
    c.kept.push_back(s[idx[0]]);
    c.lambda.push_back(lambda0);
    for (int i = 0; i < m; ++i) {
      c.kept.push_back(s[idx[i + 1]]);
      c.lambda.push_back(mu[i]);
    }
    best = std::move(c);
  }
  return std::move(*best);  // the newest vertex alone always qualifies
}

// The least positive multiple of the rational vector v in integers (its
// coordinates without a common factor: shorter products in the scans).
IPoint integer_direction(const ExactPoint& v) {
  mpz_class den = 1;
  for (const mpq_class& c : v) mpz_lcm(den.get_mpz_t(), den.get_mpz_t(), c.get_den_mpz_t());
  IPoint n;
  mpz_class g = 0;
  for (int k = 0; k < 3; ++k) {
    n[k] = v[k].get_num() * (den / v[k].get_den());
    mpz_gcd(g.get_mpz_t(), g.get_mpz_t(), n[k].get_mpz_t());
  }
  if (g > 1) {
    for (mpz_class& c : n) mpz_divexact(c.get_mpz_t(), c.get_mpz_t(), g.get_mpz_t());
  }
  return n;
}

class ExactGjk {
 public:
  ExactGjk(std::span<const Vec3> a, std::span<const Vec3> b) {
    check(a);
    check(b);
    e_ = smallest_exponent(b, smallest_exponent(a)).value_or(0);
    a_ = scaled(a, e_);
    b_ = scaled(b, e_);
  }

  /// Runs until the end or, given `limit` (unscaled), until it decides
  /// whether the squared distance is at most limit; returns that decision
  /// (or nullopt when run to the end without a limit).
  std::optional<bool> run(const Vec3& hint, const std::optional<mpq_class>& limit) {
    std::optional<mpq_class> bound;  // limit in the scaled units
    if (limit) bound = times_power_of_two(*limit, -2 * e_);
    const bool hinted = finite(hint) && !is_zero(hint);
    const Vec3 h[1] = {hint};
    std::vector<Vertex> simplex{hinted ? support(scaled(h, *smallest_exponent(h))[0]) : vertex(0, 0)};
    for (;;) {
      c_ = closest(simplex);
      if (sgn(c_.vv) == 0) break;  // the origin is in A - B
      if (bound && c_.vv <= *bound) return true;
      Vertex w = support(integer_direction(c_.v));
      const mpq_class vw = dot(c_.v, w.w);
      if (vw >= c_.vv) break;  // no support point below v's plane: |v| is the distance
      // The plane v.x = v.w bounds A - B: the distance is at least v.w / |v|.
      if (bound && sgn(vw) > 0 && vw * vw > *bound * c_.vv) return false;
      simplex = c_.kept;
      simplex.push_back(std::move(w));
    }
    if (bound) return c_.vv <= *bound;
    return std::nullopt;
  }

  ExactPolytopeDistance answer() const {
    ExactPolytopeDistance out;
    out.squared_distance = times_power_of_two(c_.vv, 2 * e_);
    out.intersecting = sgn(out.squared_distance) == 0;
    out.distance = sqrt_of(out.squared_distance);
    if (out.intersecting) return out;
    for (std::size_t i = 0; i < c_.kept.size(); ++i) {
      for (int k = 0; k < 3; ++k) {
        out.point_a[k] += c_.lambda[i] * mpq_class(a_[c_.kept[i].ia][k]);
        out.point_b[k] += c_.lambda[i] * mpq_class(b_[c_.kept[i].ib][k]);
      }
    }
    for (int k = 0; k < 3; ++k) {
      out.point_a[k] = times_power_of_two(out.point_a[k], e_);
      out.point_b[k] = times_power_of_two(out.point_b[k], e_);
    }
    out.approx_a = {out.point_a[0].get_d(), out.point_a[1].get_d(), out.point_a[2].get_d()};
    out.approx_b = {out.point_b[0].get_d(), out.point_b[1].get_d(), out.point_b[2].get_d()};
    return out;
  }

 private:
  static void check(std::span<const Vec3> points) {
    if (points.empty()) throw std::invalid_argument("exact_gjk: a point set is empty");
    for (const Vec3& p : points) {
      if (!finite(p)) throw std::invalid_argument("exact_gjk: a coordinate is not finite");
    }
  }

  Vertex vertex(std::size_t ia, std::size_t ib) const {
    Vertex w{ia, ib, {}};
    for (int k = 0; k < 3; ++k) w.w[k] = mpq_class(mpz_class(a_[ia][k] - b_[ib][k]));
    return w;
  }

  // The vertex of A - B least along n: a's least, b's greatest (the first of equals).
  Vertex support(const IPoint& n) const {
    const auto extreme = [&](const std::vector<IPoint>& points, int sign) {
      std::size_t best = 0;
      mpz_class best_dot = sign * dot(n, points[0]);
      for (std::size_t i = 1; i < points.size(); ++i) {
        mpz_class d = sign * dot(n, points[i]);
        if (d < best_dot) best = i, best_dot = std::move(d);
      }
      return best;
    };
    return vertex(extreme(a_, 1), extreme(b_, -1));
  }

  long e_ = 0;  // every point is its integer times 2^e_
  std::vector<IPoint> a_, b_;
  Closest c_;
};

}  // namespace

ExactPolytopeDistance exact_gjk_distance(std::span<const Vec3> a, std::span<const Vec3> b, const Vec3& hint) {
  ExactGjk g(a, b);
  g.run(hint, std::nullopt);
  return g.answer();
}

bool exact_gjk_within(std::span<const Vec3> a, std::span<const Vec3> b, double limit, const Vec3& hint) {
  if (!std::isfinite(limit)) throw std::invalid_argument("exact_gjk_within: the limit is not finite");
  ExactGjk g(a, b);
  return *g.run(hint, mpq_class(limit));
}

}  // namespace simdccd::convex
