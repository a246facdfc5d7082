// Linear-CCD queries biased to the hard classes, and the promises of each mode
// checked against the exact oracle: shared by the fuzz targets (fuzz/, which
// decode the choices from the fuzzer's bytes) and the seeded test
// (tests/test_linear_fuzz_classes.cpp, which draws them from a seed). The same
// constructions run either way; only the source of the choices differs.
//
// Every construction is exact: small integer configurations in rationals
// (contacts placed with small barycentric weights, tangential contacts solved
// for exactly), scaled by their common denominator to integers, moved by an
// integer linear map, translated by integers (powers of two times small ones)
// and scaled per axis by powers of two. A linear map keeps coplanarity, closed
// inclusion and segment intersection, so a contact built in the small
// configuration is still a contact in the doubles, provided no coordinate was
// rounded (`HardQuery::exact`). Coordinates stay within the documented input
// domain (finite, |x| <= 2^60) except in the classes `out_of_domain` and
// `raw_bits`, which must come back `invalid_input` wherever they leave it.
#pragma once

#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "simdccd/exact_oracle.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/options.hpp"
#include "simdccd/query.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"

namespace simdccd::test {

// ------------------------------------------------------------------ classes

enum class HardClass : std::uint8_t {
  uniform,          ///< the random workload: 24 uniform doubles in [0,1)
  random_exponent,  ///< random signs, mantissas and exponents (spread or alike) within the domain
  grid,             ///< small integer grids, sometimes flat (z = 0 at both times)
  coplanar_t0,      ///< the four points coplanar at t=0 (and sometimes at t=1)
  coplanar_always,  ///< all motion within one plane (drifting along its normal at most): cubic == 0
  parallel,         ///< parallel edges, motion parallel to the face, pure translation
  collinear,        ///< collinear points at t=0, at both times, or always; degenerate primitives
  repeated_points,  ///< points copied onto others (shared vertices, zero-length edges, no motion)
  touch_t0,         ///< contact constructed exactly at t=0 (inside, on an edge, at a vertex) or just not
  touch_t1,         ///< the same at t=1
  touch_mid,        ///< the same at a rational time p/q, 2^-30 and 1 - 2^-30 included
  double_root,      ///< tangential contact: a double (sometimes triple) root of the cubic at the contact
  near_contact,     ///< any constructed contact or degeneracy, then a few coordinates nudged by ulps
  tiny,             ///< constructed classes scaled down to 2^-1074..2^-100
  large,            ///< constructed classes scaled up to 2^60, large translations of small features
  out_of_domain,    ///< NaN, infinities, |x| > 2^60 next to the valid extremes (2^60, subnormals, -0)
  raw_bits,         ///< 24 arbitrary bit patterns
};
inline constexpr int kHardClassCount = 17;

inline constexpr std::array<std::string_view, kHardClassCount> kHardClassNames = {
    "uniform",  "random_exponent", "grid",      "coplanar_t0", "coplanar_always", "parallel",
    "collinear", "repeated_points", "touch_t0", "touch_t1",    "touch_mid",       "double_root",
    "near_contact", "tiny",        "large",     "out_of_domain", "raw_bits"};

inline std::string_view to_string(HardClass c) { return kHardClassNames[static_cast<int>(c)]; }

struct HardQuery {
  Query query;
  HardClass cls = HardClass::uniform;
  /// No coordinate was rounded: the construction holds exactly in the doubles.
  bool exact = false;
  /// When known: a time (rounded up to a double) by which the query certainly
  /// has a contact, so every correct answer is a hit with toi <= it.
  std::optional<double> contact_by;
};

/// The documented input domain of the kernels: finite, |x| <= 2^60.
inline bool in_domain(const Query& q) {
  for (const Vec3& p : q.points) {
    for (const double x : {p.x, p.y, p.z}) {
      if (!(std::fabs(x) <= 0x1p60)) return false;  // false for NaN too
    }
  }
  return true;
}

// ------------------------------------------------------------------ entropy

/// The source of every choice: the fuzzer's bytes (zeros once they run out,
/// with `exhausted()` set) or a seeded mt19937_64.
class Entropy {
 public:
  Entropy(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  explicit Entropy(std::uint64_t seed) : seeded_(true), rng_(seed) {}

  std::uint8_t byte() {
    if (seeded_) return static_cast<std::uint8_t>(rng_() >> 56);
    if (pos_ < size_) return data_[pos_++];
    exhausted_ = true;
    return 0;
  }
  /// n (1..64) random bits.
  std::uint64_t bits(int n) {
    std::uint64_t v = 0;
    if (seeded_) {
      v = rng_();
    } else {
      for (int i = 0; i < (n + 7) / 8; ++i) v = v << 8 | byte();
    }
    return n >= 64 ? v : v & ((std::uint64_t{1} << n) - 1);
  }
  /// An integer in [lo, hi].
  int range(int lo, int hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - lo) + 1;
    const int n = span <= 256 ? 8 : span <= 65536 ? 16 : 32;
    return static_cast<int>(lo + static_cast<std::int64_t>(bits(n) % span));
  }
  /// True with probability num/den.
  bool chance(int num, int den) { return range(0, den - 1) < num; }
  bool exhausted() const { return exhausted_; }
  std::size_t consumed() const { return pos_; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0, pos_ = 0;
  bool exhausted_ = false;
  bool seeded_ = false;
  std::mt19937_64 rng_;
};

// ------------------------------------------------------------ constructions

namespace hard_detail {

using Q = mpq_class;

struct V3 {
  Q c[3];
  Q& operator[](int a) { return c[a]; }
  const Q& operator[](int a) const { return c[a]; }
};
inline V3 operator+(const V3& a, const V3& b) { return {{a[0] + b[0], a[1] + b[1], a[2] + b[2]}}; }
inline V3 operator-(const V3& a, const V3& b) { return {{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }
inline V3 operator*(const Q& s, const V3& a) { return {{s * a[0], s * a[1], s * a[2]}}; }
inline Q dot(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline V3 cross(const V3& a, const V3& b) {
  return {{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}
inline Q det(const V3& a, const V3& b, const V3& c) { return dot(a, cross(b, c)); }
/// n/d in canonical form (mpq_class(n, d) is not canonicalized).
inline Q frac(long n, long d) {
  Q q(n, d < 0 ? -d : d);
  if (d < 0) q = -q;
  q.canonicalize();
  return q;
}

/// Four points at time t0 and their velocities: x(t) = at + (t - t0) vel.
struct Motion {
  std::array<V3, 4> at, vel;
  Q t0 = 0;
  RationalQuery query() const {
    RationalQuery q;
    for (int i = 0; i < 4; ++i) {
      const V3 p0 = at[i] - t0 * vel[i], p1 = at[i] + (Q(1) - t0) * vel[i];
      q.points[i] = {p0[0], p0[1], p0[2]};
      q.points[i + 4] = {p1[0], p1[1], p1[2]};
    }
    return q;
  }
};

/// A construction before the exact map to doubles.
struct Built {
  RationalQuery q;
  std::optional<Q> contact;  ///< a time of certain contact
  bool allow_time_reversal = true;
};

/// The coefficients, in tau = t - t0, of a cubic with the roots of the
/// coplanarity cubic: det of rows u_i + tau w_i (VF: f1-f0, f2-f0, v-f0 with
/// the face f0..f2 = points 1..3; EE: a1-a0, b1-b0, b0-a0).
inline std::array<Q, 4> cubic_around(const Motion& m, bool vf) {
  std::array<V3, 3> u, w;
  if (vf) {
    u = {m.at[2] - m.at[1], m.at[3] - m.at[1], m.at[0] - m.at[1]};
    w = {m.vel[2] - m.vel[1], m.vel[3] - m.vel[1], m.vel[0] - m.vel[1]};
  } else {
    u = {m.at[1] - m.at[0], m.at[3] - m.at[2], m.at[2] - m.at[0]};
    w = {m.vel[1] - m.vel[0], m.vel[3] - m.vel[2], m.vel[2] - m.vel[0]};
  }
  std::array<Q, 4> c = {0, 0, 0, 0};
  for (int mask = 0; mask < 8; ++mask) {  // trilinear: the rows taken from w
    const V3& r0 = mask & 1 ? w[0] : u[0];
    const V3& r1 = mask & 2 ? w[1] : u[1];
    const V3& r2 = mask & 4 ? w[2] : u[2];
    c[__builtin_popcount(static_cast<unsigned>(mask))] += det(r0, r1, r2);
  }
  return c;
}

/// The velocity change that the tangency solve may make: VF the vertex's, EE
/// that of both ends of edge b (so b1-b0 keeps its motion).
inline void nudge(Motion& m, bool vf, const V3& d) {
  if (vf) {
    m.vel[0] = m.vel[0] + d;
  } else {
    m.vel[2] = m.vel[2] + d;
    m.vel[3] = m.vel[3] + d;
  }
}

inline mpz_class lcm_all(const RationalQuery& q) {
  mpz_class l = 1;
  for (const RationalVec3& p : q.points) {
    for (const Q* c : {&p.x, &p.y, &p.z}) mpz_lcm(l.get_mpz_t(), l.get_mpz_t(), c->get_den_mpz_t());
  }
  return l;
}

inline double round_up_to_double(const Q& t) {
  double d = t.get_d();
  while (Q(d) < t) d = std::nextafter(d, 2.0);
  return d;
}

/// Bit-exact copies of special values.
inline double from_bits(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

}  // namespace hard_detail

/// Builds queries of one class from an Entropy; see the file comment.
class HardQueryMaker {
 public:
  HardQueryMaker(Entropy& e, QueryType type) : e_(e), vf_(type == QueryType::vertex_face) {}

  HardQuery make(HardClass c) {
    using enum HardClass;
    HardQuery h;
    switch (c) {
      case uniform: h = from_doubles(uniform_query()); break;
      case random_exponent: h = from_doubles(random_exponent_query()); break;
      case grid: h = finish(grid_query(), Scale::normal); break;
      case coplanar_t0: h = finish(coplanar_t0_query(), Scale::normal); break;
      case coplanar_always: h = finish(coplanar_always_query(), Scale::normal); break;
      case parallel: h = finish(parallel_query(), Scale::normal); break;
      case collinear: h = finish(collinear_query(), Scale::normal); break;
      case repeated_points: h = repeated_points_query(); break;
      case touch_t0: h = finish(contact_query(0, false, false), Scale::normal); break;
      case touch_t1: h = finish(contact_query(1, false, false), Scale::normal); break;
      case touch_mid: h = finish(contact_query(mid_time(), e_.chance(1, 8), false), Scale::normal); break;
      case double_root: h = finish(contact_query(any_time(), false, true), Scale::normal); break;
      case near_contact: h = near_contact_query(); break;
      case tiny: h = finish(constructed(), Scale::tiny); break;
      case large: h = finish(constructed(), Scale::large); break;
      case out_of_domain: h = out_of_domain_query(); break;
      case raw_bits: h = raw_bits_query(); break;
    }
    h.cls = c;
    return h;
  }

 private:
  using Q = hard_detail::Q;
  using V3 = hard_detail::V3;
  using Motion = hard_detail::Motion;
  using Built = hard_detail::Built;
  enum class Scale { normal, tiny, large };

  // -------------------------------------------------------------- pieces

  V3 ivec(int r, bool planar = false) {
    V3 v;
    v[0] = e_.range(-r, r), v[1] = e_.range(-r, r), v[2] = planar ? 0 : e_.range(-r, r);
    return v;
  }
  int radius() {
    static constexpr int kRadii[8] = {1, 2, 3, 4, 8, 16, 100, 1000};
    return kRadii[e_.range(0, 7)];
  }
  /// n/d with n in [lo, hi] and d in [dlo, dhi], drawn in that order.
  Q draw_frac(int lo, int hi, int dlo, int dhi) {
    const int n = e_.range(lo, hi);
    const int d = e_.range(dlo, dhi);
    return hard_detail::frac(n, d);
  }
  /// A fraction in [0,1] with small denominator, the ends included.
  Q unit_fraction() {
    const int d = e_.range(1, 8);
    return hard_detail::frac(e_.range(0, d), d);
  }
  Q mid_time() {
    switch (e_.range(0, 5)) {
      case 0: return hard_detail::frac(1, 2);
      case 1: return Q(mpz_class(1), mpz_class(1) << 30);
      case 2: return Q(1) - Q(mpz_class(1), mpz_class(1) << 30);
      case 3: return hard_detail::frac(e_.range(1, 2), 3);
      default: {
        const int d = e_.range(2, 16);
        return hard_detail::frac(e_.range(1, d - 1), d);
      }
    }
  }
  Q any_time() {
    switch (e_.range(0, 3)) {
      case 0: return 0;
      case 1: return 1;
      default: return mid_time();
    }
  }

  // A VF configuration at m.t0 (vertex = point 0, face = points 1..3): the
  // vertex at small barycentric weights of the face, inside, on an edge, at a
  // vertex, or outside. True when the closed triangle holds the vertex.
  bool vf_config(Motion& m, int r, bool planar) {
    V3 f[3] = {ivec(r, planar), ivec(r, planar), ivec(r, planar)};
    if (e_.chance(1, 8)) f[2] = f[0] + draw_frac(-2, 4, 2, 2) * (f[1] - f[0]);  // degenerate face
    int n[3];
    const int kind = e_.range(0, 3);
    for (int& w : n) w = e_.range(1, 4);
    if (kind == 1) n[e_.range(0, 2)] = 0;                           // on an edge
    if (kind == 2) n[0] = n[1] = n[2] = 0, n[e_.range(0, 2)] = 1;  // at a vertex
    if (kind == 3) {  // outside (the others at least 2, so the weights sum to 2 or more)
      for (int& w : n) w = std::max(w, 2);
      const int which = e_.range(0, 2);
      n[which] = -e_.range(1, 2);
    }
    const int d = n[0] + n[1] + n[2];
    const V3 c = hard_detail::frac(1, d) * (Q(n[0]) * f[0] + Q(n[1]) * f[1] + Q(n[2]) * f[2]);
    m.at = {c, f[0], f[1], f[2]};
    return kind != 3;
  }

  // An EE configuration at m.t0: a point c on the line of a (inside the
  // segment, at an end, or beyond), edge b through c in a random or
  // a-parallel direction, c inside b or beyond. True when the segments meet.
  bool ee_config(Motion& m, int r, bool planar) {
    const V3 a0 = ivec(r, planar);
    const V3 a1 = e_.chance(1, 8) ? a0 : ivec(r, planar);
    const auto parameter = [&](bool& inside) {
      switch (e_.range(0, 3)) {
        case 0: inside = true; return Q(e_.range(0, 1));
        case 1: { inside = false; const int d = e_.range(1, 4); const bool before = e_.chance(1, 2); const Q x = draw_frac(1, 3, d, d); return before ? Q(-x) : Q(Q(1) + x); }
        default: inside = true; return unit_fraction();
      }
    };
    bool in_a = true, in_b = true;
    const Q s = parameter(in_a);
    const V3 c = a0 + s * (a1 - a0);
    V3 dir = ivec(r, planar);
    if (e_.chance(1, 6)) dir = draw_frac(-2, 2, 1, 2) * (a1 - a0);  // collinear edges
    const Q u = parameter(in_b);
    m.at = {a0, a1, c - u * dir, c + (Q(1) - u) * dir};
    return in_a && in_b;
  }

  void velocities(Motion& m, bool planar) {
    const int r = e_.chance(1, 4) ? radius() : e_.range(1, 4);
    for (V3& v : m.vel) v = ivec(r, planar);
    switch (e_.range(0, 5)) {
      case 0: m.vel[e_.range(0, 3)] = V3{};  break;  // one point at rest
      case 1: for (V3& v : m.vel) v = m.vel[0]; break;  // a pure translation: contact lasts
      case 2: m.vel[2] = m.vel[1], m.vel[3] = m.vel[1]; break;  // face or edge b rigid in translation
      case 3: { const V3 w = ivec(r, planar); for (int i = 0; i < 4; ++i) if (e_.chance(1, 2)) m.vel[i] = w; } break;
      default: break;
    }
  }

  /// Makes the cubic's root at t0 double (and triple when asked): the cubic
  /// is affine in the nudge, so its coefficients of tau^1 (and tau^2) are
  /// solved to zero over one or two axes.
  void make_tangent(Motion& m, bool triple) {
    using hard_detail::cubic_around;
    using hard_detail::nudge;
    const std::array<Q, 4> c0 = cubic_around(m, vf_);
    Q l[2][3];  // d coefficient / d nudge axis
    for (int a = 0; a < 3; ++a) {
      Motion t = m;
      V3 unit;
      unit[a] = 1;
      nudge(t, vf_, unit);
      const std::array<Q, 4> c = cubic_around(t, vf_);
      l[0][a] = c[1] - c0[1];
      l[1][a] = c[2] - c0[2];
    }
    if (triple) {
      const int first = e_.range(0, 2);
      for (int k = 0; k < 3; ++k) {
        const int a = (first + k) % 3, b = (first + k + 1) % 3;
        const Q det = l[0][a] * l[1][b] - l[0][b] * l[1][a];
        if (det == 0) continue;
        // l0a x + l0b y = -c0[1], l1a x + l1b y = -c0[2]
        V3 d;
        d[a] = (-c0[1] * l[1][b] + c0[2] * l[0][b]) / det;
        d[b] = (-l[0][a] * c0[2] + l[1][a] * c0[1]) / det;
        nudge(m, vf_, d);
        return;
      }
    }
    const int first = e_.range(0, 2);
    for (int k = 0; k < 3; ++k) {
      const int a = (first + k) % 3;
      if (l[0][a] == 0) continue;
      V3 d;
      d[a] = -c0[1] / l[0][a];
      nudge(m, vf_, d);
      return;
    }
  }

  /// A contact (or a near one: just outside) at time t0, built at t0 and moved
  /// by integer velocities; `planar`: all of it in the plane z = 0 (the cubic
  /// is then identically zero), sometimes drifting along z as a whole.
  Built contact_query(const Q& t0, bool planar, bool tangent) {
    Motion m;
    m.t0 = t0;
    const int r = radius();
    const bool touching = vf_ ? vf_config(m, r, planar) : ee_config(m, r, planar);
    velocities(m, planar);
    if (tangent) make_tangent(m, e_.chance(1, 4));
    if (planar && e_.chance(1, 2)) {
      const V3 drift = ivec(e_.range(1, 8));
      for (V3& v : m.vel) v = v + drift;
    }
    Built b;
    b.q = m.query();
    if (touching) b.contact = t0;
    b.allow_time_reversal = t0 != 0 && t0 != 1;
    return b;
  }

  Built grid_query() {
    const int r = e_.range(1, 3);
    const bool flat = e_.chance(1, 4);
    Built b;
    for (RationalVec3& p : b.q.points) {
      const V3 v = ivec(r, flat);
      p = {v[0], v[1], v[2]};
    }
    return b;
  }

  /// Points at t=0 on a plane O + a U + b V; at t=1 random, on another plane,
  /// or on the same plane drifted (then coplanar always).
  Built coplanar_t0_query() {
    const int r = radius();
    const auto plane_points = [&](RationalVec3* out) {
      const V3 o = ivec(r), u = ivec(e_.range(1, 4)), v = ivec(e_.range(1, 4));
      for (int i = 0; i < 4; ++i) {
        const Q a = draw_frac(-4, 4, 1, 2);
        const Q b = draw_frac(-4, 4, 1, 2);
        const V3 p = o + a * u + b * v;
        out[i] = {p[0], p[1], p[2]};
      }
    };
    Built b;
    plane_points(&b.q.points[0]);
    switch (e_.range(0, 2)) {
      case 0:
        for (int i = 4; i < 8; ++i) {
          const V3 p = ivec(r);
          b.q.points[i] = {p[0], p[1], p[2]};
        }
        break;
      case 1: plane_points(&b.q.points[4]); break;  // coplanar at both ends only
      default: {
        const V3 drift = ivec(e_.range(0, 8));
        for (int i = 4; i < 8; ++i) {
          const RationalVec3& p = b.q.points[i - 4];
          b.q.points[i] = {p.x + drift[0], p.y + drift[1], p.z + drift[2]};
        }
      }
    }
    return b;
  }

  Built coplanar_always_query() {
    if (e_.chance(1, 4)) {  // a flat grid, drifted along z as a whole
      Built b = grid_query();
      const int drift = e_.range(-4, 4);
      for (int i = 0; i < 8; ++i) {
        b.q.points[i].z = 0;
        if (i >= 4) b.q.points[i].z = drift;
      }
      return b;
    }
    return contact_query(any_time(), true, false);
  }

  /// EE: parallel edges at both ends (with the same ratio: cubic == 0), at
  /// one end only, or collinear; VF: the vertex moving parallel to a face in
  /// translation, or along an edge's direction; both: pure translation.
  Built parallel_query() {
    const int r = radius();
    Motion m;
    m.t0 = 0;
    if (e_.chance(1, 5)) {  // pure translation: the cubic is a constant
      for (V3& p : m.at) p = ivec(r);
      const V3 w = ivec(radius());
      for (V3& v : m.vel) v = w;
      Built b;
      b.q = m.query();
      return b;
    }
    Built b;
    if (!vf_) {
      const auto edges = [&](RationalVec3* out, const Q& ratio, bool on_line) {
        const V3 a0 = ivec(r), a1 = ivec(r);
        const V3 b0 = on_line ? a0 + hard_detail::frac(e_.range(-4, 4), 2) * (a1 - a0) : ivec(r);
        const V3 b1 = b0 + ratio * (a1 - a0);
        const V3 p[4] = {a0, a1, b0, b1};
        for (int i = 0; i < 4; ++i) out[i] = {p[i][0], p[i][1], p[i][2]};
      };
      static constexpr int kRatios[6][2] = {{1, 1}, {-1, 1}, {2, 1}, {-2, 1}, {1, 2}, {-1, 3}};
      const auto* r0 = kRatios[e_.range(0, 5)];
      const Q ratio0 = hard_detail::frac(r0[0], r0[1]);
      const int same = e_.range(0, 2);
      const auto* r1 = kRatios[e_.range(0, 5)];
      const Q ratio1 = same ? ratio0 : hard_detail::frac(r1[0], r1[1]);
      const bool on_line = e_.chance(1, 4);
      edges(&b.q.points[0], ratio0, on_line);
      if (e_.chance(1, 4)) {  // parallel at t=0 only
        for (int i = 4; i < 8; ++i) {
          const V3 p = ivec(r);
          b.q.points[i] = {p[0], p[1], p[2]};
        }
      } else if (same == 2) {  // parallel always and translated: the same ratio at t=1
        const V3 w = ivec(e_.range(1, 8));
        for (int i = 4; i < 8; ++i) {
          const RationalVec3& p = b.q.points[i - 4];
          b.q.points[i] = {p.x + w[0], p.y + w[1], p.z + w[2]};
        }
      } else {
        edges(&b.q.points[4], ratio1, on_line);
      }
      return b;
    }
    // VF: the face in translation w, the vertex with w plus a velocity in the face's plane or along an edge.
    for (V3& p : m.at) p = ivec(r);
    if (e_.chance(1, 4)) {  // the vertex in the face's plane
      const Q a = draw_frac(-2, 4, 2, 2);
      const Q b = draw_frac(-2, 4, 2, 2);
      m.at[0] = m.at[1] + a * (m.at[2] - m.at[1]) + b * (m.at[3] - m.at[1]);
    }
    const V3 w = ivec(e_.range(0, 8));
    for (V3& v : m.vel) v = w;
    const V3 e1 = m.at[2] - m.at[1], e2 = m.at[3] - m.at[1];
    const int along1 = e_.range(-4, 4);
    const int along2 = e_.chance(1, 3) ? 0 : e_.range(-4, 4);  // 0: along an edge
    m.vel[0] = w + Q(along1) * e1 + Q(along2) * e2;
    b.q = m.query();
    return b;
  }

  /// Points on a line at t=0, at both ends (another line), or always (one
  /// line, moving along it); or a degenerate primitive at all times (VF: the
  /// face collinear with one ratio; EE: a zero-length edge).
  Built collinear_query() {
    const int r = radius();
    const auto line_points = [&](RationalVec3* out) {
      const V3 o = ivec(r), d = ivec(e_.range(1, 4));
      for (int i = 0; i < 4; ++i) {
        const V3 p = o + draw_frac(-6, 6, 1, 2) * d;
        out[i] = {p[0], p[1], p[2]};
      }
      return std::pair(o, d);
    };
    Built b;
    const int kind = e_.range(0, 3);
    if (kind == 3) {  // a degenerate primitive at all times
      for (int i = 0; i < 8; ++i) {
        const V3 p = ivec(r);
        b.q.points[i] = {p[0], p[1], p[2]};
      }
      const Q ratio = draw_frac(-2, 4, 2, 2);
      for (int t = 0; t < 8; t += 4) {
        RationalVec3* p = &b.q.points[t];
        if (vf_) {
          p[3] = {p[1].x + ratio * (p[2].x - p[1].x), p[1].y + ratio * (p[2].y - p[1].y),
                  p[1].z + ratio * (p[2].z - p[1].z)};
        } else {
          const int e = 2 * e_.range(0, 1);
          p[e + 1] = p[e];
        }
      }
      return b;
    }
    const auto [o, d] = line_points(&b.q.points[0]);
    if (kind == 0) {
      for (int i = 4; i < 8; ++i) {
        const V3 p = ivec(r);
        b.q.points[i] = {p[0], p[1], p[2]};
      }
    } else if (kind == 1) {
      line_points(&b.q.points[4]);
    } else {  // the same line: points slide along it, the line drifts
      const V3 drift = e_.chance(1, 2) ? V3{} : ivec(e_.range(1, 4));
      for (int i = 4; i < 8; ++i) {
        const RationalVec3& p = b.q.points[i - 4];
        const V3 move = draw_frac(-6, 6, 1, 2) * d + drift;
        b.q.points[i] = {p.x + move[0], p.y + move[1], p.z + move[2]};
      }
    }
    return b;
  }

  /// One of the constructed classes, for scaling and nudging.
  Built constructed() {
    switch (e_.range(0, 8)) {
      case 0: return grid_query();
      case 1: return coplanar_t0_query();
      case 2: return coplanar_always_query();
      case 3: return parallel_query();
      case 4: return collinear_query();
      case 5: return contact_query(0, false, false);
      case 6: return contact_query(1, false, false);
      case 7: return contact_query(mid_time(), false, false);
      default: return contact_query(any_time(), false, true);
    }
  }

  // ------------------------------------------------------ exact to doubles

  /// The construction, exactly: reversed in time and reordered (sometimes),
  /// scaled to integers, mapped by a small integer matrix, translated by an
  /// integer, scaled per axis by a power of two, and converted to doubles
  /// (rounded only when an integer reaches 2^53).
  HardQuery finish(Built b, Scale scale) {
    using hard_detail::Q;
    RationalQuery q = b.q;
    std::optional<Q> contact = b.contact;
    if (b.allow_time_reversal && e_.chance(1, 4)) {
      for (int i = 0; i < 4; ++i) std::swap(q.points[i], q.points[i + 4]);
      if (contact) contact = Q(1) - *contact;
    }
    if (e_.chance(1, 2)) {  // the same primitives, listed in another order
      int order[4] = {0, 1, 2, 3};
      if (vf_) {
        for (int k = 0; k < 2; ++k) {
          const int i = e_.range(1, 3);
          const int j = e_.range(1, 3);
          std::swap(order[i], order[j]);
        }
      } else {
        if (e_.chance(1, 2)) std::swap(order[0], order[1]);
        if (e_.chance(1, 2)) std::swap(order[2], order[3]);
        if (e_.chance(1, 2)) std::swap(order[0], order[2]), std::swap(order[1], order[3]);
      }
      const RationalQuery copy = q;
      for (int i = 0; i < 4; ++i) q.points[i] = copy.points[order[i]], q.points[i + 4] = copy.points[order[i] + 4];
    }
    // Integers: times the common denominator, over the common divisor.
    const mpz_class l = hard_detail::lcm_all(q);
    std::array<std::array<mpz_class, 3>, 8> n;
    mpz_class g = 0;
    for (int i = 0; i < 8; ++i) {
      const RationalVec3& p = q.points[i];
      const Q* c[3] = {&p.x, &p.y, &p.z};
      for (int a = 0; a < 3; ++a) {
        n[i][a] = c[a]->get_num() * (l / c[a]->get_den());
        mpz_gcd(g.get_mpz_t(), g.get_mpz_t(), n[i][a].get_mpz_t());
      }
    }
    if (g > 1) {
      for (auto& p : n) for (mpz_class& x : p) x /= g;
    }
    // A small integer matrix: identity, signed permutation, shear-like, or singular (flattening).
    int mat[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const int kind = e_.range(0, 15);
    if (kind >= 8 && kind < 12) {
      int perm[3] = {0, 1, 2};
      for (int k = 0; k < 2; ++k) {
        const int i = e_.range(0, 2);
        const int j = e_.range(0, 2);
        std::swap(perm[i], perm[j]);
      }
      for (int a = 0; a < 3; ++a) {
        for (int b2 = 0; b2 < 3; ++b2) mat[a][b2] = 0;
        mat[a][perm[a]] = e_.chance(1, 2) ? 1 : -1;
      }
    } else if (kind >= 12 && kind < 15) {
      for (auto& row : mat) for (int& x : row) x = e_.range(-2, 2);
    } else if (kind == 15) {
      for (int a = 0; a < 2; ++a) for (int& x : mat[a]) x = e_.range(-2, 2);
      const int c0 = e_.range(-1, 1);
      const int c1 = e_.range(-1, 1);
      for (int b2 = 0; b2 < 3; ++b2) mat[2][b2] = mat[0][b2] * c0 + mat[1][b2] * c1;  // rank <= 2
    }
    for (auto& p : n) {
      const std::array<mpz_class, 3> x = p;
      for (int a = 0; a < 3; ++a) p[a] = mat[a][0] * x[0] + mat[a][1] * x[1] + mat[a][2] * x[2];
    }
    // Translation, in the integer units.
    const int tkind = scale == Scale::tiny ? e_.range(0, 2) : e_.range(0, 3);
    for (int a = 0; a < 3; ++a) {
      mpz_class t = 0;
      if (tkind == 1 || tkind == 2) t = e_.range(-8, 8);
      if (tkind == 3) {
        const int m = e_.range(-7, 7);
        t = mpz_class(m) << e_.range(0, scale == Scale::large ? 56 : 46);
      }
      for (auto& p : n) p[a] += t;
    }
    // Powers of two per axis, within [2^-1074, 2^60] for the result.
    int bits[3] = {0, 0, 0};
    bool exact = true;
    for (auto& p : n) {
      for (int a = 0; a < 3; ++a) {
        const int len = static_cast<int>(mpz_sizeinbase(p[a].get_mpz_t(), 2));
        if (p[a] != 0) bits[a] = std::max(bits[a], len);
        if (p[a] != 0 && len > 53) exact = false;
      }
    }
    int k[3];
    const bool per_axis = e_.chance(1, 4);
    const int maxbits = std::max({bits[0], bits[1], bits[2]});
    int common = 0;
    switch (scale) {
      case Scale::normal: common = e_.range(-8, 8); break;
      case Scale::tiny: {
        const int band = e_.range(0, 3);
        common = band == 0 ? e_.range(-1074, -1000) : band == 1 ? e_.range(-700, -400)
               : band == 2 ? e_.range(-400, -150) : e_.range(-150, -60);
        break;
      }
      case Scale::large: common = 60 - maxbits - e_.range(0, 2); break;
    }
    for (int a = 0; a < 3; ++a) {
      k[a] = common;
      if (per_axis) {
        k[a] = scale == Scale::large ? 60 - bits[a] - e_.range(0, 3) : common + e_.range(-20, 20);
      }
      k[a] = std::clamp(k[a], -1074, 60 - bits[a]);
    }
    RationalQuery scaled;
    for (int i = 0; i < 8; ++i) {
      Q c[3];
      for (int a = 0; a < 3; ++a) {
        c[a] = n[i][a];
        if (k[a] >= 0) c[a] *= Q(mpz_class(1) << k[a]);
        else c[a] /= Q(mpz_class(1) << -k[a]);
      }
      scaled.points[i] = {c[0], c[1], c[2]};
    }
    HardQuery h;
    h.query = to_double(scaled);
    h.exact = exact;
    if (exact && contact) h.contact_by = hard_detail::round_up_to_double(*contact);
    return h;
  }

  HardQuery from_doubles(const Query& q) {
    HardQuery h;
    h.query = q;
    h.exact = true;
    return h;
  }

  // ------------------------------------------------------ double classes

  Query uniform_query() {
    Query q;
    for (Vec3& p : q.points) {
      for (double* c : {&p.x, &p.y, &p.z}) *c = static_cast<double>(e_.bits(53)) * 0x1p-53;
    }
    return q;
  }

  double random_double(int exponent) {
    const double mantissa = 1 + static_cast<double>(e_.bits(52)) * 0x1p-52;
    const double x = std::ldexp(mantissa, std::min(exponent, 59));
    return e_.chance(1, 2) ? -x : x;
  }

  Query random_exponent_query() {
    static constexpr int kSpreads[5] = {0, 4, 30, 200, 1200};
    const int spread = kSpreads[e_.range(0, 4)];
    const int base = e_.chance(1, 2) ? e_.range(-60, 59) : e_.range(-1074, 59);
    Query q;
    for (Vec3& p : q.points) {
      for (double* c : {&p.x, &p.y, &p.z}) {
        *c = random_double(std::max(-1074, base - e_.range(0, spread)));
        if (e_.chance(1, 16)) *c = 0;
      }
    }
    if (e_.chance(1, 8)) {  // the extreme valid value
      const int which = e_.range(0, 7);
      q.points[which].x = e_.chance(1, 2) ? 0x1p60 : -0x1p60;
    }
    return q;
  }

  HardQuery repeated_points_query() {
    HardQuery h;
    switch (e_.range(0, 3)) {
      case 0: h = from_doubles(uniform_query()); break;
      case 1: h = finish(grid_query(), Scale::normal); break;
      case 2: h = from_doubles(random_exponent_query()); break;
      default: h = finish(constructed(), Scale::normal); break;
    }
    const int copies = e_.range(1, 3);
    for (int c = 0; c < copies; ++c) {
      const int to = e_.range(0, 7);
      int from = e_.range(0, 7);
      switch (e_.range(0, 3)) {  // the useful copies, more often
        case 0: from = (to + 4) % 8; break;                  // a point at rest
        case 1: from = (to & 4) | ((to + 1) & 3); break;     // a neighbour at the same time
        default: break;
      }
      h.query.points[to] = h.query.points[from];
    }
    h.contact_by.reset();  // the copies may break the construction
    return h;
  }

  /// A constructed query, then 1..3 coordinates nudged by a few ulps or by a
  /// relative power of two (2^-52..2^-1 of the largest coordinate).
  HardQuery near_contact_query() {
    Built b;
    switch (e_.range(0, 5)) {
      case 0: b = contact_query(any_time(), false, false); break;
      case 1: b = contact_query(any_time(), false, true); break;
      case 2: b = coplanar_t0_query(); break;
      case 3: b = coplanar_always_query(); break;
      case 4: b = parallel_query(); break;
      default: b = collinear_query(); break;
    }
    HardQuery h = finish(b, e_.chance(1, 8) ? Scale::large : Scale::normal);
    const int nudges = e_.range(1, 3);
    for (int i = 0; i < nudges; ++i) {
      Vec3& p = h.query.points[e_.range(0, 7)];
      double& x = e_.range(0, 2) == 0 ? p.x : e_.chance(1, 2) ? p.y : p.z;
      const int how = e_.range(0, 2);
      if (how == 0) {
        const int ulps = e_.range(1, 4);
        const double toward = e_.chance(1, 2) ? 0x1p61 : -0x1p61;
        for (int u = 0; u < ulps; ++u) x = std::nextafter(x, toward);
      } else {
        double magnitude = 0;
        for (const Vec3& v : h.query.points) magnitude = std::max({magnitude, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
        const int shift = how == 1 ? e_.range(20, 52) : e_.range(1, 20);  // tiny or moderate
        const double step = std::ldexp(magnitude == 0 ? 1 : magnitude, -shift);
        x += e_.chance(1, 2) ? step : -step;
      }
      x = std::clamp(x, -0x1p60, 0x1p60);
    }
    h.contact_by.reset();
    h.exact = false;
    return h;
  }

  HardQuery out_of_domain_query() {
    using hard_detail::from_bits;
    HardQuery h = e_.chance(1, 2) ? finish(grid_query(), Scale::normal) : from_doubles(uniform_query());
    const double kSpecial[16] = {
        std::numeric_limits<double>::quiet_NaN(),
        -std::numeric_limits<double>::quiet_NaN(),
        from_bits(0x7ff0000000000001ull),  // a signalling NaN
        std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(),
        std::nextafter(0x1p60, 0x1p61),
        -std::nextafter(0x1p60, 0x1p61),
        0x1p61,
        -0x1p100,
        std::numeric_limits<double>::max(),
        0x1p60,   // valid from here on
        -0x1p60,
        -0.0,
        std::numeric_limits<double>::denorm_min(),
        -std::numeric_limits<double>::min(),
        std::nextafter(0x1p60, 0.0),
    };
    const int count = e_.range(1, 3);
    for (int i = 0; i < count; ++i) {
      Vec3& p = h.query.points[e_.range(0, 7)];
      double& x = e_.range(0, 2) == 0 ? p.x : e_.chance(1, 2) ? p.y : p.z;
      x = kSpecial[e_.chance(3, 4) ? e_.range(0, 9) : e_.range(10, 15)];
    }
    h.contact_by.reset();
    h.exact = false;
    return h;
  }

  HardQuery raw_bits_query() {
    Query q;
    for (Vec3& p : q.points) {
      for (double* c : {&p.x, &p.y, &p.z}) *c = hard_detail::from_bits(e_.bits(64));
    }
    HardQuery h = from_doubles(q);
    h.exact = false;
    return h;
  }

  Entropy& e_;
  bool vf_;
};

/// The class from one byte, then the query.
inline HardQuery decode_query(Entropy& e, QueryType type) {
  const auto c = static_cast<HardClass>(e.byte() % kHardClassCount);
  return HardQueryMaker(e, type).make(c);
}

// ------------------------------------------------------------------ checks

/// One answer of a batch entry.
struct Answer {
  bool hit = false;
  double toi = 0;
  Status status = Status::certified;
  friend bool operator==(const Answer& a, const Answer& b) {
    return a.hit == b.hit && a.status == b.status &&
           std::memcmp(&a.toi, &b.toi, sizeof a.toi) == 0;  // bit-identical, +-0 and NaN told apart
  }
};

/// The outputs of one run over a batch, pre-filled with values no kernel writes.
struct BatchAnswers {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  explicit BatchAnswers(std::size_t n) : hit(n, 7), toi(n, -1.0), status(n, static_cast<Status>(99)) {}
  BatchResults view() { return {hit.data(), toi.data(), status.data()}; }
  Answer at(std::size_t i) const { return {hit[i] != 0, toi[i], status[i]}; }
};

inline std::string format(const char* fmt, auto... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}

/// The query in hexadecimal floats (exact), one point per line.
inline std::string describe(const Query& q) {
  std::string s;
  for (int i = 0; i < 8; ++i) {
    const Vec3& p = q.points[i];
    s += format("  p%d%s = (%a, %a, %a)   // (%.17g, %.17g, %.17g)\n", i % 4, i < 4 ? "(t=0)" : "(t=1)",
                p.x, p.y, p.z, p.x, p.y, p.z);
  }
  return s;
}

inline std::string describe(const Answer& a) {
  return format("hit=%d toi=%a (%.17g) status=%s", a.hit, a.toi, a.toi, std::string(to_string(a.status)).c_str());
}

inline std::string describe(const Result& r) {
  return format("hit=%d toi=[%a, %a] (%.17g) contact_roots=%d always_coplanar=%d status=%s", r.hit,
                r.toi_lo, r.toi_hi, r.toi_lo, r.contact_roots, r.always_coplanar,
                std::string(to_string(r.status)).c_str());
}

/// Empty when `a` keeps the promises of `mode` (linear_ccd.hpp) for a query
/// whose oracle answer is `oracle`; else what it breaks.
/// - out of the domain: invalid_input, no hit, toi +inf (and only there);
/// - exact: hit == the oracle's; a hit's toi in [toi_lo - tolerance, toi_hi]
///   (plus 2^-52 for the rounding of the bracket width), exactly toi_lo when
///   the status is `exact`; statuses certified or exact;
/// - conservative: no false negative, toi <= toi_hi; certified hits are true
///   hits with the toi promise of exact mode; statuses certified or uncertain
///   (uncertain only as a hit);
/// - every miss has toi +inf, every hit toi in [0, 1].
inline std::string check_answer(Mode mode, bool valid, const Result& oracle, const Answer& a, double tolerance) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (!valid) {
    if (a.status != Status::invalid_input || a.hit || a.toi != kInf) return "input out of the domain not reported invalid_input";
    return {};
  }
  if (a.status == Status::invalid_input) return "valid input reported invalid_input";
  if (oracle.status != Status::exact) return "the oracle did not decide a valid input";
  if (!a.hit && a.toi != kInf) return "a miss with toi != +inf";
  if (a.hit && !(a.toi >= 0 && a.toi <= 1)) return "a hit with toi outside [0, 1]";
  const auto toi_low_ok = [&] {  // toi >= toi_lo - tolerance - 2^-52, exactly (GMP takes no infinity)
    if (tolerance == kInf) return true;
    return mpq_class(a.toi) + mpq_class(tolerance) + mpq_class(0x1p-52) >= mpq_class(oracle.toi_lo);
  };
  if (mode == Mode::exact) {
    if (a.status != Status::certified && a.status != Status::exact) return "exact mode left a status other than certified/exact";
    if (a.hit != oracle.hit) return oracle.hit ? "exact mode: false negative" : "exact mode: false positive";
    if (a.hit && a.toi > oracle.toi_hi) return "exact mode: toi after the earliest contact";
    if (a.hit && !toi_low_ok()) return "exact mode: toi more than time_tolerance before the earliest contact";
    if (a.hit && a.status == Status::exact && a.toi != oracle.toi_lo) return "exact mode: oracle-decided toi differs from the oracle's toi_lo";
    return {};
  }
  if (mode == Mode::conservative) {
    if (a.status != Status::certified && a.status != Status::uncertain) return "conservative mode: status other than certified/uncertain";
    if (oracle.hit && !a.hit) return "conservative mode: false negative";
    if (oracle.hit && a.toi > oracle.toi_hi) return "conservative mode: toi after the earliest contact";
    if (a.status == Status::uncertain && !a.hit) return "conservative mode: uncertain but not a hit";
    if (a.status == Status::certified && a.hit && !oracle.hit) return "conservative mode: certified false positive";
    if (a.status == Status::certified && a.hit && !toi_low_ok()) return "conservative mode: certified toi more than time_tolerance early";
    return {};
  }
  // oracle mode
  if (a.status != Status::exact || a.hit != oracle.hit || (a.hit && a.toi != oracle.toi_lo)) return "oracle mode differs from exact_ccd";
  return {};
}

}  // namespace simdccd::test
