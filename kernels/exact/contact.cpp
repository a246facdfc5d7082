// Plain contact of four points on polynomial motions (contact.hpp; the
// method is that of include/simdccd/exact_oracle.hpp):
// - the coplanarity polynomial det[X1 - X0, X2 - X0, X3 - X0](t), with the
//   factors of the weight W divided out, has its real roots in [0, 1]
//   isolated by a Sturm sequence of its square-free part;
// - at each root, in increasing order, inclusion (point in closed triangle,
//   or closed segments intersecting) is decided from exact signs of
//   homogeneous polynomials in the X_i at that algebraic number;
// - if the coplanarity polynomial is identically zero, the query reduces
//   exactly to contact at t = 0 or a point-edge (VF) / endpoint-on-edge (EE)
//   contact, and those to point-point contact when the point stays on the
//   edge's line (coplanar_contact below: this needs only continuous motion).
#include "exact/contact.hpp"

#include <cstdint>

namespace simdccd::exact {
namespace {

using Enclosure = RealRoot::Enclosure;

bool is_zero_at(const PolyVec3& v, RealRoot& t) {
  return t.sign_of(v[0]) == 0 && t.sign_of(v[1]) == 0 && t.sign_of(v[2]) == 0;
}

// Point p on the closed segment [a, b] at a time t when it is on the line
// through a and b (any p when a(t) = b(t): then the segment is a point).
bool collinear_point_on_segment(const PolyVec3& p, const PolyVec3& a, const PolyVec3& b, RealRoot& t) {
  const PolyVec3 d = b - a, ap = p - a;
  if (is_zero_at(d, t)) return is_zero_at(ap, t);
  const Poly along = dot(ap, d);  // in [0, |d|^2] on the segment
  return t.sign_of(along) >= 0 && t.sign_of(dot(d, d) - along) >= 0;
}

// Point p on the closed segment [a, b] at time t (a point when a(t) = b(t)).
bool point_on_segment(const PolyVec3& p, const PolyVec3& a, const PolyVec3& b, RealRoot& t) {
  return is_zero_at(cross(b - a, p - a), t) && collinear_point_on_segment(p, a, b, t);
}

// Component k of a x b.
Poly cross_component(const PolyVec3& a, const PolyVec3& b, int k) {
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  return a[i] * b[j] - a[j] * b[i];
}

// An axis k where the plane normal n = u x v has n_k(t) != 0, n_k and its
// sign there; sign 0 when n(t) = 0. At a time t when the four points are
// coplanar, every cross product a x b of vectors in their plane is lambda n,
// so the sign of lambda (the sign of (a x b) . n) is that of (a x b)_k times
// that of n_k: degree-2 products instead of degree-4 ones.
struct NormalAxis {
  int k, sign;
  Poly n_k;
};
NormalAxis normal_axis(const PolyVec3& u, const PolyVec3& v, RealRoot& t) {
  for (int k = 0; k < 3; ++k) {
    Poly n_k = cross_component(u, v, k);
    if (const int s = t.sign_of(n_k)) return {k, s, std::move(n_k)};
  }
  return {-1, 0, {}};
}

// Point in the closed triangle f at a time t when the four points are coplanar.
bool point_in_coplanar_triangle(const PolyVec3& p, const PolyVec3& f0, const PolyVec3& f1,
                                const PolyVec3& f2, RealRoot& t) {
  const NormalAxis axis = normal_axis(f1 - f0, f2 - f0, t);
  if (axis.sign == 0) {  // the triangle is a segment or a point: the union of its edges
    return point_on_segment(p, f0, f1, t) || point_on_segment(p, f1, f2, t) ||
           point_on_segment(p, f2, f0, t);
  }
  // Barycentric coordinates times |n|^2 are ((e1 - e0) x (p - e0)) . n.
  const PolyVec3* f[3] = {&f0, &f1, &f2};
  for (int i = 0; i < 3; ++i) {
    const PolyVec3& e0 = *f[i];
    const PolyVec3& e1 = *f[(i + 1) % 3];
    if (t.sign_of(cross_component(e1 - e0, p - e0, axis.k)) * axis.sign < 0) return false;
  }
  return true;
}

// Closed segments [a0, a1] and [b0, b1] intersect at a time t when coplanar.
bool coplanar_segments_intersect(const PolyVec3& a0, const PolyVec3& a1, const PolyVec3& b0,
                                 const PolyVec3& b1, RealRoot& t) {
  const PolyVec3 da = a1 - a0, db = b1 - b0;
  const NormalAxis axis = normal_axis(da, db, t);
  if (axis.sign == 0) {  // parallel or degenerate: they meet iff an endpoint lies on the other
    return point_on_segment(a0, b0, b1, t) || point_on_segment(a1, b0, b1, t) ||
           point_on_segment(b0, a0, a1, t) || point_on_segment(b1, a0, a1, t);
  }
  // Coplanar lines meet at a0 + s_a da = b0 + s_b db; with w = b0 - a0 and
  // n = da x db, crossing with db (da) gives s_a n = w x db (s_b n = w x da):
  // s in [0, 1] iff s n_k and n_k - s n_k both have the sign of n_k.
  const PolyVec3 w = b0 - a0;
  for (const Poly& along : {cross_component(w, db, axis.k), cross_component(w, da, axis.k)}) {
    if (t.sign_of(along) * axis.sign < 0 || t.sign_of(axis.n_k - along) * axis.sign < 0) return false;
  }
  return true;
}

bool touch(QueryType type, const std::array<PolyVec3, 4>& m, RealRoot& t) {
  return type == QueryType::vertex_face
             ? point_in_coplanar_triangle(m[0], m[1], m[2], m[3], t)
             : coplanar_segments_intersect(m[0], m[1], m[2], m[3], t);
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
    if (collinear_point_on_segment(p, a, b, zero)) return Enclosure{0, 0};
    return earliest(point_point_contact(p, a), point_point_contact(p, b));
  }
  // At the roots of g, p is on the line through a and b (or a = b).
  for (RealRoot& t : roots_in_unit_interval(g)) {
    if (collinear_point_on_segment(p, a, b, t)) return t.enclose();
  }
  return std::nullopt;
}

// Always coplanar: contact at t=0, else the first contact puts a point on an
// edge (VF: the vertex on a triangle edge; EE: an endpoint on the other edge),
// because inside the closed primitive the contact would have begun earlier.
// This needs only continuous motion, so it holds for any polynomial (or
// rational, such as rigid) motion: the contact set is closed, so its least
// element t* > 0 is a contact; were the point inside a nondegenerate
// triangle off its edges (EE: the segments crossing at points inside both,
// their lines not parallel), the barycentric coordinates (segment
// parameters), continuous where the normal is nonzero, would keep it inside
// on some (t* - delta, t*], a contact before t*; a degenerate triangle is the
// union of its edges, and parallel segments meet only at an endpoint. The
// same argument on a line reduces the always collinear point-edge case to
// point-point contact at an endpoint.
std::optional<Enclosure> coplanar_contact(QueryType type, const std::array<PolyVec3, 4>& m) {
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

LineParameters line_parameters(const PolyVec3& da, const PolyVec3& db, const PolyVec3& w,
                               const PolyVec3& n) {
  // The closest points satisfy s_a da - s_b db = w + k n; cross with db (da)
  // and dot with n.
  return {dot(cross(w, db), n), dot(cross(w, da), n)};
}

Result plain_contact(QueryType type, const PolyMotion& motion) {
  const std::array<PolyVec3, 4>& m = motion.X;
  // Contact needs the four points coplanar: det[x1 - x0, x2 - x0, x3 - x0](t) = 0.
  Poly coplanarity = dot(cross(m[1] - m[0], m[2] - m[0]), m[3] - m[0]);
  if (motion.W.degree() >= 1) coplanarity = without_factor(coplanarity, motion.W);
  if (coplanarity.is_zero()) {
    Result r = exact_result(coplanar_contact(type, m));
    r.always_coplanar = true;
    return r;
  }
  std::optional<Enclosure> toi;
  std::uint8_t contact_roots = 0;
  for (RealRoot& t : roots_in_unit_interval(coplanarity)) {
    if (!touch(type, m, t)) continue;
    if (contact_roots++ == 0) toi = t.enclose();
  }
  Result r = exact_result(toi);
  r.contact_roots = contact_roots;
  return r;
}

Result exact_result(const std::optional<RealRoot::Enclosure>& toi) {
  Result r;
  r.status = Status::exact;
  if (toi) {
    r.hit = true;
    r.toi_lo = toi->lo;
    r.toi_hi = toi->hi;
  }
  return r;
}

}  // namespace simdccd::exact
