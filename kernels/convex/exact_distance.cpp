// The exact judge of GJK (convex/exact_distance.hpp; docs/convex_exact.md):
// exact hulls by brute force over point triples, the separating axis test on
// facet normals and edge cross products (and the extra axes of flat, linear
// and point hulls), then the least distance over vertex-cover and edge-edge
// feature pairs. Every sign and every pruning decision is taken in double
// only when a proven error bound allows; otherwise in mpq.
#include "simdccd/convex/exact_distance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "convex/exact_sqrt.hpp"

namespace simdccd::convex {
namespace {

constexpr double kU = 0x1p-53;           // the unit roundoff
constexpr double kUp = 1 + 0x1p-48;      // covers the rounding of a few nonnegative operations on a bound
constexpr double kWide = 1 + 0x1p-40;    // the same, with room for one more rounding of the bounded value
constexpr double kSlack = 0x1p-1000;     // covers underflow in any bound (far below every value that matters)
constexpr double kInf = std::numeric_limits<double>::infinity();

using Q3 = ExactPoint;

// ---------------------------------------------------------------------------
// Doubles with a proven error bound: |exact - v| <= e; e == 0 means v is exact.

struct Bounded {
  double v = 0, e = 0;
};

// a - b with its exact rounding error (Knuth's TwoSum: exact for finite doubles).
Bounded diff(double a, double b) {
  const double s = a - b;
  const double bb = s - a;
  const double err = (a - (s - bb)) + (-b - bb);
  return {s, std::fabs(err)};
}

Bounded sub(const Bounded& a, const Bounded& b) {
  const Bounded d = diff(a.v, b.v);
  if (a.e == 0 && b.e == 0) return d;
  return {d.v, (a.e + b.e + d.e) * kUp + kSlack};
}

Bounded mul(const Bounded& a, const Bounded& b) {
  if ((a.v == 0 && a.e == 0) || (b.v == 0 && b.e == 0)) return {0, 0};
  const double p = a.v * b.v;
  const double r = std::fma(a.v, b.v, -p);  // exact error of p unless p is near underflow
  if (a.e == 0 && b.e == 0 && std::fabs(p) >= 0x1p-900) return {p, std::fabs(r)};
  const double e = std::fabs(a.v) * b.e + std::fabs(b.v) * a.e + a.e * b.e + std::fabs(r);
  return {p, e * kUp + kSlack};
}

struct B3 {
  Bounded x, y, z;
};

B3 diff3(const Vec3& p, const Vec3& q) { return {diff(p.x, q.x), diff(p.y, q.y), diff(p.z, q.z)}; }

B3 cross(const B3& a, const B3& b) {
  return {sub(mul(a.y, b.z), mul(a.z, b.y)), sub(mul(a.z, b.x), mul(a.x, b.z)),
          sub(mul(a.x, b.y), mul(a.y, b.x))};
}

Bounded add(const Bounded& a, const Bounded& b) { return sub(a, {-b.v, b.e}); }

Bounded dot(const B3& a, const B3& b) { return add(add(mul(a.x, b.x), mul(a.y, b.y)), mul(a.z, b.z)); }

// The sign of an exact value when the bound decides it; 2 otherwise.
int certain_sign(const Bounded& x) {
  if (x.v > x.e) return 1;
  if (-x.v > x.e) return -1;
  if (x.v == 0 && x.e == 0) return 0;
  return 2;
}

// ---------------------------------------------------------------------------
// Exact rationals.

Q3 to_q(const Vec3& p) { return {mpq_class(p.x), mpq_class(p.y), mpq_class(p.z)}; }
Q3 qsub(const Q3& a, const Q3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Q3 qcross(const Q3& a, const Q3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
mpq_class qdot(const Q3& a, const Q3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
bool qzero(const Q3& a) { return sgn(a[0]) == 0 && sgn(a[1]) == 0 && sgn(a[2]) == 0; }

// ---------------------------------------------------------------------------
// Axes: the direction (u1 - u0) x (v1 - v0) of four doubles (a facet normal
// when u0 = v0, an edge-edge cross product otherwise), in double with a
// componentwise error bound ne: each difference is off by at most u of
// itself, each product then by 3.01u, the subtraction adds u of the result,
// so 4.01u (|x| + |y|) bounds component x - y (5u and kUp cover it; the
// slack, underflow).

struct Axis {
  Vec3 u0, u1, v0, v1;
  double n[3], ne[3];
};

Axis make_axis(const Vec3& u0, const Vec3& u1, const Vec3& v0, const Vec3& v1) {
  Axis ax{u0, u1, v0, v1, {}, {}};
  const double u[3] = {u1.x - u0.x, u1.y - u0.y, u1.z - u0.z};
  const double v[3] = {v1.x - v0.x, v1.y - v0.y, v1.z - v0.z};
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const double x = u[i] * v[j], y = u[j] * v[i];
    ax.n[k] = x - y;
    ax.ne[k] = 5 * kU * (std::fabs(x) + std::fabs(y)) * kUp + kSlack;
  }
  return ax;
}

// The direction with a running bound (zero error when all is exact).
B3 bounded_direction(const Axis& ax) { return cross(diff3(ax.u1, ax.u0), diff3(ax.v1, ax.v0)); }

Q3 exact_direction(const Axis& ax) {
  return qcross(qsub(to_q(ax.u1), to_q(ax.u0)), qsub(to_q(ax.v1), to_q(ax.v0)));
}

bool certainly_nonzero(const Axis& ax) {
  return std::fabs(ax.n[0]) > ax.ne[0] || std::fabs(ax.n[1]) > ax.ne[1] || std::fabs(ax.n[2]) > ax.ne[2];
}

bool exactly_zero(const B3& n) {
  return n.x.v == 0 && n.x.e == 0 && n.y.v == 0 && n.y.e == 0 && n.z.v == 0 && n.z.e == 0;
}

struct Range {
  double lo, hi;  // lo <= the exact value <= hi
};

// N.(d - o) for the exact direction N of `ax`: with w = fl(d - o) and the
// computed dot N~.w, the error is at most (1 + 2u) sum ne_k |w_k| (the
// direction's error) + (u + gamma_3) sum |N~_k| |w_k| (the difference and
// the dot), which 6u and kWide cover; 2^-50 |v| covers rounding v -+ bound.
Range project(const Axis& ax, const Vec3& o, const Vec3& d) {
  const double w0 = d.x - o.x, w1 = d.y - o.y, w2 = d.z - o.z;
  const double v = ax.n[0] * w0 + ax.n[1] * w1 + ax.n[2] * w2;
  const double aw0 = std::fabs(w0), aw1 = std::fabs(w1), aw2 = std::fabs(w2);
  const double err = ax.ne[0] * aw0 + ax.ne[1] * aw1 + ax.ne[2] * aw2;
  const double mag = std::fabs(ax.n[0]) * aw0 + std::fabs(ax.n[1]) * aw1 + std::fabs(ax.n[2]) * aw2;
  const double bound = (err + 6 * kU * mag) * kWide + 0x1p-50 * std::fabs(v) + kSlack;
  return {v - bound, v + bound};
}

// The exact sign of N.(d - o): the quick range, then the running bound, then mpq.
int side(const Axis& ax, const Vec3& o, const Vec3& d) {
  const Range r = project(ax, o, d);
  if (r.lo > 0) return 1;
  if (r.hi < 0) return -1;
  const int s = certain_sign(dot(bounded_direction(ax), diff3(d, o)));
  if (s != 2) return s;
  return sgn(qdot(exact_direction(ax), qsub(to_q(d), to_q(o))));
}

// Component k of (b - a) x (c - a), exactly.
int cross_component_sign(const Vec3& a, const Vec3& b, const Vec3& c, int k) {
  const B3 u = diff3(b, a), v = diff3(c, a);
  const Bounded* uc[3] = {&u.x, &u.y, &u.z};
  const Bounded* vc[3] = {&v.x, &v.y, &v.z};
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  const int s = certain_sign(sub(mul(*uc[i], *vc[j]), mul(*uc[j], *vc[i])));
  if (s != 2) return s;
  const Q3 qa = to_q(a);
  return sgn(qcross(qsub(to_q(b), qa), qsub(to_q(c), qa))[k]);
}

bool collinear(const Vec3& a, const Vec3& b, const Vec3& c) {
  for (int k = 0; k < 3; ++k) {
    if (cross_component_sign(a, b, c, k) != 0) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Hulls.

struct Hull {
  std::span<const Vec3> p;
  int dim = 0;                        ///< of the affine hull: 0 point, 1 segment, 2 polygon, 3 solid
  std::vector<int> verts;             ///< a superset of the extreme points, all on the boundary
  std::vector<std::array<int, 2>> edges;  ///< a superset of the hull edges, all on the boundary
  /// Triangles whose union is the boundary (dim 3: facet triangles, the
  /// other points on the nonpositive side of `planes`) or the polygon (dim 2);
  /// dim 1: the segment as {lo, hi, hi}; dim 0: {0, 0, 0}.
  std::vector<std::array<int, 3>> cover;
  int cover_size = 1;                 ///< points per cover item: 1, 2 or 3
  std::vector<Axis> planes;           ///< dim 3: one per facet triangle; dim 2: the polygon's plane
  std::array<int, 4> basis{};         ///< an affine basis: dim + 1 point indices
};

Hull build_hull(std::span<const Vec3> p) {
  Hull h;
  h.p = p;
  const int n = static_cast<int>(p.size());
  int i1 = -1, i2 = -1, i3 = -1;
  for (int i = 1; i < n && i1 < 0; ++i) {
    if (p[i] != p[0]) i1 = i;
  }
  if (i1 < 0) {
    h.verts = {0};
    h.cover = {{0, 0, 0}};
    return h;
  }
  for (int i = i1 + 1; i < n && i2 < 0; ++i) {
    if (!collinear(p[0], p[i1], p[i])) i2 = i;
  }
  if (i2 < 0) {  // a segment: the extremes along a coordinate where the points differ
    h.dim = 1;
    h.basis = {0, i1, 0, 0};
    const int k = p[i1].x != p[0].x ? 0 : p[i1].y != p[0].y ? 1 : 2;
    auto coord = [&](int i) { return k == 0 ? p[i].x : k == 1 ? p[i].y : p[i].z; };
    int lo = 0, hi = 0;
    for (int i = 1; i < n; ++i) {
      if (coord(i) < coord(lo)) lo = i;
      if (coord(i) > coord(hi)) hi = i;
    }
    h.verts = {lo, hi};
    h.edges = {{lo, hi}};
    h.cover = {{lo, hi, hi}};
    h.cover_size = 2;
    return h;
  }
  const Axis plane0 = make_axis(p[0], p[i1], p[0], p[i2]);
  for (int i = i2 + 1; i < n && i3 < 0; ++i) {
    if (side(plane0, p[0], p[i]) != 0) i3 = i;
  }
  std::vector<char> is_vert(n, 0), is_edge(static_cast<std::size_t>(n) * n, 0);
  auto add_edge = [&](int i, int j) {
    if (i > j) std::swap(i, j);
    char& seen = is_edge[static_cast<std::size_t>(i) * n + j];
    if (!seen) h.edges.push_back({i, j});
    seen = 1;
    is_vert[i] = is_vert[j] = 1;
  };
  h.cover_size = 3;
  if (i3 < 0) {  // a polygon: orientation in it is component k of the cross product (normal_k != 0)
    h.dim = 2;
    h.basis = {0, i1, i2, 0};
    h.planes = {plane0};
    const Q3 normal = exact_direction(plane0);
    int k = 0;
    for (int c = 1; c < 3; ++c) {
      if (sgn(normal[k]) == 0) k = c;
    }
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (p[i] == p[j]) continue;
        int seen = 0;
        bool boundary = true;
        for (int l = 0; l < n && boundary; ++l) {
          if (l == i || l == j) continue;
          const int s = cross_component_sign(p[i], p[j], p[l], k);
          if (s == 0) continue;
          if (seen == 0) seen = s;
          boundary = s == seen;
        }
        if (boundary) add_edge(i, j);
      }
    }
    for (const auto& e : h.edges) {  // a fan from point 0 over the boundary edges
      if (cross_component_sign(p[0], p[e[0]], p[e[1]], k) != 0) h.cover.push_back({0, e[0], e[1]});
    }
  } else {
    h.dim = 3;
    h.basis = {0, i1, i2, i3};
    // |fl(p_l - p_i)| <= ext_k on each axis (rounding is monotone), so one
    // bound per triple serves every point: project()'s, with |w_k| <= ext_k.
    double lo[3] = {kInf, kInf, kInf}, hi[3] = {-kInf, -kInf, -kInf};
    for (const Vec3& x : p) {
      const double c[3] = {x.x, x.y, x.z};
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], c[k]);
        hi[k] = std::max(hi[k], c[k]);
      }
    }
    const double ext[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    std::vector<double> xs(n), ys(n), zs(n);
    for (int l = 0; l < n; ++l) {
      xs[l] = p[l].x;
      ys[l] = p[l].y;
      zs[l] = p[l].z;
    }
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        for (int k = j + 1; k < n; ++k) {
          const Axis ax = make_axis(p[i], p[j], p[i], p[k]);
          if (!certainly_nonzero(ax) && collinear(p[i], p[j], p[k])) continue;
          double err = 0, mag = 0;
          for (int c = 0; c < 3; ++c) {
            err += ax.ne[c] * ext[c];
            mag += std::fabs(ax.n[c]) * ext[c];
          }
          const double bound = (err + 6 * kU * mag) * kWide + kSlack;
          const Vec3& o = p[i];
          // Most triples have points certainly on both sides: one branch-free
          // sweep (i, j, k included: their exact value is 0, inside the room).
          double vmin = kInf, vmax = -kInf;
          for (int l = 0; l < n; ++l) {
            const double v = ax.n[0] * (xs[l] - o.x) + ax.n[1] * (ys[l] - o.y) + ax.n[2] * (zs[l] - o.z);
            vmin = std::min(vmin, v);
            vmax = std::max(vmax, v);
          }
          const double room_all = bound + 0x1p-50 * std::max(vmax, -vmin);
          if (vmax > room_all && vmin < -room_all) continue;
          int seen = 0;
          bool facet = true;
          for (int l = 0; l < n && facet; ++l) {
            if (l == i || l == j || l == k) continue;
            const Vec3& d = p[l];
            const double v = ax.n[0] * (d.x - o.x) + ax.n[1] * (d.y - o.y) + ax.n[2] * (d.z - o.z);
            const double room = bound + 0x1p-50 * std::fabs(v);
            const int s = v > room ? 1 : v < -room ? -1 : side(ax, o, d);
            if (s == 0) continue;
            if (seen == 0) seen = s;
            facet = s == seen;
          }
          if (!facet) continue;
          // Orient outward: the other points on the nonpositive side (seen != 0 in 3D).
          if (seen > 0) {
            h.cover.push_back({i, k, j});
            h.planes.push_back(make_axis(p[i], p[k], p[i], p[j]));
          } else {
            h.cover.push_back({i, j, k});
            h.planes.push_back(ax);
          }
          add_edge(i, j);
          add_edge(j, k);
          add_edge(i, k);
        }
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    if (is_vert[i]) h.verts.push_back(i);
  }
  return h;
}

// ---------------------------------------------------------------------------
// Intersection: separating axes.

bool exact_separates(const Q3& axis, const Hull& a, const Hull& b) {
  if (qzero(axis)) return false;
  auto extremes = [&](const Hull& h, mpq_class& lo, mpq_class& hi) {
    bool first = true;
    for (int v : h.verts) {
      mpq_class x = qdot(axis, to_q(h.p[v]));
      if (first || x < lo) lo = x;
      if (first || x > hi) hi = x;
      first = false;
    }
  };
  mpq_class alo, ahi, blo, bhi;
  extremes(a, alo, ahi);
  extremes(b, blo, bhi);
  return ahi < blo || bhi < alo;
}

// Whether the exact direction of `ax` strictly separates the hulls (either way).
bool separates(const Axis& ax, const Hull& a, const Hull& b) {
  const Vec3& o = a.p[a.verts[0]];
  struct Ends {
    double max_lo = -kInf, max_hi = -kInf, min_lo = kInf, min_hi = kInf;
  };
  auto ends = [&](const Hull& h) {
    Ends e;
    for (int v : h.verts) {
      const Range r = project(ax, o, h.p[v]);
      e.max_lo = std::max(e.max_lo, r.lo);
      e.max_hi = std::max(e.max_hi, r.hi);
      e.min_lo = std::min(e.min_lo, r.lo);
      e.min_hi = std::min(e.min_hi, r.hi);
    }
    return e;
  };
  const Ends ea = ends(a), eb = ends(b);
  if (ea.max_hi < eb.min_lo || eb.max_hi < ea.min_lo) return true;
  // Certainly not: some a at or above some b, and some b at or above some a.
  if (ea.max_lo >= eb.min_hi && eb.max_lo >= ea.min_hi) return false;
  if (exactly_zero(bounded_direction(ax))) return false;  // parallel edges
  return exact_separates(exact_direction(ax), a, b);
}

bool boxes_apart(const Hull& a, const Hull& b) {
  auto box = [](const Hull& h, double (&lo)[3], double (&hi)[3]) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = kInf;
      hi[k] = -kInf;
    }
    for (int v : h.verts) {
      const double c[3] = {h.p[v].x, h.p[v].y, h.p[v].z};
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], c[k]);
        hi[k] = std::max(hi[k], c[k]);
      }
    }
  };
  double alo[3], ahi[3], blo[3], bhi[3];
  box(a, alo, ahi);
  box(b, blo, bhi);
  for (int k = 0; k < 3; ++k) {
    if (ahi[k] < blo[k] || bhi[k] < alo[k]) return true;
  }
  return false;
}

// Whether some listed point of `a` lies in the closed solid `b` (dim 3).
bool vertex_inside(const Hull& a, const Hull& b) {
  for (int v : a.verts) {
    const Vec3& x = a.p[v];
    bool inside = true;
    for (std::size_t f = 0; f < b.planes.size() && inside; ++f) {
      const Vec3& o = b.p[b.cover[f][0]];
      const Range r = project(b.planes[f], o, x);
      if (r.lo > 0) inside = false;
      else if (r.hi > 0) inside = side(b.planes[f], o, x) <= 0;
    }
    if (inside) return true;
  }
  return false;
}

// The dimension of span(affine directions of a and b), with a normal of the
// span (rank 2) or a direction of it (rank 1).
int span_rank(const Hull& a, const Hull& b, Q3& dir) {
  if (a.dim == 3 || b.dim == 3) return 3;
  std::vector<Q3> gens;
  for (const Hull* h : {&a, &b}) {
    for (int i = 1; i <= h->dim; ++i) gens.push_back(qsub(to_q(h->p[h->basis[i]]), to_q(h->p[h->basis[0]])));
  }
  for (std::size_t i = 0; i < gens.size(); ++i) {
    for (std::size_t j = i + 1; j < gens.size(); ++j) {
      const Q3 n = qcross(gens[i], gens[j]);
      if (qzero(n)) continue;
      for (const Q3& g : gens) {
        if (sgn(qdot(n, g)) != 0) return 3;
      }
      dir = n;
      return 2;
    }
  }
  for (const Q3& g : gens) {
    if (!qzero(g)) {
      dir = g;
      return 1;
    }
  }
  return 0;
}

bool hulls_intersect(const Hull& a, const Hull& b) {
  if (boxes_apart(a, b)) return false;
  if ((b.dim == 3 && vertex_inside(a, b)) || (a.dim == 3 && vertex_inside(b, a))) return true;
  Q3 dir;
  const int rank = span_rank(a, b, dir);
  if (rank == 3) {  // the facets of the solid a - b: normals of 2-faces of a or b, or edge x edge
    for (const Axis& ax : a.planes) {
      if (separates(ax, a, b)) return false;
    }
    for (const Axis& ax : b.planes) {
      if (separates(ax, a, b)) return false;
    }
    for (const auto& ea : a.edges) {
      for (const auto& eb : b.edges) {
        if (separates(make_axis(a.p[ea[0]], a.p[ea[1]], b.p[eb[0]], b.p[eb[1]]), a, b)) return false;
      }
    }
    return true;
  }
  const Q3 a0 = to_q(a.p[a.basis[0]]), b0 = to_q(b.p[b.basis[0]]);
  if (rank == 0) return a0 == b0;
  if (rank == 1) {  // a - b on a line: off the origin's line, or beside it along the line
    const Q3 w = qsub(a0, b0);
    return !exact_separates(dir, a, b) && !exact_separates(qcross(dir, qcross(w, dir)), a, b);
  }
  // rank 2, a - b a polygon with normal dir: the normal, then in-plane edge normals
  if (exact_separates(dir, a, b)) return false;
  for (const Hull* h : {&a, &b}) {
    for (const auto& e : h->edges) {
      if (exact_separates(qcross(dir, qsub(to_q(h->p[e[1]]), to_q(h->p[e[0]]))), a, b)) return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// Distance: closest points of feature pairs, generic over double and mpq.

template <class T>
struct V {
  T x, y, z;
};
template <class T>
V<T> operator-(const V<T>& a, const V<T>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class T>
V<T> along(const V<T>& a, const V<T>& e, const T& s) {  // a + s e
  return {a.x + s * e.x, a.y + s * e.y, a.z + s * e.z};
}
template <class T>
T vdot(const V<T>& a, const V<T>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class T>
V<T> vcross(const V<T>& a, const V<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// Closest points p on the first feature, q on the second; d2 = |q - p|^2.
template <class T>
struct Pair {
  V<T> p, q;
  T d2;
};

template <class T>
Pair<T> swapped(const Pair<T>& r) {
  return {r.q, r.p, r.d2};
}

template <class T>
void keep_nearer(Pair<T>& best, const Pair<T>& r) {
  if (r.d2 < best.d2) best = r;
}

template <class T>
Pair<T> point_point(const V<T>& p, const V<T>& a) {
  const V<T> d = a - p;
  return {p, a, vdot(d, d)};
}

template <class T>
Pair<T> point_segment(const V<T>& p, const V<T>& a, const V<T>& b) {
  const V<T> e = b - a, w = p - a;
  const T ee = vdot(e, e), we = vdot(w, e);
  if (we <= 0) return point_point(p, a);  // also a degenerate segment (ee = we = 0)
  if (we >= ee) return point_point(p, b);
  const V<T> q = along(a, e, T(we / ee));
  const V<T> d = q - p;
  return {p, q, vdot(d, d)};
}

template <class T>
Pair<T> point_triangle(const V<T>& p, const V<T>& a, const V<T>& b, const V<T>& c) {
  const V<T> n = vcross(b - a, c - a);
  const T nn = vdot(n, n);
  // Over the face: on the inner side of each edge (n x edge points inward).
  if (nn > 0 && vdot(vcross(n, b - a), p - a) >= 0 && vdot(vcross(n, c - b), p - b) >= 0 &&
      vdot(vcross(n, a - c), p - c) >= 0) {
    const T h = vdot(n, p - a);
    const T s = -h / nn;
    return {p, along(p, n, s), T(h * h / nn)};
  }
  Pair<T> best = point_segment(p, a, b);
  keep_nearer(best, point_segment(p, b, c));
  keep_nearer(best, point_segment(p, c, a));
  return best;
}

// The distance is a convex quadratic in the two segment parameters: the
// stationary point when it lies in [0, 1]^2, else the least over the sides.
template <class T>
Pair<T> segment_segment(const V<T>& a0, const V<T>& a1, const V<T>& b0, const V<T>& b1) {
  const V<T> da = a1 - a0, db = b1 - b0, m = vcross(da, db);
  const T mm = vdot(m, m);
  if (mm > 0) {
    const V<T> w = b0 - a0;
    const T s = vdot(vcross(w, db), m) / mm, t = vdot(vcross(w, da), m) / mm;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
      const V<T> p = along(a0, da, s), q = along(b0, db, t);
      const V<T> d = q - p;
      return {p, q, vdot(d, d)};
    }
  }
  Pair<T> best = point_segment(a0, b0, b1);
  keep_nearer(best, point_segment(a1, b0, b1));
  keep_nearer(best, swapped(point_segment(b0, a0, a1)));
  keep_nearer(best, swapped(point_segment(b1, a0, a1)));
  return best;
}

template <class T>
Pair<T> point_cover(const V<T>& p, const V<T>* c, int size) {
  if (size == 1) return point_point(p, c[0]);
  if (size == 2) return point_segment(p, c[0], c[1]);
  return point_triangle(p, c[0], c[1], c[2]);
}

V<double> vd(const Vec3& p) { return {p.x, p.y, p.z}; }
V<mpq_class> vq(const Vec3& p) { return {mpq_class(p.x), mpq_class(p.y), mpq_class(p.z)}; }

enum class Kind : std::uint8_t { vertex_cover, cover_vertex, edge_edge };

struct Candidate {
  Kind kind;
  std::uint32_t i, j;  // vertex_cover: a.verts[i], b.cover[j]; cover_vertex: a.cover[i], b.verts[j]; edges
  double approx, lower;
};

// The feature points of a candidate on each side.
struct Features {
  Vec3 a[3], b[3];
  int na, nb;
};

Features features(const Candidate& c, const Hull& a, const Hull& b) {
  Features f{};
  switch (c.kind) {
    case Kind::vertex_cover:
      f.na = 1;
      f.a[0] = a.p[a.verts[c.i]];
      f.nb = b.cover_size;
      for (int k = 0; k < f.nb; ++k) f.b[k] = b.p[b.cover[c.j][k]];
      break;
    case Kind::cover_vertex:
      f.na = a.cover_size;
      for (int k = 0; k < f.na; ++k) f.a[k] = a.p[a.cover[c.i][k]];
      f.nb = 1;
      f.b[0] = b.p[b.verts[c.j]];
      break;
    case Kind::edge_edge:
      f.na = f.nb = 2;
      for (int k = 0; k < 2; ++k) {
        f.a[k] = a.p[a.edges[c.i][k]];
        f.b[k] = b.p[b.edges[c.j][k]];
      }
      break;
  }
  return f;
}

// The squared gap between the features' bounding boxes, roughly (a heuristic).
double box_gap2(const Features& f) {
  double lo[2][3], hi[2][3];
  for (int side = 0; side < 2; ++side) {
    const Vec3* x = side == 0 ? f.a : f.b;
    const int count = side == 0 ? f.na : f.nb;
    for (int k = 0; k < 3; ++k) lo[side][k] = hi[side][k] = k == 0 ? x[0].x : k == 1 ? x[0].y : x[0].z;
    for (int m = 1; m < count; ++m) {
      const double c[3] = {x[m].x, x[m].y, x[m].z};
      for (int k = 0; k < 3; ++k) {
        lo[side][k] = std::min(lo[side][k], c[k]);
        hi[side][k] = std::max(hi[side][k], c[k]);
      }
    }
  }
  double gap2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double gap = std::max({lo[1][k] - hi[0][k], lo[0][k] - hi[1][k], 0.0});
    gap2 += gap * gap;
  }
  return gap2;
}

// The closest pair of a candidate's features, p on a's feature, q on b's.
template <class T, class Convert>
Pair<T> closest(const Features& f, Kind kind, Convert conv) {
  V<T> a[3], b[3];
  for (int k = 0; k < f.na; ++k) a[k] = conv(f.a[k]);
  for (int k = 0; k < f.nb; ++k) b[k] = conv(f.b[k]);
  if (kind == Kind::vertex_cover) return point_cover(a[0], b, f.nb);
  if (kind == Kind::cover_vertex) return swapped(point_cover(b[0], a, f.na));
  return segment_segment(a[0], a[1], b[0], b[1]);
}

// A proven lower bound of the features' squared distance: for any vector n,
// dist >= min over feature points g of b, f of a of n.(g - f) / |n|. With n
// the approximate closest difference this is nearly tight. Each n.(g - f)
// is off by at most (u + gamma_3) sum |n_k| |w_k| (6u and kWide cover it).
double lower_bound(const Features& f, const V<double>& n) {
  const double nn = vdot(n, n);
  if (!(nn > 0)) return 0;
  double sep = kInf;
  for (int i = 0; i < f.na; ++i) {
    for (int j = 0; j < f.nb; ++j) {
      const double w0 = f.b[j].x - f.a[i].x, w1 = f.b[j].y - f.a[i].y, w2 = f.b[j].z - f.a[i].z;
      const double v = n.x * w0 + n.y * w1 + n.z * w2;
      const double mag = std::fabs(n.x * w0) + std::fabs(n.y * w1) + std::fabs(n.z * w2);
      sep = std::min(sep, v - (6 * kU * mag * kWide + 0x1p-50 * std::fabs(v) + kSlack));
    }
  }
  if (!(sep > 0)) return 0;
  const double lb = sep * sep / (nn * kUp + kSlack) * (1 - 0x1p-48) - kSlack;
  return std::max(lb, 0.0);
}

// A double at least the rational x (mpq's get_d truncates toward zero; x >= 0).
double upper_double(const mpq_class& x) { return std::nextafter(x.get_d(), kInf); }

// Whether p on a and q on b are certified closest by the slab between them:
// with n = q - p, n.(x - p) <= 0 for every point x of a and n.(y - q) >= 0
// for every y of b, so no pair is nearer than |n|. The filter: n~ and p~ are
// n and p truncated to doubles (each within 2u of itself, or 2^-1074), w =
// fl(x - p~); n.(x - p) - n~.w is at most 7u sum |n~_k| (|w_k| + |p~_k|) (8u
// and kWide cover it) plus the underflow terms (2^-960 covers them for
// coordinates of at most 2^100).
bool certified_closest(const Pair<mpq_class>& best, const Hull& a, const Hull& b) {
  const V<mpq_class> n = best.q - best.p;
  const double nd[3] = {n.x.get_d(), n.y.get_d(), n.z.get_d()};
  auto holds = [&](const Hull& h, const V<mpq_class>& at, int sign) {
    const double pd[3] = {at.x.get_d(), at.y.get_d(), at.z.get_d()};
    for (int v : h.verts) {
      const Vec3& x = h.p[v];
      const double w[3] = {x.x - pd[0], x.y - pd[1], x.z - pd[2]};
      const double value = sign * (nd[0] * w[0] + nd[1] * w[1] + nd[2] * w[2]);
      double mag = 0;
      for (int k = 0; k < 3; ++k) mag += std::fabs(nd[k]) * (std::fabs(w[k]) + std::fabs(pd[k]));
      const double bound = 8 * kU * mag * kWide + 0x1p-50 * std::fabs(value) + 0x1p-960;
      if (value + bound <= 0) continue;
      if (value - bound > 0) return false;
      const V<mpq_class> d = vq(x) - at;
      if (sign * sgn(vdot(n, d)) > 0) return false;
    }
    return true;
  };
  return holds(a, best.p, 1) && holds(b, best.q, -1);
}

void check_input(std::span<const Vec3> s, const char* name) {
  if (s.empty() || s.size() > exact_max_points) {
    throw std::invalid_argument(std::string("exact_polytope_distance: set ") + name + " must have 1 to " +
                                std::to_string(exact_max_points) + " points");
  }
  if (!exact_accepts(s)) {
    throw std::invalid_argument(std::string("exact_polytope_distance: a coordinate of set ") + name +
                                " is not finite or exceeds 2^100 in magnitude");
  }
}

}  // namespace

bool exact_accepts(std::span<const Vec3> points) {
  if (points.empty() || points.size() > exact_max_points) return false;
  for (const Vec3& p : points) {
    for (double c : {p.x, p.y, p.z}) {
      if (!(std::fabs(c) <= exact_max_magnitude)) return false;
    }
  }
  return true;
}

bool exact_intersecting(std::span<const Vec3> a, std::span<const Vec3> b) {
  check_input(a, "a");
  check_input(b, "b");
  return hulls_intersect(build_hull(a), build_hull(b));
}

ExactPolytopeDistance exact_polytope_distance(std::span<const Vec3> a, std::span<const Vec3> b) {
  check_input(a, "a");
  check_input(b, "b");
  const Hull ha = build_hull(a), hb = build_hull(b);
  ExactPolytopeDistance out;
  if (hulls_intersect(ha, hb)) {
    out.intersecting = true;
    return out;
  }
  // Separate: the distance is attained with a vertex of one hull, or
  // between two edges (docs/convex_exact.md), and no vertex of one lies in
  // the other, so a vertex's distance to the other is its distance to the
  // other's cover.
  std::vector<Candidate> cands;
  const auto na = static_cast<std::uint32_t>(ha.verts.size()), nb = static_cast<std::uint32_t>(hb.verts.size());
  for (std::uint32_t i = 0; i < na; ++i) {
    for (std::uint32_t j = 0; j < hb.cover.size(); ++j) cands.push_back({Kind::vertex_cover, i, j, 0, 0});
  }
  for (std::uint32_t i = 0; i < ha.cover.size(); ++i) {
    for (std::uint32_t j = 0; j < nb; ++j) cands.push_back({Kind::cover_vertex, i, j, 0, 0});
  }
  for (std::uint32_t i = 0; i < ha.edges.size(); ++i) {
    for (std::uint32_t j = 0; j < hb.edges.size(); ++j) cands.push_back({Kind::edge_edge, i, j, 0, 0});
  }
  // The approximately nearest candidate (a heuristic pick: the certificate
  // below or the proven bounds decide): skip those whose features' boxes are
  // already farther apart than the best so far.
  std::size_t first = 0;
  double best_approx = kInf;
  for (std::size_t k = 0; k < cands.size(); ++k) {
    const Features f = features(cands[k], ha, hb);
    cands[k].approx = kInf;
    if (box_gap2(f) >= best_approx) continue;
    cands[k].approx = closest<double>(f, cands[k].kind, vd).d2;
    if (cands[k].approx < best_approx) {
      best_approx = cands[k].approx;
      first = k;
    }
  }
  Pair<mpq_class> best = closest<mpq_class>(features(cands[first], ha, hb), cands[first].kind, vq);
  if (!certified_closest(best, ha, hb)) {
    // Rounding hid the nearest pair (a near tie): every candidate whose
    // proven lower bound does not exceed the best so far, exactly.
    for (Candidate& c : cands) {
      const Features f = features(c, ha, hb);
      const Pair<double> r = closest<double>(f, c.kind, vd);
      c.lower = lower_bound(f, r.q - r.p);
    }
    std::sort(cands.begin(), cands.end(),
              [](const Candidate& x, const Candidate& y) { return x.approx < y.approx; });
    double best_hi = upper_double(best.d2);
    for (const Candidate& c : cands) {
      if (c.lower >= best_hi) continue;  // proven no nearer than the best so far
      Pair<mpq_class> r = closest<mpq_class>(features(c, ha, hb), c.kind, vq);
      if (r.d2 < best.d2) {
        best = std::move(r);
        best_hi = upper_double(best.d2);
      }
    }
  }
  out.squared_distance = best.d2;
  out.distance = sqrt_of(best.d2);
  out.point_a = {best.p.x, best.p.y, best.p.z};
  out.point_b = {best.q.x, best.q.y, best.q.z};
  out.approx_a = {best.p.x.get_d(), best.p.y.get_d(), best.p.z.get_d()};
  out.approx_b = {best.q.x.get_d(), best.q.y.get_d(), best.q.z.get_d()};
  return out;
}

// ---------------------------------------------------------------------------
// Hull boundary triangles (exact_hull_triangles): the facets of build_hull's
// cover, each fanned once over its extreme points.

namespace {

// The extreme points of the coplanar points `ids` in counter-clockwise order
// about a normal whose component k is nonzero with sign `nk` (Jarvis' march
// with exact orientations: a point on the line of the current edge is taken
// only when it lies farther on, so only extreme points come back).
std::vector<int> polygon_ring(std::span<const Vec3> p, std::vector<int> ids, int k, int nk) {
  std::vector<int> unique;  // the first index of each distinct point
  for (int i : ids) {
    bool dup = false;
    for (int j : unique) dup = dup || p[i] == p[j];
    if (!dup) unique.push_back(i);
  }
  auto lex_less = [&](int i, int j) {
    const Vec3 &a = p[i], &b = p[j];
    return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
  };
  // The lexicographic minimum is an extreme point of any finite set.
  const int start = *std::min_element(unique.begin(), unique.end(), lex_less);
  auto orient = [&](int a, int b, int c) { return nk * cross_component_sign(p[a], p[b], p[c], k); };
  // q beyond c on the ray from o (the three points collinear, c != o): compare
  // on the coordinate where c - o is largest, exactly (doubles compare exactly).
  auto farther = [&](int o, int c, int q) {
    const double d[3] = {p[c].x - p[o].x, p[c].y - p[o].y, p[c].z - p[o].z};
    int j = 0;
    for (int m = 1; m < 3; ++m) {
      if (std::fabs(d[m]) > std::fabs(d[j])) j = m;
    }
    const double cq = j == 0 ? p[q].x - p[c].x : j == 1 ? p[q].y - p[c].y : p[q].z - p[c].z;
    const double oc = j == 0 ? p[c].x - p[o].x : j == 1 ? p[c].y - p[o].y : p[c].z - p[o].z;
    return (oc > 0 && cq > 0) || (oc < 0 && cq < 0);
  };
  std::vector<int> ring;
  int cur = start;
  do {
    ring.push_back(cur);
    int cand = -1;
    for (int q : unique) {
      if (q == cur) continue;
      if (cand < 0) {
        cand = q;
        continue;
      }
      const int s = orient(cur, cand, q);
      if (s < 0 || (s == 0 && farther(cur, cand, q))) cand = q;
    }
    cur = cand;
  } while (cur != start && ring.size() <= unique.size());
  return ring;
}

void fan(const std::vector<int>& ring, std::vector<std::array<std::uint32_t, 3>>& out) {
  for (std::size_t i = 1; i + 1 < ring.size(); ++i) {
    out.push_back({static_cast<std::uint32_t>(ring[0]), static_cast<std::uint32_t>(ring[i]),
                   static_cast<std::uint32_t>(ring[i + 1])});
  }
}

// The component of largest magnitude of an exact normal and its sign.
void normal_component(const Q3& n, int& k, int& sign) {
  k = 0;
  for (int c = 1; c < 3; ++c) {
    if (abs(n[c]) > abs(n[k])) k = c;
  }
  sign = sgn(n[k]);
}

}  // namespace

std::vector<std::array<std::uint32_t, 3>> exact_hull_triangles(std::span<const Vec3> points) {
  check_input(points, "points");
  const Hull h = build_hull(points);
  std::vector<std::array<std::uint32_t, 3>> out;
  const int n = static_cast<int>(points.size());
  if (h.dim == 0) return out;
  if (h.dim == 1) {
    out.push_back({static_cast<std::uint32_t>(h.cover[0][0]), static_cast<std::uint32_t>(h.cover[0][1]),
                   static_cast<std::uint32_t>(h.cover[0][1])});
    return out;
  }
  int k = 0, sign = 1;
  if (h.dim == 2) {
    normal_component(exact_direction(h.planes[0]), k, sign);
    std::vector<int> all(n);
    for (int i = 0; i < n; ++i) all[i] = i;
    fan(polygon_ring(points, std::move(all), k, sign), out);
    return out;
  }
  // Solid: the cover holds every facet triangle (all non-collinear triples of
  // a facet's points), outward. Each facet once: its points are those on the
  // plane of its first cover triangle; later triangles on that plane are skipped.
  std::vector<char> done(h.cover.size(), 0);
  std::vector<char> on(n, 0);
  for (std::size_t f = 0; f < h.cover.size(); ++f) {
    if (done[f]) continue;
    const Vec3& o = points[h.cover[f][0]];
    std::vector<int> ids;
    for (int l = 0; l < n; ++l) {
      on[l] = side(h.planes[f], o, points[l]) == 0;
      if (on[l]) ids.push_back(l);
    }
    for (std::size_t g = f; g < h.cover.size(); ++g) {
      if (on[h.cover[g][0]] && on[h.cover[g][1]] && on[h.cover[g][2]]) done[g] = 1;
    }
    if (ids.size() == 3) {
      out.push_back({static_cast<std::uint32_t>(h.cover[f][0]), static_cast<std::uint32_t>(h.cover[f][1]),
                     static_cast<std::uint32_t>(h.cover[f][2])});
      continue;
    }
    normal_component(exact_direction(h.planes[f]), k, sign);
    fan(polygon_ring(points, std::move(ids), k, sign), out);
  }
  return out;
}

}  // namespace simdccd::convex
