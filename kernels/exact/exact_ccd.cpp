// The exact oracle (see include/simdccd/exact_oracle.hpp for the method).
#include "simdccd/exact_oracle.hpp"

#include <algorithm>
#include <optional>

#include "exact/polynomial.hpp"
#include "exact/real_root.hpp"

namespace simdccd {
namespace {

using exact::common_divisor;
using exact::cross;
using exact::dot;
using exact::Poly;
using exact::PolyVec3;
using exact::RealRoot;
using exact::roots_in_unit_interval;

// The four moving points of a query: VF p, f0, f1, f2; EE a0, a1, b0, b1.
using Motion = std::array<PolyVec3, 4>;

// Scaled by the common denominator of all coordinates, which changes no answer
// and keeps the coefficients integers (cheap for GMP's canonicalization).
Motion motion_of(const RationalQuery& q) {
  mpz_class denominator = 1;
  for (const RationalVec3& p : q.points) {
    for (const mpq_class* c : {&p.x, &p.y, &p.z}) mpz_lcm(denominator.get_mpz_t(), denominator.get_mpz_t(), c->get_den_mpz_t());
  }
  const mpq_class s(denominator);
  Motion m;
  for (int i = 0; i < 4; ++i) {
    const RationalVec3& a = q.points[i];
    const RationalVec3& b = q.points[i + 4];
    m[i] = {Poly{s * a.x, s * (b.x - a.x)}, Poly{s * a.y, s * (b.y - a.y)},
            Poly{s * a.z, s * (b.z - a.z)}};
  }
  return m;
}

bool is_zero_at(const PolyVec3& v, RealRoot& t) {
  return t.sign_of(v[0]) == 0 && t.sign_of(v[1]) == 0 && t.sign_of(v[2]) == 0;
}

// Point p on the closed segment [a, b] at time t (a point when a(t) = b(t)).
bool point_on_segment(const PolyVec3& p, const PolyVec3& a, const PolyVec3& b, RealRoot& t) {
  const PolyVec3 d = b - a, ap = p - a;
  if (is_zero_at(d, t)) return is_zero_at(ap, t);
  if (!is_zero_at(cross(d, ap), t)) return false;
  const Poly along = dot(ap, d);  // in [0, |d|^2] on the segment
  return t.sign_of(along) >= 0 && t.sign_of(dot(d, d) - along) >= 0;
}

// Point in the closed triangle f at a time t when the four points are coplanar.
bool point_in_coplanar_triangle(const PolyVec3& p, const PolyVec3& f0, const PolyVec3& f1,
                                const PolyVec3& f2, RealRoot& t) {
  const PolyVec3 n = cross(f1 - f0, f2 - f0);
  if (is_zero_at(n, t)) {  // the triangle is a segment or a point: the union of its edges
    return point_on_segment(p, f0, f1, t) || point_on_segment(p, f1, f2, t) ||
           point_on_segment(p, f2, f0, t);
  }
  // Barycentric coordinates times |n|^2 are ((e1 - e0) x (p - e0)) . n.
  const PolyVec3* f[3] = {&f0, &f1, &f2};
  for (int i = 0; i < 3; ++i) {
    const PolyVec3& e0 = *f[i];
    const PolyVec3& e1 = *f[(i + 1) % 3];
    if (t.sign_of(dot(cross(e1 - e0, p - e0), n)) < 0) return false;
  }
  return true;
}

// Closed segments [a0, a1] and [b0, b1] intersect at a time t when coplanar.
bool coplanar_segments_intersect(const PolyVec3& a0, const PolyVec3& a1, const PolyVec3& b0,
                                 const PolyVec3& b1, RealRoot& t) {
  const PolyVec3 da = a1 - a0, db = b1 - b0, n = cross(da, db);
  if (is_zero_at(n, t)) {  // parallel or degenerate: they meet iff an endpoint lies on the other
    return point_on_segment(a0, b0, b1, t) || point_on_segment(a1, b0, b1, t) ||
           point_on_segment(b0, a0, a1, t) || point_on_segment(b1, a0, a1, t);
  }
  // The lines meet at a0 + sa da = b0 + sb db with sa, sb = (num . n) / |n|^2.
  const PolyVec3 w = b0 - a0;
  const Poly nn = dot(n, n);
  for (const Poly& num : {dot(cross(w, db), n), dot(cross(w, da), n)}) {
    if (t.sign_of(num) < 0 || t.sign_of(nn - num) < 0) return false;
  }
  return true;
}

bool touch(QueryType type, const Motion& m, RealRoot& t) {
  return type == QueryType::vertex_face
             ? point_in_coplanar_triangle(m[0], m[1], m[2], m[3], t)
             : coplanar_segments_intersect(m[0], m[1], m[2], m[3], t);
}

using Enclosure = RealRoot::Enclosure;

// Earliest of a set of contact times, each given by its enclosure: the
// componentwise minimum still encloses the minimum and stays tightest.
std::optional<Enclosure> earliest(std::optional<Enclosure> a, std::optional<Enclosure> b) {
  if (!a) return b;
  if (!b) return a;
  return Enclosure{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
}

// Earliest t in [0,1] with p(t) = q(t).
std::optional<Enclosure> point_point_contact(const PolyVec3& p, const PolyVec3& q) {
  const Poly g = common_divisor(p - q);
  if (g.is_zero()) return Enclosure{0, 0};
  std::vector<RealRoot> roots = roots_in_unit_interval(g);
  if (roots.empty()) return std::nullopt;
  return roots.front().enclose();
}

// Earliest t in [0,1] at which p lies on the closed segment [a, b].
std::optional<Enclosure> point_edge_contact(const PolyVec3& p, const PolyVec3& a,
                                            const PolyVec3& b) {
  const Poly g = common_divisor(cross(b - a, p - a));
  if (g.is_zero()) {
    // Always collinear: the point enters the segment through an endpoint,
    // unless it starts on it (the segment may also shrink to a point).
    RealRoot zero = RealRoot::rational(0);
    if (point_on_segment(p, a, b, zero)) return Enclosure{0, 0};
    return earliest(point_point_contact(p, a), point_point_contact(p, b));
  }
  for (RealRoot& t : roots_in_unit_interval(g)) {
    if (point_on_segment(p, a, b, t)) return t.enclose();
  }
  return std::nullopt;
}

// Always coplanar: contact at t=0, else the first contact puts a point on an
// edge (VF: the vertex on a triangle edge; EE: an endpoint on the other edge),
// because inside the closed primitive the contact would have begun earlier.
std::optional<Enclosure> coplanar_contact(QueryType type, const Motion& m) {
  RealRoot zero = RealRoot::rational(0);
  if (touch(type, m, zero)) return Enclosure{0, 0};
  if (type == QueryType::vertex_face) {
    return earliest(point_edge_contact(m[0], m[1], m[2]),
                    earliest(point_edge_contact(m[0], m[2], m[3]),
                             point_edge_contact(m[0], m[3], m[1])));
  }
  return earliest(earliest(point_edge_contact(m[0], m[2], m[3]), point_edge_contact(m[1], m[2], m[3])),
                  earliest(point_edge_contact(m[2], m[0], m[1]), point_edge_contact(m[3], m[0], m[1])));
}

}  // namespace

Result exact_ccd(QueryType type, const RationalQuery& q) {
  const Motion m = motion_of(q);
  // Contact needs the four points coplanar: det[x1 - x0, x2 - x0, x3 - x0](t) = 0.
  const Poly cubic = dot(cross(m[1] - m[0], m[2] - m[0]), m[3] - m[0]);
  Result r;
  r.status = Status::exact;
  std::optional<Enclosure> toi;
  if (cubic.is_zero()) {
    r.always_coplanar = true;
    toi = coplanar_contact(type, m);
  } else {
    for (RealRoot& t : roots_in_unit_interval(cubic)) {
      if (!touch(type, m, t)) continue;
      if (r.contact_roots++ == 0) toi = t.enclose();
    }
  }
  if (toi) {
    r.hit = true;
    r.toi_lo = toi->lo;
    r.toi_hi = toi->hi;
  }
  return r;
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
