// GJK's loop (convex/gjk.hpp, docs/convex.md) written once over the lane
// type L (simd/lanes.hpp): each lane runs one pair of a GjkLanes batch from
// its first support point to the termination test; gjk.cpp fills the lanes
// and reads the answers. Lanes never interact, so every target (and the
// plain-double instantiation gjk() runs) gives the same bits.
//
// The closest point of the simplex is van den Bergen's sub-algorithm in
// signed-volume form (after Montanari, Petrinic and Barbieri 2017): a
// tetrahedron's signed volumes, a triangle's signed areas in its largest
// projection, a segment's projection parameter; outside, the faces or edges
// facing the origin, the closest one kept. Branches become masks: a
// sub-simplex is computed when some lane needs it.
//
// Re-included per Highway target (see simd/vec3-inl.h).
#if defined(SIMDCCD_CONVEX_GJK_KERNEL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_CONVEX_GJK_KERNEL_INL_H_
#undef SIMDCCD_CONVEX_GJK_KERNEL_INL_H_
#else
#define SIMDCCD_CONVEX_GJK_KERNEL_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <limits>

#include "convex/gjk_lanes.hpp"
#include "convex/support.hpp"
#include "simdccd/convex/shape.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::convex::SIMDCCD_TARGET_NAMESPACE {

using simd::SIMDCCD_TARGET_NAMESPACE::cross3;
using simd::SIMDCCD_TARGET_NAMESPACE::dot3;

/// The lanes [o, o + L::lanes()) of batch b: loads, masked stores, masks.
template <class L, class B>
struct Lane {
  using V = typename L::V;
  using M = typename L::M;
  B& b;
  std::size_t o;
  /// The vertex rows a support scan of side s reads for these lanes: their
  /// longest polytope's (rows past a lane's own repeat its last vertex).
  std::size_t rows[2];

  V ld(const double* row) const { return L::load(row + o); }
  void st(V x, double* row) const { L::store(x, row + o); }
  void put(M m, V x, double* row) const { L::store(L::select(m, x, L::load(row + o)), row + o); }
  static V neg(V x) { return L::mul(L::set(-1.0), x); }
  static M eq(V x, V y) { return L::eq(x, y); }
  static M on(V flag) { return L::gt(flag, L::set(0.0)); }
  static M all() { return L::le(L::set(0.0), L::set(0.0)); }
  static M no(M m) { return L::but_not(all(), m); }
  static V flag(M m) { return L::select(m, L::set(1.0), L::set(0.0)); }
  /// Where x and y are both nonzero and of one sign.
  static M same_sign(V x, V y) {
    const V zero = L::set(0.0);
    return L::either(L::both(L::gt(x, zero), L::gt(y, zero)), L::both(L::lt(x, zero), L::lt(y, zero)));
  }
};

/// How many of the four slots of `in` (a simplex's or a candidate's) are in.
template <class L, class B, class Rows>
typename L::V slots_in(const Lane<L, B>& q, const Rows& in) {
  return L::add(L::add(L::add(q.ld(in[0]), q.ld(in[1])), q.ld(in[2])), q.ld(in[3]));
}

// ---- The closest point of a sub-simplex (into a Candidate, on the lanes of m) ----

/// c := nothing yet (vv = +inf).
template <class L, class B, class C>
void clear(const Lane<L, B>& q, typename L::M m, C& c) {
  for (int s = 0; s < 4; ++s) {
    q.put(m, L::set(0.0), c.in[s]);
    q.put(m, L::set(0.0), c.lambda[s]);
  }
  q.put(m, L::set(std::numeric_limits<double>::infinity()), c.vv);
}

/// best := c where c is strictly closer (the first of equals stays).
template <class L, class B, class C>
void keep_closer(const Lane<L, B>& q, typename L::M m, C& best, const C& c) {
  const typename L::M take = L::both(m, L::lt(q.ld(c.vv), q.ld(best.vv)));
  for (int s = 0; s < 4; ++s) {
    q.put(take, q.ld(c.in[s]), best.in[s]);
    q.put(take, q.ld(c.lambda[s]), best.lambda[s]);
  }
  for (int k = 0; k < 3; ++k) q.put(take, q.ld(c.v[k]), best.v[k]);
  q.put(take, q.ld(c.vv), best.vv);
}

/// The segment of slots i < j: the origin's projection parameter s along
/// it; s <= 0: slot i alone, s >= 1 or a zero-length segment: slot j alone.
template <class L, class B, class C>
void segment(const Lane<L, B>& q, typename L::M m, int i, int j, C& c) {
  using V = typename L::V;
  using M = typename L::M;
  const auto& w = q.b.w;
  const V yix = q.ld(w[i][0]), yiy = q.ld(w[i][1]), yiz = q.ld(w[i][2]);
  const V yjx = q.ld(w[j][0]), yjy = q.ld(w[j][1]), yjz = q.ld(w[j][2]);
  const V tx = L::sub(yjx, yix), ty = L::sub(yjy, yiy), tz = L::sub(yjz, yiz);
  const V tt = dot3<L>(tx, ty, tz, tx, ty, tz);
  const V s = L::div(q.neg(dot3<L>(yix, yiy, yiz, tx, ty, tz)), tt);
  const V zero = L::set(0.0), one = L::set(1.0);
  const M long_enough = L::gt(tt, zero);
  const M interior = L::both(long_enough, L::both(L::gt(s, zero), L::lt(s, one)));
  const M at_i = L::but_not(long_enough, L::gt(s, zero));
  const V li = L::select(interior, L::sub(one, s), q.flag(at_i));
  const V lj = L::select(interior, s, q.flag(q.no(at_i)));
  // Interior: v, then its rounding along t taken out: v . t = 0 to rounding
  // relative to |v|, where the sum's errors (of the size of the points)
  // would tilt a short v along the segment and spoil the lower bound v . w / |v|.
  const V sx = L::add(L::mul(li, yix), L::mul(lj, yjx)), sy = L::add(L::mul(li, yiy), L::mul(lj, yjy)),
          sz = L::add(L::mul(li, yiz), L::mul(lj, yjz));
  const V k = L::div(dot3<L>(sx, sy, sz, tx, ty, tz), tt);
  const V vx = L::select(interior, L::sub(sx, L::mul(k, tx)), L::select(at_i, yix, yjx));
  const V vy = L::select(interior, L::sub(sy, L::mul(k, ty)), L::select(at_i, yiy, yjy));
  const V vz = L::select(interior, L::sub(sz, L::mul(k, tz)), L::select(at_i, yiz, yjz));
  for (int t = 0; t < 4; ++t) {
    q.put(m, t == i ? q.flag(L::either(interior, at_i)) : t == j ? q.flag(q.no(at_i)) : zero, c.in[t]);
    q.put(m, t == i ? li : t == j ? lj : zero, c.lambda[t]);
  }
  q.put(m, vx, c.v[0]);
  q.put(m, vy, c.v[1]);
  q.put(m, vz, c.v[2]);
  q.put(m, dot3<L>(vx, vy, vz, vx, vy, vz), c.vv);
}

/// Twice the signed area of the 2D triangle (a, b, c).
template <class L>
typename L::V area2(typename L::V ax, typename L::V ay, typename L::V bx, typename L::V by, typename L::V cx,
                    typename L::V cy) {
  return L::sub(L::mul(L::sub(bx, ax), L::sub(cy, ay)), L::mul(L::sub(by, ay), L::sub(cx, ax)));
}

/// p + e = a b exactly (Dekker's product, no FMA: every target rounds alike;
/// |a|, |b| below 2^995).
template <class L>
void two_product(typename L::V a, typename L::V b, typename L::V& p, typename L::V& e) {
  using V = typename L::V;
  const V split = L::set(134217729.0);  // 2^27 + 1
  const V ca = L::mul(split, a), cb = L::mul(split, b);
  const V ah = L::sub(ca, L::sub(ca, a)), al = L::sub(a, ah);
  const V bh = L::sub(cb, L::sub(cb, b)), bl = L::sub(b, bh);
  p = L::mul(a, b);
  e = L::add(L::add(L::add(L::sub(L::mul(ah, bh), p), L::mul(ah, bl)), L::mul(al, bh)), L::mul(al, bl));
}

/// One coordinate of the normal (y1 - y0) x (y2 - y0) = y0 x y1 + y1 x y2 +
/// y2 x y0 of points with coordinates (u_s, t_s) on the other two axes: its
/// six products exact, summed with their errors (Knuth's two-sum), so it is
/// off by a few roundings of itself, not of the edges' squares.
template <class L>
typename L::V normal_coordinate(typename L::V u0, typename L::V t0, typename L::V u1, typename L::V t1,
                                typename L::V u2, typename L::V t2) {
  using V = typename L::V;
  V sum = L::set(0.0), error = L::set(0.0);
  const auto add = [&](V x) {
    const V total = L::add(sum, x), z = L::sub(total, sum);
    error = L::add(error, L::add(L::sub(sum, L::sub(total, z)), L::sub(x, z)));
    sum = total;
  };
  const auto cross = [&](V ua, V ta, V ub, V tb) {  // ua tb - ta ub
    V p, e;
    two_product<L>(ua, tb, p, e);
    add(p);
    add(e);
    two_product<L>(L::mul(L::set(-1.0), ta), ub, p, e);  // -(ta ub), exactly
    add(p);
    add(e);
  };
  cross(u0, t0, u1, t1);
  cross(u1, t1, u2, t2);
  cross(u2, t2, u0, t0);
  return L::add(sum, error);
}

/// The triangle of slots i < j < k: the origin projected on its plane, then
/// signed areas in the coordinate plane where the triangle's projection is
/// largest; outside, the edges facing the projection, the closest kept. A
/// triangle flatter than 2^-40 (|n| against its edges) is taken as its
/// edges. `seg`: scratch.
template <class L, class B, class C>
void triangle(const Lane<L, B>& q, typename L::M m, int i, int j, int k, C& c, C& seg) {
  using V = typename L::V;
  using M = typename L::M;
  const auto& w = q.b.w;
  const V x0 = q.ld(w[i][0]), y0 = q.ld(w[i][1]), z0 = q.ld(w[i][2]);
  const V x1 = q.ld(w[j][0]), y1 = q.ld(w[j][1]), z1 = q.ld(w[j][2]);
  const V x2 = q.ld(w[k][0]), y2 = q.ld(w[k][1]), z2 = q.ld(w[k][2]);
  const V e1x = L::sub(x1, x0), e1y = L::sub(y1, y0), e1z = L::sub(z1, z0);
  const V e2x = L::sub(x2, x0), e2y = L::sub(y2, y0), e2z = L::sub(z2, z0);
  V nx, ny, nz;
  cross3<L>(e1x, e1y, e1z, e2x, e2y, e2z, nx, ny, nz);
  V nn = dot3<L>(nx, ny, nz, nx, ny, nz);
  const V edges = L::mul(dot3<L>(e1x, e1y, e1z, e1x, e1y, e1z), dot3<L>(e2x, e2y, e2z, e2x, e2y, e2z));
  // A sliver or needle (sine of the angle at slot i below 2^-6): n from the
  // rounded edges is off by rounding times their lengths' product, which
  // tilts the plane of a thin triangle (a thin plate's or a needle's face of
  // A - B) past tau, v stops shrinking and GJK stalls short of a contact.
  // Computed from exact products instead, n is accurate to rounding of
  // itself, and so is the projection p.
  const M blunt = L::both(m, L::lt(nn, L::mul(L::set(0x1p-12), edges)));
  if (L::any(blunt)) {
    nx = L::select(blunt, normal_coordinate<L>(y0, z0, y1, z1, y2, z2), nx);
    ny = L::select(blunt, normal_coordinate<L>(z0, x0, z1, x1, z2, x2), ny);
    nz = L::select(blunt, normal_coordinate<L>(x0, y0, x1, y1, x2, y2), nz);
    nn = dot3<L>(nx, ny, nz, nx, ny, nz);
  }
  const M flat = L::le(nn, L::mul(L::set(0x1p-80), edges));
  const V f = L::div(dot3<L>(x0, y0, z0, nx, ny, nz), nn);
  const V px = L::mul(f, nx), py = L::mul(f, ny), pz = L::mul(f, nz);
  // Project along the normal's largest axis k: onto (y, z), (z, x) or (x, y).
  const V ax = L::abs(nx), ay = L::abs(ny), az = L::abs(nz);
  const M kx = L::both(L::ge(ax, ay), L::ge(ax, az));
  const M ky = L::but_not(L::ge(ay, az), kx);
  const auto u = [&](V X, V Y, V Z) { return L::select(kx, Y, L::select(ky, Z, X)); };
  const auto t = [&](V X, V Y, V Z) { return L::select(kx, Z, L::select(ky, X, Y)); };
  const V mu = L::select(kx, nx, L::select(ky, ny, nz));
  const V pu = u(px, py, pz), pt = t(px, py, pz);
  const V u0 = u(x0, y0, z0), t0 = t(x0, y0, z0), u1 = u(x1, y1, z1), t1 = t(x1, y1, z1);
  const V u2 = u(x2, y2, z2), t2 = t(x2, y2, z2);
  const V c0 = area2<L>(pu, pt, u1, t1, u2, t2);
  const V c1 = area2<L>(u0, t0, pu, pt, u2, t2);
  const V c2 = area2<L>(u0, t0, u1, t1, pu, pt);
  const M s0 = q.same_sign(mu, c0), s1 = q.same_sign(mu, c1), s2 = q.same_sign(mu, c2);
  const M inside = L::but_not(L::both(m, L::both(s0, L::both(s1, s2))), flat);
  const M outside = L::but_not(m, inside);
  clear(q, m, c);
  // Masks cannot sit in arrays (SVE): one call per edge, opposite i, j, k.
  const auto edge = [&](M facing, int e0, int e1) {
    const M me = L::both(outside, L::either(flat, facing));
    if (!L::any(me)) return;
    segment(q, me, e0, e1, seg);
    keep_closer(q, me, c, seg);
  };
  edge(q.no(s0), j, k);
  edge(q.no(s1), i, k);
  edge(q.no(s2), i, j);
  if (!L::any(inside)) return;
  const V sum = L::add(L::add(c0, c1), c2);
  const V l0 = L::div(c0, sum), l1 = L::div(c1, sum), l2 = L::div(c2, sum);
  // v = the projection p: n is accurate (within 2^-46 radians where the
  // angle at slot i is sharp, to rounding of itself where blunt), so p's
  // direction is the plane's normal to rounding, where the weighted sum's
  // errors (of the size of the points) would tilt a short v and spoil the
  // lower bound v . w / |v|. The weights are kept for the closest points.
  const V zero = L::set(0.0);
  for (int s = 0; s < 4; ++s) {
    q.put(inside, s == i || s == j || s == k ? L::set(1.0) : zero, c.in[s]);
    q.put(inside, s == i ? l0 : s == j ? l1 : s == k ? l2 : zero, c.lambda[s]);
  }
  q.put(inside, px, c.v[0]);
  q.put(inside, py, c.v[1]);
  q.put(inside, pz, c.v[2]);
  q.put(inside, dot3<L>(px, py, pz, px, py, pz), c.vv);
}

/// y_a . (y_b x y_c) of three slots.
template <class L, class B>
typename L::V triple(const Lane<L, B>& q, int a, int b, int c) {
  const auto& w = q.b.w;
  typename L::V x, y, z;
  cross3<L>(q.ld(w[b][0]), q.ld(w[b][1]), q.ld(w[b][2]), q.ld(w[c][0]), q.ld(w[c][1]), q.ld(w[c][2]), x, y, z);
  return dot3<L>(q.ld(w[a][0]), q.ld(w[a][1]), q.ld(w[a][2]), x, y, z);
}

/// The tetrahedron of the four slots: the signed volumes with the origin in
/// place of each vertex against the whole; outside, the facets facing the
/// origin, the closest kept. One flatter than 2^-40 (its volume against its
/// edges) cannot certify that it holds the origin: all four facets are tried.
template <class L, class B, class C>
void tetrahedron(const Lane<L, B>& q, typename L::M m, C& c, C& tri, C& seg) {
  using V = typename L::V;
  using M = typename L::M;
  const auto& w = q.b.w;
  const V x0 = q.ld(w[0][0]), y0 = q.ld(w[0][1]), z0 = q.ld(w[0][2]);
  const V e1x = L::sub(q.ld(w[1][0]), x0), e1y = L::sub(q.ld(w[1][1]), y0), e1z = L::sub(q.ld(w[1][2]), z0);
  const V e2x = L::sub(q.ld(w[2][0]), x0), e2y = L::sub(q.ld(w[2][1]), y0), e2z = L::sub(q.ld(w[2][2]), z0);
  const V e3x = L::sub(q.ld(w[3][0]), x0), e3y = L::sub(q.ld(w[3][1]), y0), e3z = L::sub(q.ld(w[3][2]), z0);
  V nx, ny, nz;
  cross3<L>(e2x, e2y, e2z, e3x, e3y, e3z, nx, ny, nz);
  const V det = dot3<L>(e1x, e1y, e1z, nx, ny, nz);
  const V edges = L::mul(L::mul(dot3<L>(e1x, e1y, e1z, e1x, e1y, e1z), dot3<L>(e2x, e2y, e2z, e2x, e2y, e2z)),
                         dot3<L>(e3x, e3y, e3z, e3x, e3y, e3z));
  const M flat = L::le(L::mul(det, det), L::mul(L::set(0x1p-80), edges));
  const V c0 = triple(q, 1, 2, 3), c1 = q.neg(triple(q, 0, 2, 3)), c2 = triple(q, 0, 1, 3),
          c3 = q.neg(triple(q, 0, 1, 2));
  const M s0 = q.same_sign(det, c0), s1 = q.same_sign(det, c1), s2 = q.same_sign(det, c2),
          s3 = q.same_sign(det, c3);
  const M inside = L::but_not(L::both(m, L::both(L::both(s0, s1), L::both(s2, s3))), flat);
  const M outside = L::but_not(m, inside);
  clear(q, m, c);
  const auto face = [&](M facing, int f0, int f1, int f2) {  // opposite slot 0, 1, 2, 3
    const M mf = L::both(outside, L::either(flat, facing));
    if (!L::any(mf)) return;
    triangle(q, mf, f0, f1, f2, tri, seg);
    keep_closer(q, mf, c, tri);
  };
  face(q.no(s0), 1, 2, 3);
  face(q.no(s1), 0, 2, 3);
  face(q.no(s2), 0, 1, 3);
  face(q.no(s3), 0, 1, 2);
  if (!L::any(inside)) return;
  const V sum = L::add(L::add(L::add(c0, c1), c2), c3);
  const V zero = L::set(0.0);
  q.put(inside, L::div(c0, sum), c.lambda[0]);
  q.put(inside, L::div(c1, sum), c.lambda[1]);
  q.put(inside, L::div(c2, sum), c.lambda[2]);
  q.put(inside, L::div(c3, sum), c.lambda[3]);
  for (int s = 0; s < 4; ++s) q.put(inside, L::set(1.0), c.in[s]);
  for (int a = 0; a < 3; ++a) q.put(inside, zero, c.v[a]);  // the origin is inside
  q.put(inside, zero, c.vv);
}

/// The closest point of the simplex to the origin, into b.out: the slots
/// kept, their weights, v and |v|^2. A simplex of n vertices holds slots 0
/// to n-1 (see commit()).
template <class L, class B>
void reduce(const Lane<L, B>& q, typename L::M m) {
  using V = typename L::V;
  using M = typename L::M;
  auto& b = q.b;
  const V n = slots_in(q, b.in);
  const M n4 = L::both(m, q.eq(n, L::set(4.0))), n3 = L::both(m, q.eq(n, L::set(3.0)));
  const M n2 = L::both(m, q.eq(n, L::set(2.0))), n1 = L::both(m, q.eq(n, L::set(1.0)));
  if (L::any(n4)) tetrahedron(q, n4, b.out, b.tri, b.seg);
  if (L::any(n3)) triangle(q, n3, 0, 1, 2, b.out, b.seg);
  if (L::any(n2)) segment(q, n2, 0, 1, b.out);
  if (L::any(n1)) {  // the point of slot 0
    const V zero = L::set(0.0), one = L::set(1.0);
    const V vx = q.ld(b.w[0][0]), vy = q.ld(b.w[0][1]), vz = q.ld(b.w[0][2]);
    for (int s = 0; s < 4; ++s) {
      q.put(n1, s == 0 ? one : zero, b.out.in[s]);
      q.put(n1, s == 0 ? one : zero, b.out.lambda[s]);
    }
    q.put(n1, vx, b.out.v[0]);
    q.put(n1, vy, b.out.v[1]);
    q.put(n1, vz, b.out.v[2]);
    q.put(n1, dot3<L>(vx, vy, vz, vx, vy, vz), b.out.vv);
  }
}

// ---- Support points ----

/// Side s's core at its support point along the world direction d, on the
/// lanes of m: the world point (px, py, pz) and its vertex id. Sphere: the
/// center; capsule: the end with (R^T d).z > 0, else end 0; box: sign(R^T d)
/// half (bit i of the id set where component i > 0); cylinder: the PA199
/// slides' r d_xy/|d_xy| + sign(d_z) h z (no_vertex); polytope: the first
/// vertex of largest R^T d . p. Box, cylinder and polytope points are posed
/// by apply(pose, p), the very doubles of world_vertices().
template <class L, class B>
void support(const Lane<L, B>& q, typename L::M m, int s, typename L::V dx, typename L::V dy, typename L::V dz,
             typename L::V& px, typename L::V& py, typename L::V& pz, typename L::V& id) {
  using V = typename L::V;
  using M = typename L::M;
  auto& b = q.b;
  const auto& R = b.R[s];
  const V zero = L::set(0.0);
  const V ex = L::add(L::add(L::mul(q.ld(R[0]), dx), L::mul(q.ld(R[3]), dy)), L::mul(q.ld(R[6]), dz));
  const V ey = L::add(L::add(L::mul(q.ld(R[1]), dx), L::mul(q.ld(R[4]), dy)), L::mul(q.ld(R[7]), dz));
  const V ez = L::add(L::add(L::mul(q.ld(R[2]), dx), L::mul(q.ld(R[5]), dy)), L::mul(q.ld(R[8]), dz));
  const V kind = q.ld(b.kind[s]);
  const auto is = [&](ShapeKind k) { return L::both(m, q.eq(kind, L::set(static_cast<double>(k)))); };
  V bx = zero, by = zero, bz = zero;  // the body point of box, cylinder, polytope
  id = zero;
  const M box = is(ShapeKind::box);
  if (L::any(box)) {
    const M sx = L::gt(ex, zero), sy = L::gt(ey, zero), sz = L::gt(ez, zero);
    const V hx = q.ld(b.half[s][0]), hy = q.ld(b.half[s][1]), hz = q.ld(b.half[s][2]);
    bx = L::select(box, L::select(sx, hx, q.neg(hx)), bx);
    by = L::select(box, L::select(sy, hy, q.neg(hy)), by);
    bz = L::select(box, L::select(sz, hz, q.neg(hz)), bz);
    const V bits = L::add(L::add(q.flag(sx), L::mul(L::set(2.0), q.flag(sy))), L::mul(L::set(4.0), q.flag(sz)));
    id = L::select(box, bits, id);
  }
  const M cylinder = is(ShapeKind::cylinder);
  if (L::any(cylinder)) {
    const V r = q.ld(b.half[s][0]), h = q.ld(b.half[s][2]);
    // r e_xy/|e_xy|, e_xy scaled first by 2^600 or 2^-600 (exact) where its
    // square would under- or overflow (support.hpp's scaled_to).
    const V big = L::max(L::abs(ex), L::abs(ey));
    const V scale = L::select(L::lt(big, L::set(0x1p-500)), L::set(0x1p600),
                              L::select(L::gt(big, L::set(0x1p500)), L::set(0x1p-600), L::set(1.0)));
    const V ux = L::mul(scale, ex), uy = L::mul(scale, ey);
    const V k = L::div(r, L::sqrt(L::add(L::mul(ux, ux), L::mul(uy, uy))));
    const M side = L::gt(big, zero);
    bx = L::select(cylinder, L::select(side, L::mul(k, ux), zero), bx);
    by = L::select(cylinder, L::select(side, L::mul(k, uy), zero), by);
    bz = L::select(cylinder, L::select(L::gt(ez, zero), h, L::select(L::lt(ez, zero), q.neg(h), zero)), bz);
    id = L::select(cylinder, L::set(static_cast<double>(no_vertex)), id);
  }
  const M polytope = is(ShapeKind::polytope);
  if (L::any(polytope)) {
    constexpr std::size_t K = B::kLanes;
    const double* rows = b.vertices[s];
    if constexpr (K == 1) {
      // One pair (gjk(), on plain doubles): its rows are the polytope's own
      // Vec3 array, scanned by polytope_support(), which never branches on
      // the comparisons (selects: the winner is unpredictable).
      const SupportPoint p = polytope_support(reinterpret_cast<const Vec3*>(rows),
                                              static_cast<std::size_t>(b.last[s][0]) + 1, {ex, ey, ez});
      bx = L::select(polytope, p.point.x, bx);
      by = L::select(polytope, p.point.y, by);
      bz = L::select(polytope, p.point.z, bz);
      id = L::select(polytope, static_cast<double>(p.vertex), id);
    } else {
      // A scan over the batch's rows (a polytope with fewer vertices repeats
      // its last, never strictly better): the first vertex of largest e . p,
      // as polytope_support() finds it, its coordinates selected along
      // (scalar copies of the winners stalled on store forwarding).
      V best = zero, found = zero, fx = zero, fy = zero, fz = zero;
      for (std::size_t i = 0; i < q.rows[s]; ++i) {
        const double* row = rows + 3 * K * i;
        const V x = q.ld(row), y = q.ld(row + K), z = q.ld(row + 2 * K);
        const V dot = dot3<L>(x, y, z, ex, ey, ez);
        const M take = i == 0 ? polytope : L::both(polytope, L::gt(dot, best));
        best = L::select(take, dot, best);
        found = L::select(take, L::set(static_cast<double>(i)), found);
        fx = L::select(take, x, fx);
        fy = L::select(take, y, fy);
        fz = L::select(take, z, fz);
      }
      bx = L::select(polytope, fx, bx);
      by = L::select(polytope, fy, by);
      bz = L::select(polytope, fz, bz);
      id = L::select(polytope, found, id);
    }
  }
  const auto& x = b.x[s];
  px = L::add(L::add(L::add(L::mul(q.ld(R[0]), bx), L::mul(q.ld(R[1]), by)), L::mul(q.ld(R[2]), bz)), q.ld(x[0]));
  py = L::add(L::add(L::add(L::mul(q.ld(R[3]), bx), L::mul(q.ld(R[4]), by)), L::mul(q.ld(R[5]), bz)), q.ld(x[1]));
  pz = L::add(L::add(L::add(L::mul(q.ld(R[6]), bx), L::mul(q.ld(R[7]), by)), L::mul(q.ld(R[8]), bz)), q.ld(x[2]));
  const M sphere = is(ShapeKind::sphere), capsule = is(ShapeKind::capsule);
  if (L::any(L::either(sphere, capsule))) {
    const M upper = L::both(capsule, L::gt(ez, zero));
    const M lower = L::but_not(L::either(sphere, capsule), upper);
    const auto& e0 = b.end0[s];
    const auto& e1 = b.end1[s];
    px = L::select(upper, q.ld(e1[0]), L::select(lower, q.ld(e0[0]), px));
    py = L::select(upper, q.ld(e1[1]), L::select(lower, q.ld(e0[1]), py));
    pz = L::select(upper, q.ld(e1[2]), L::select(lower, q.ld(e0[2]), pz));
    id = L::select(upper, L::set(1.0), L::select(lower, zero, id));
  }
}

/// Slot 4 := the support point of A - B along -d: a = S_A(-d), b = S_B(d),
/// w = a - b (the point of least d . w).
template <class L, class B>
void support_pair(const Lane<L, B>& q, typename L::M m, typename L::V dx, typename L::V dy, typename L::V dz) {
  using V = typename L::V;
  auto& b = q.b;
  V ax, ay, az, ia, bx, by, bz, ib;
  support(q, m, 0, q.neg(dx), q.neg(dy), q.neg(dz), ax, ay, az, ia);
  support(q, m, 1, dx, dy, dz, bx, by, bz, ib);
  q.put(m, ax, b.a[4][0]);
  q.put(m, ay, b.a[4][1]);
  q.put(m, az, b.a[4][2]);
  q.put(m, bx, b.b[4][0]);
  q.put(m, by, b.b[4][1]);
  q.put(m, bz, b.b[4][2]);
  q.put(m, L::sub(ax, bx), b.w[4][0]);
  q.put(m, L::sub(ay, by), b.w[4][1]);
  q.put(m, L::sub(az, bz), b.w[4][2]);
  q.put(m, ia, b.ia[4]);
  q.put(m, ib, b.ib[4]);
}

/// Slot `to` := slot `from`.
template <class L, class B>
void copy_slot(const Lane<L, B>& q, typename L::M m, int from, int to) {
  auto& b = q.b;
  for (int k = 0; k < 3; ++k) {
    q.put(m, q.ld(b.w[from][k]), b.w[to][k]);
    q.put(m, q.ld(b.a[from][k]), b.a[to][k]);
    q.put(m, q.ld(b.b[from][k]), b.b[to][k]);
  }
  q.put(m, q.ld(b.ia[from]), b.ia[to]);
  q.put(m, q.ld(b.ib[from]), b.ib[to]);
}

/// The plane normal to u (of norm un) through the support point w = slot 4
/// bounds all of A - B at u . w / un along u: the best bound is kept.
template <class L, class B>
void raise_bound(const Lane<L, B>& q, typename L::M m, typename L::V ux, typename L::V uy, typename L::V uz,
                 typename L::V un) {
  auto& b = q.b;
  const typename L::V bound = L::div(dot3<L>(ux, uy, uz, q.ld(b.w[4][0]), q.ld(b.w[4][1]), q.ld(b.w[4][2])), un);
  const typename L::M better = L::both(m, L::gt(bound, q.ld(b.lb)));
  q.put(better, bound, b.lb);
  q.put(better, ux, b.lb_dir[0]);
  q.put(better, uy, b.lb_dir[1]);
  q.put(better, uz, b.lb_dir[2]);
  q.put(better, un, b.lb_norm);
}

/// The simplex := b.out (the reduction's result) on the lanes of m, its
/// kept slots moved to the front in their order (slot k takes the (k+1)-th
/// kept one): a simplex of n vertices holds slots 0 to n-1, so a vector's
/// lanes share one sub-simplex of each size in the next reduction.
template <class L, class B>
void commit(const Lane<L, B>& q, typename L::M m) {
  using V = typename L::V;
  using M = typename L::M;
  auto& b = q.b;
  const V k0 = q.ld(b.out.in[0]), k1 = q.ld(b.out.in[1]), k2 = q.ld(b.out.in[2]), k3 = q.ld(b.out.in[3]);
  const V c1 = L::add(k0, k1), c2 = L::add(c1, k2), n = L::add(c2, k3);  // kept slots up to s
  const V one = L::set(1.0), two = L::set(2.0);
  // f_ks: slot s moves to slot k < s (it is kept, with k kept before it).
  const M f01 = L::both(q.on(k1), q.eq(c1, one)), f02 = L::both(q.on(k2), q.eq(c2, one));
  const M f03 = L::both(q.on(k3), q.eq(n, one)), f12 = L::both(q.on(k2), q.eq(c2, two));
  const M f13 = L::both(q.on(k3), q.eq(n, two)), f23 = L::both(q.on(k3), q.eq(n, L::set(3.0)));
  const auto front = [&](M move, auto row) {  // row(s): a field of slot s
    const V x0 = L::select(f03, q.ld(row(3)), L::select(f02, q.ld(row(2)), L::select(f01, q.ld(row(1)), q.ld(row(0)))));
    const V x1 = L::select(f13, q.ld(row(3)), L::select(f12, q.ld(row(2)), q.ld(row(1))));
    const V x2 = L::select(f23, q.ld(row(3)), q.ld(row(2)));
    q.put(move, x0, row(0));
    q.put(move, x1, row(1));
    q.put(move, x2, row(2));
  };
  const M move = L::both(m, L::either(L::either(L::either(f01, f02), L::either(f03, f12)), L::either(f13, f23)));
  if (L::any(move)) {
    for (int a = 0; a < 3; ++a) {
      front(move, [&](int s) { return b.w[s][a]; });
      front(move, [&](int s) { return b.a[s][a]; });
      front(move, [&](int s) { return b.b[s][a]; });
    }
    front(move, [&](int s) { return b.ia[s]; });
    front(move, [&](int s) { return b.ib[s]; });
  }
  for (int s = 0; s < 4; ++s) {
    q.put(m, q.ld(b.out.lambda[s]), b.lambda[s]);
    q.put(m, q.flag(L::gt(n, L::set(static_cast<double>(s)))), b.in[s]);
  }
  front(m, [&](int s) { return b.lambda[s]; });
  q.put(m, L::select(q.eq(n, L::set(4.0)), q.ld(b.lambda[3]), L::set(0.0)), b.lambda[3]);
  const V vx = q.ld(b.out.v[0]), vy = q.ld(b.out.v[1]), vz = q.ld(b.out.v[2]);
  q.put(m, vx, b.v[0]);
  q.put(m, vy, b.v[1]);
  q.put(m, vz, b.v[2]);
  const V vv = L::select(q.eq(n, L::set(4.0)), L::set(0.0), q.ld(b.out.vv));
  q.put(m, vv, b.vv);
  const M moved = L::both(m, L::gt(vv, L::set(0.0)));  // the last direction worth a warm start
  q.put(moved, vx, b.last_dir[0]);
  q.put(moved, vy, b.last_dir[1]);
  q.put(moved, vz, b.last_dir[2]);
}

/// Stalled on rounding. A segment between two edges (a diagonal of their
/// face of A - B) has v tilted off the face's normal by the rounding of its
/// points over |v|: the bound is tried along the normal itself, the edges'
/// cross product. `d` = |v|.
template <class L, class B>
void stall_step(const Lane<L, B>& q, typename L::M m, typename L::V d) {
  using V = typename L::V;
  using M = typename L::M;
  auto& b = q.b;
  // A two-vertex simplex holds slots 0 and 1 (commit() keeps it packed).
  const M ids_differ = L::but_not(q.no(q.eq(q.ld(b.ia[0]), q.ld(b.ia[1]))), q.eq(q.ld(b.ib[0]), q.ld(b.ib[1])));
  M e = L::both(L::both(m, q.eq(slots_in(q, b.in), L::set(2.0))),
                L::both(ids_differ, L::lt(q.ld(b.iterations), q.ld(b.max_iterations))));
  if (!L::any(e)) return;
  const auto edge_a = [&](int k) { return L::sub(q.ld(b.a[1][k]), q.ld(b.a[0][k])); };
  const auto edge_b = [&](int k) { return L::sub(q.ld(b.b[1][k]), q.ld(b.b[0][k])); };
  V nx, ny, nz;
  cross3<L>(edge_a(0), edge_a(1), edge_a(2), edge_b(0), edge_b(1), edge_b(2), nx, ny, nz);
  const V nn = dot3<L>(nx, ny, nz, nx, ny, nz);
  e = L::both(e, L::gt(nn, L::set(0.0)));
  if (!L::any(e)) return;
  const M flip = L::lt(dot3<L>(nx, ny, nz, q.ld(b.v[0]), q.ld(b.v[1]), q.ld(b.v[2])), L::set(0.0));
  nx = L::select(flip, q.neg(nx), nx);
  ny = L::select(flip, q.neg(ny), ny);
  nz = L::select(flip, q.neg(nz), nz);
  support_pair(q, e, nx, ny, nz);
  q.put(e, L::add(q.ld(b.iterations), L::set(1.0)), b.iterations);
  raise_bound(q, e, nx, ny, nz, L::sqrt(nn));
  const M closed = L::le(L::sub(d, q.ld(b.lb)), L::mul(L::set(0.25), q.ld(b.tau)));
  q.put(e, q.flag(closed), b.converged);
}

/// Lanes [q.o, q.o + L::lanes()) from the start (a warm simplex where a
/// slot is in, else the cold direction `start`) to the end: |v| <= margin +
/// tau/2 (intersecting; b.hit2 is its square), a gap |v| - v . w/|v| of at
/// most tau/4 (converged), a plane beyond `apart` (an intersection test's
/// early out), the iteration cap, or a stall.
template <class L, class B>
void run_lanes(const Lane<L, B>& q) {
  using V = typename L::V;
  using M = typename L::M;
  auto& b = q.b;
  const V zero = L::set(0.0), one = L::set(1.0);
  const auto count = [&] { return slots_in(q, b.in); };
  M active = q.on(q.ld(b.live));
  const M warm = L::both(active, L::gt(count(), zero));
  if (L::any(warm)) {
    reduce(q, warm);
    commit(q, warm);
  }
  const M cold = L::but_not(active, warm);
  if (L::any(cold)) {
    support_pair(q, cold, q.ld(b.start[0]), q.ld(b.start[1]), q.ld(b.start[2]));
    copy_slot(q, cold, 4, 0);
    for (int s = 0; s < 4; ++s) {
      q.put(cold, s == 0 ? one : zero, b.in[s]);
      q.put(cold, s == 0 ? one : zero, b.lambda[s]);
    }
    const V wx = q.ld(b.w[0][0]), wy = q.ld(b.w[0][1]), wz = q.ld(b.w[0][2]);
    q.put(cold, wx, b.v[0]);
    q.put(cold, wy, b.v[1]);
    q.put(cold, wz, b.v[2]);
    q.put(cold, dot3<L>(wx, wy, wz, wx, wy, wz), b.vv);
    q.put(cold, one, b.iterations);
  }
  for (int k = 0; k < 3; ++k) q.put(active, q.ld(b.v[k]), b.last_dir[k]);
  for (;;) {
    const M hit = L::both(active, L::either(q.eq(count(), L::set(4.0)), L::le(q.ld(b.vv), q.ld(b.hit2))));
    q.put(hit, one, b.converged);
    active = L::but_not(L::but_not(active, hit), L::ge(q.ld(b.iterations), q.ld(b.max_iterations)));
    if (!L::any(active)) return;
    const V vx = q.ld(b.v[0]), vy = q.ld(b.v[1]), vz = q.ld(b.v[2]), vv = q.ld(b.vv);
    support_pair(q, active, vx, vy, vz);
    q.put(active, L::add(q.ld(b.iterations), one), b.iterations);
    const V d = L::sqrt(vv);
    raise_bound(q, active, vx, vy, vz, d);
    const V lb = q.ld(b.lb);
    const M closed = L::both(active, L::le(L::sub(d, lb), L::mul(L::set(0.25), q.ld(b.tau))));
    q.put(closed, one, b.converged);
    active = L::but_not(L::but_not(active, closed), L::gt(lb, q.ld(b.apart)));
    // A support point already in the simplex: no progress possible.
    const V wx = q.ld(b.w[4][0]), wy = q.ld(b.w[4][1]), wz = q.ld(b.w[4][2]);
    const auto held_in = [&](int s) {
      return L::both(q.on(q.ld(b.in[s])),
                     L::both(q.eq(q.ld(b.w[s][0]), wx), L::both(q.eq(q.ld(b.w[s][1]), wy), q.eq(q.ld(b.w[s][2]), wz))));
    };
    const M held = L::both(active, L::either(L::either(held_in(0), held_in(1)), L::either(held_in(2), held_in(3))));
    const M grow = L::but_not(active, held);
    M stalled = held;
    if (L::any(grow)) {
      // The new point takes the slot after the simplex's.
      const V n = count();
      const auto take = [&](int s) {
        const M f = L::both(grow, q.eq(n, L::set(static_cast<double>(s))));
        if (!L::any(f)) return;
        copy_slot(q, f, 4, s);
        q.put(f, one, b.in[s]);
      };
      take(0);
      take(1);
      take(2);
      take(3);
      reduce(q, grow);
      const V kept = slots_in(q, b.out.in);
      // No progress: the previous simplex stays.
      const M fail = L::but_not(L::both(grow, L::lt(kept, L::set(4.0))), L::lt(q.ld(b.out.vv), vv));
      for (int s = 0; s < 4; ++s) q.put(L::both(fail, q.eq(n, L::set(static_cast<double>(s)))), zero, b.in[s]);
      commit(q, L::but_not(grow, fail));
      stalled = L::either(stalled, fail);
    }
    if (L::any(stalled)) {
      stall_step(q, stalled, d);
      active = L::but_not(active, stalled);
    }
  }
}

/// Every live lane of the batch, L::lanes() at a time.
template <class L, std::size_t K>
void gjk_lanes(GjkLanes<K>& b) {
  for (std::size_t o = 0; o < K; o += L::lanes()) {
    Lane<L, GjkLanes<K>> q{b, o, {1, 1}};
    for (int s = 0; s < 2; ++s) {
      for (std::size_t l = o; l < o + L::lanes(); ++l) {
        if (b.live[l] > 0) q.rows[s] = std::max(q.rows[s], static_cast<std::size_t>(b.last[s][l]) + 1);
      }
      q.rows[s] = std::min(q.rows[s], b.rows[s]);
    }
    run_lanes(q);
  }
}

}  // namespace simdccd::convex::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_CONVEX_GJK_KERNEL_INL_H_ toggle
