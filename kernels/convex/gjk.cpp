// GJK in van den Bergen's form (convex/gjk.hpp): support points of the
// Minkowski difference of the cores, the closest point of the simplex by the
// signed-volume sub-algorithm (after Montanari, Petrinic and Barbieri 2017),
// the termination test on the gap between |v| and the support's lower bound
// v . w / |v|, the radii of spheres and capsules added back at the end.
//
// Every operation is one rounding in a fixed order (no FMA), so that a lane
// version can follow it step for step.
#include "simdccd/convex/gjk.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/vec3_math.hpp"
#include "convex/gjk_valid.hpp"
#include "convex/support.hpp"

namespace simdccd::convex {
namespace {

// A vertex of the simplex: w = a - b with its support points (world, on the
// cores) and their vertex ids.
struct Vertex {
  Vec3 w, a, b;
  std::uint32_t ia = 0, ib = 0;
};

struct Simplex {
  Vertex v[4];
  double lambda[4] = {};
  int n = 0;
};

// The closest point of a sub-simplex of points y to the origin: the indices
// kept (into y), their weights, the point and its squared norm.
struct Closest {
  int n = 0;
  int idx[4] = {};
  double lambda[4] = {};
  Vec3 v{};
  double vv = 0;
};

Closest point(const Vec3* y, int i) {
  Closest c;
  c.n = 1;
  c.idx[0] = i;
  c.lambda[0] = 1;
  c.v = y[i];
  c.vv = dot(c.v, c.v);
  return c;
}

// The segment y[i0] y[i1]: the origin's projection parameter along it,
// clamped to an end.
Closest segment(const Vec3* y, int i0, int i1) {
  const Vec3 t = y[i1] - y[i0];
  const double tt = dot(t, t);
  if (tt == 0) return point(y, i1);
  const double s = -dot(y[i0], t) / tt;
  if (!(s > 0)) return point(y, i0);
  if (!(s < 1)) return point(y, i1);
  Closest c;
  c.n = 2;
  c.idx[0] = i0;
  c.idx[1] = i1;
  c.lambda[0] = 1 - s;
  c.lambda[1] = s;
  // v, then its rounding along t taken out: v . t = 0 to rounding relative
  // to |v|, where the sum's errors (of the size of the points) would tilt a
  // short v along the segment and spoil the lower bound v . w / |v|.
  const Vec3 sum = c.lambda[0] * y[i0] + c.lambda[1] * y[i1];
  c.v = sum - (dot(sum, t) / tt) * t;
  c.vv = dot(c.v, c.v);
  return c;
}

bool same_sign(double a, double b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

void keep_closer(Closest& best, const Closest& c) {
  if (best.n == 0 || c.vv < best.vv) best = c;
}

double area2(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

double coord(const Vec3& p, int k) { return k == 0 ? p.x : (k == 1 ? p.y : p.z); }

// The triangle y[i0] y[i1] y[i2]: the origin projected on its plane, then
// signed areas in the coordinate plane where the triangle's projection is
// largest; outside, the edges facing the projection. A triangle flatter
// than 2^-40 (|n| against its edges) is taken as its edges.
Closest triangle(const Vec3* y, int i0, int i1, int i2) {
  const Vec3 e1 = y[i1] - y[i0], e2 = y[i2] - y[i0];
  const Vec3 n = cross(e1, e2);
  const double nn = dot(n, n);
  Closest best;
  if (nn <= 0x1p-80 * (dot(e1, e1) * dot(e2, e2))) {
    keep_closer(best, segment(y, i0, i1));
    keep_closer(best, segment(y, i0, i2));
    keep_closer(best, segment(y, i1, i2));
    return best;
  }
  const Vec3 p0 = (dot(y[i0], n) / nn) * n;
  const double ax = std::abs(n.x), ay = std::abs(n.y), az = std::abs(n.z);
  const int k = ax >= ay && ax >= az ? 0 : (ay >= az ? 1 : 2);
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  const double mu = coord(n, k);
  const double px = coord(p0, i), py = coord(p0, j);
  const double x0 = coord(y[i0], i), y0 = coord(y[i0], j);
  const double x1 = coord(y[i1], i), y1 = coord(y[i1], j);
  const double x2 = coord(y[i2], i), y2 = coord(y[i2], j);
  const double c0 = area2(px, py, x1, y1, x2, y2);
  const double c1 = area2(x0, y0, px, py, x2, y2);
  const double c2 = area2(x0, y0, x1, y1, px, py);
  if (same_sign(mu, c0) && same_sign(mu, c1) && same_sign(mu, c2)) {
    const double sum = c0 + c1 + c2;
    Closest c;
    c.n = 3;
    c.idx[0] = i0;
    c.idx[1] = i1;
    c.idx[2] = i2;
    c.lambda[0] = c0 / sum;
    c.lambda[1] = c1 / sum;
    c.lambda[2] = c2 / sum;
    // v = p0 rather than the weighted sum where the normal is accurate
    // (sine of the angle at y0 at least 2^-6: n within 2^-46 radians, p0
    // within 2^-45 |p0 - y0| of the plane): its direction is the plane's
    // normal to rounding, where the sum's errors (of the size of the points)
    // would tilt a short v and spoil the lower bound v . w / |v|.
    const bool sharp = nn >= 0x1p-12 * (dot(e1, e1) * dot(e2, e2));
    c.v = sharp ? p0 : c.lambda[0] * y[i0] + c.lambda[1] * y[i1] + c.lambda[2] * y[i2];
    c.vv = dot(c.v, c.v);
    return c;
  }
  if (!same_sign(mu, c0)) keep_closer(best, segment(y, i1, i2));
  if (!same_sign(mu, c1)) keep_closer(best, segment(y, i0, i2));
  if (!same_sign(mu, c2)) keep_closer(best, segment(y, i0, i1));
  return best;
}

double triple(const Vec3& a, const Vec3& b, const Vec3& c) { return dot(a, cross(b, c)); }

// The tetrahedron y[0..3]: the signed volumes with the origin in place of
// each vertex against the whole; outside, the facets facing the origin. A
// tetrahedron flatter than 2^-40 (its volume against its edges) cannot
// certify that it holds the origin: all four facets are tried.
Closest tetrahedron(const Vec3* y) {
  const Vec3 e1 = y[1] - y[0], e2 = y[2] - y[0], e3 = y[3] - y[0];
  const double det = triple(e1, e2, e3);
  const bool flat = det * det <= 0x1p-80 * (dot(e1, e1) * dot(e2, e2) * dot(e3, e3));
  const double c[4] = {triple(y[1], y[2], y[3]), -triple(y[0], y[2], y[3]), triple(y[0], y[1], y[3]),
                       -triple(y[0], y[1], y[2])};
  if (!flat && same_sign(det, c[0]) && same_sign(det, c[1]) && same_sign(det, c[2]) && same_sign(det, c[3])) {
    const double sum = c[0] + c[1] + c[2] + c[3];
    Closest r;
    r.n = 4;
    for (int i = 0; i < 4; ++i) {
      r.idx[i] = i;
      r.lambda[i] = c[i] / sum;
    }
    return r;  // v = 0: the origin is inside
  }
  Closest best;
  if (flat || !same_sign(det, c[0])) keep_closer(best, triangle(y, 1, 2, 3));
  if (flat || !same_sign(det, c[1])) keep_closer(best, triangle(y, 0, 2, 3));
  if (flat || !same_sign(det, c[2])) keep_closer(best, triangle(y, 0, 1, 3));
  if (flat || !same_sign(det, c[3])) keep_closer(best, triangle(y, 0, 1, 2));
  return best;
}

// The closest point of the whole simplex `in` to the origin; `out` keeps
// the vertices with positive weight. Returns v.
Closest reduce(const Simplex& in, Simplex& out) {
  Vec3 y[4];
  for (int i = 0; i < in.n; ++i) y[i] = in.v[i].w;
  Closest c;
  switch (in.n) {
    case 1:
      c = point(y, 0);
      break;
    case 2:
      c = segment(y, 0, 1);
      break;
    case 3:
      c = triangle(y, 0, 1, 2);
      break;
    default:
      c = tetrahedron(y);
      break;
  }
  out.n = c.n;
  for (int i = 0; i < c.n; ++i) {
    out.v[i] = in.v[c.idx[i]];
    out.lambda[i] = c.lambda[i];
  }
  return c;
}

// A posed shape's core (sphere: its center, capsule: its segment, others:
// the shape) with the radius swept around it.
class Core {
 public:
  Core(const ConvexShape& shape, const Pose& pose) : s_(shape), pose_(pose) {
    if (s_.kind == ShapeKind::sphere) {
      margin_ = s_.radius;
      end0_ = pose.x;
    } else if (s_.kind == ShapeKind::capsule) {
      margin_ = s_.radius;
      end0_ = capsule_end(s_, pose, 0);
      end1_ = capsule_end(s_, pose, 1);
    }
  }

  double margin() const { return margin_; }
  bool has_ids() const { return s_.kind != ShapeKind::cylinder; }

  SupportPoint support(const Vec3& d) const {
    const auto& R = pose_.R;
    switch (s_.kind) {
      case ShapeKind::sphere:
        return {end0_, 0};
      case ShapeKind::capsule: {
        const double dz = R[2] * d.x + R[5] * d.y + R[8] * d.z;  // (R^T d).z
        return dz > 0 ? SupportPoint{end1_, 1} : SupportPoint{end0_, 0};
      }
      case ShapeKind::box: {
        const SupportPoint p = box_support(s_.half, transpose_times(R, d));
        return {apply(pose_, p.point), p.vertex};
      }
      case ShapeKind::cylinder:
        return {apply(pose_, cylinder_support(s_.radius, s_.half_height, transpose_times(R, d))), no_vertex};
      case ShapeKind::polytope: {
        const SupportPoint p =
            polytope_support(s_.vertices.data(), s_.vertices.size(), transpose_times(R, d));
        return {apply(pose_, p.point), p.vertex};
      }
    }
    return {};
  }

  // The core vertex `id` in the world; false when there is none.
  bool vertex(std::uint32_t id, Vec3& out) const {
    switch (s_.kind) {
      case ShapeKind::sphere:
        out = end0_;
        return id == 0;
      case ShapeKind::capsule:
        out = id == 0 ? end0_ : end1_;
        return id <= 1;
      case ShapeKind::box:
        if (id >= 8) return false;
        out = apply(pose_, box_vertex(s_.half, id));
        return true;
      case ShapeKind::polytope:
        if (id >= s_.vertices.size()) return false;
        out = apply(pose_, s_.vertices[id]);
        return true;
      case ShapeKind::cylinder:
        break;
    }
    return false;
  }

  // The closest feature: from the distinct vertex ids of the final simplex
  // (ascending), or for a cylinder from the body point p.
  FeatureId feature(const std::uint32_t* ids, int n, const Vec3& world_point, double tol) const {
    switch (s_.kind) {
      case ShapeKind::sphere:
        return {FeatureType::face, 0};
      case ShapeKind::capsule:
        return n == 1 ? FeatureId{FeatureType::vertex, ids[0]} : FeatureId{FeatureType::edge, 0};
      case ShapeKind::box:
        return box_feature(ids, n);
      case ShapeKind::polytope:
        if (n == 1) return {FeatureType::vertex, ids[0]};
        if (n == 2) return {FeatureType::edge, edge_index(ids[0], ids[1])};
        return {FeatureType::face, face_index(ids[0], ids[1], ids[2])};
      case ShapeKind::cylinder:
        return cylinder_feature(world_point, tol);
    }
    return {};
  }

 private:
  static FeatureId box_feature(const std::uint32_t* ids, int n) {
    std::uint32_t differ = 0;
    for (int i = 1; i < n; ++i) differ |= ids[i] ^ ids[0];
    const int free_axes = static_cast<int>((differ & 1) + ((differ >> 1) & 1) + ((differ >> 2) & 1));
    if (free_axes == 0) return {FeatureType::vertex, ids[0]};
    const std::uint32_t lo = ids[0] & ~differ;  // the feature's lowest vertex
    if (free_axes == 1) return {FeatureType::edge, edge_index(lo, lo | differ)};
    if (free_axes == 2) {
      const std::uint32_t b0 = differ & (0u - differ), b1 = differ & ~b0;
      return {FeatureType::face, face_index(lo, lo | b0, lo | b1)};
    }
    // Spread over the solid (an intersecting simplex): three of its vertices.
    return {FeatureType::face, face_index(ids[0], ids[1], ids[2])};
  }

  FeatureId cylinder_feature(const Vec3& world_point, double tol) const {
    const Vec3 q = transpose_times(pose_.R, world_point - pose_.x);
    const double h = s_.half_height, r = s_.radius;
    const double rho = std::sqrt(q.x * q.x + q.y * q.y);
    const double to_top = std::abs(h - q.z), to_bottom = std::abs(q.z + h), to_side = std::abs(r - rho);
    const bool cap = std::min(to_top, to_bottom) <= tol, side = to_side <= tol;
    const std::uint64_t end = to_top < to_bottom ? 1 : 0;
    if (cap && side) return {FeatureType::edge, end};
    if (cap) return {FeatureType::face, end};
    if (side) return {FeatureType::face, 2};
    // Inside (an intersecting witness): the nearest surface.
    return std::min(to_top, to_bottom) < to_side ? FeatureId{FeatureType::face, end}
                                                 : FeatureId{FeatureType::face, 2};
  }

  const ConvexShape& s_;
  const Pose& pose_;
  double margin_ = 0;
  Vec3 end0_{}, end1_{};
};

// The distinct ids of one side of the simplex, ascending.
int distinct_ids(const Simplex& s, bool side_a, std::uint32_t* out) {
  int n = 0;
  for (int i = 0; i < s.n; ++i) {  // insertion into the sorted prefix
    const std::uint32_t id = side_a ? s.v[i].ia : s.v[i].ib;
    int k = n;
    while (k > 0 && out[k - 1] > id) --k;
    if (k > 0 && out[k - 1] == id) continue;
    for (int j = n; j > k; --j) out[j] = out[j - 1];
    out[k] = id;
    ++n;
  }
  return n;
}

Vertex make_vertex(const SupportPoint& a, const SupportPoint& b) {
  return {a.point - b.point, a.point, b.point, a.vertex, b.vertex};
}

bool holds(const Simplex& s, const Vec3& w) {
  for (int i = 0; i < s.n; ++i) {
    if (s.v[i].w == w) return true;
  }
  return false;
}

}  // namespace

bool is_valid(const GjkOptions& o) {
  return o.tolerance >= 0x1p-36 && o.tolerance < 1 && o.max_iterations >= 1;
}

double pair_size(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb) {
  return reach(a) + reach(b) + norm(pa.x - pb.x);
}

double gjk_tolerance(const GjkOptions& options, double size, double offset) {
  return options.tolerance * size + 0x1p-40 * offset;
}

GjkResult gjk(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb,
              const GjkOptions& options, const GjkWarmStart* warm) {
  const double reach_a = checked_reach(a), reach_b = checked_reach(b);
  if (!is_valid(options) || !is_valid(pa) || !is_valid(pb) || std::isnan(reach_a) || std::isnan(reach_b)) return {};
  return gjk_valid(a, reach_a, pa, b, reach_b, pb, options, warm);
}

GjkResult gjk_valid(const ConvexShape& a, double reach_a, const Pose& pa, const ConvexShape& b, double reach_b,
                    const Pose& pb, const GjkOptions& options, const GjkWarmStart* warm) {
  GjkResult r;
  r.valid = true;
  const double tau = gjk_tolerance(options, reach_a + reach_b + norm(pa.x - pb.x), norm(pa.x) + norm(pb.x));
  r.tolerance = tau;
  const Core ca(a, pa), cb(b, pb);
  const double margin = ca.margin() + cb.margin();
  const bool ids = ca.has_ids() && cb.has_ids();
  const auto support = [&](const Vec3& d) {  // of A - B at -d: the point of least d . w
    ++r.iterations;
    return make_vertex(ca.support(-1.0 * d), cb.support(d));
  };

  Simplex s[2];
  int cur = 0;
  Vec3 v{};
  double vv = 0;
  // Warm start from the previous simplex's vertex ids, else from a direction.
  if (warm != nullptr && ids && warm->count >= 1 && warm->count <= 4) {
    Simplex& t = s[1];
    for (int i = 0; i < warm->count; ++i) {
      Vertex x;
      x.ia = warm->vertex_a[i];
      x.ib = warm->vertex_b[i];
      if (!ca.vertex(x.ia, x.a) || !cb.vertex(x.ib, x.b)) {
        t.n = 0;
        break;
      }
      x.w = x.a - x.b;
      if (!holds(t, x.w)) t.v[t.n++] = x;
    }
    if (t.n > 0) {
      const Closest c = reduce(t, s[0]);
      v = c.v;
      vv = c.vv;
    }
  }
  if (s[0].n == 0) {
    Vec3 d = warm != nullptr && finite(warm->direction) && !is_zero(warm->direction) ? warm->direction
                                                                                     : pa.x - pb.x;
    if (is_zero(d)) d = {1, 0, 0};
    s[0].n = 1;
    s[0].v[0] = support(d);
    s[0].lambda[0] = 1;
    v = s[0].v[0].w;
    vv = dot(v, v);
  }

  // Stop at |v| <= margin + tau/2 (intersecting), or at a gap |v| - v.w/|v|
  // of at most tau/4 (converged), or when no progress is possible.
  const double hit = margin + 0.5 * tau;
  const double hit2 = hit * hit;
  // Intersection only: a plane that holds the shapes 5 tau/8 apart proves D > tau/2,
  // so the distance query's |v| could never fall to `hit`: both queries answer alike.
  const double apart = options.intersection_only ? margin + 0.625 * tau : INFINITY;
  double lb = -std::numeric_limits<double>::infinity();
  Vec3 last_direction = v, lb_direction{};
  double lb_norm = 0;
  // The plane normal to direction u (of norm |u| = un) through the support
  // w = S(-u): all of A - B lies at least u . w / |u| along it.
  const auto raise_bound = [&](const Vec3& u, double un, const Vec3& w) {
    const double bound = dot(u, w) / un;
    if (bound > lb) {
      lb = bound;
      lb_direction = u;
      lb_norm = un;
    }
  };
  for (;;) {
    if (s[cur].n == 4 || vv <= hit2) {
      r.converged = true;
      break;
    }
    if (static_cast<int>(r.iterations) >= options.max_iterations) break;
    const Vertex w = support(v);
    const double d = std::sqrt(vv);
    raise_bound(v, d, w.w);
    if (d - lb <= 0.25 * tau) {
      r.converged = true;
      break;
    }
    if (lb > apart) break;
    bool stalled = holds(s[cur], w.w);
    if (!stalled) {
      Simplex& grown = s[cur];
      grown.v[grown.n++] = w;
      const Closest c = reduce(grown, s[1 - cur]);
      if (c.n < 4 && !(c.vv < vv)) {
        --grown.n;  // no progress: keep the previous simplex
        stalled = true;
      } else {
        cur = 1 - cur;
        v = c.v;
        vv = c.n == 4 ? 0 : c.vv;
        if (vv > 0) last_direction = v;
        continue;
      }
    }
    // Stalled on rounding. A segment between two edges (a diagonal of their
    // face of A - B) has v tilted off the face's normal by the rounding of
    // its points over |v|: try the normal itself, the edges' cross product.
    const Simplex& t = s[cur];
    if (t.n == 2 && t.v[0].ia != t.v[1].ia && t.v[0].ib != t.v[1].ib &&
        static_cast<int>(r.iterations) < options.max_iterations) {
      Vec3 normal = cross(t.v[1].a - t.v[0].a, t.v[1].b - t.v[0].b);
      const double nn = dot(normal, normal);
      if (nn > 0) {
        if (dot(normal, v) < 0) normal = -1.0 * normal;
        raise_bound(normal, std::sqrt(nn), support(normal).w);
        r.converged = d - lb <= 0.25 * tau;
      }
    }
    break;
  }

  const Simplex& f = s[cur];
  Vec3 core_a{}, core_b{};
  for (int i = 0; i < f.n; ++i) {
    core_a = core_a + f.lambda[i] * f.v[i].a;
    core_b = core_b + f.lambda[i] * f.v[i].b;
  }
  const double d = std::sqrt(vv);
  r.intersecting = vv <= hit2;
  r.distance = r.intersecting ? 0 : d - margin;
  r.lower_bound = std::max(0.0, lb - margin);
  if (r.intersecting) r.lower_bound = 0;
  if (r.lower_bound > 0) r.separating_axis = (-1 / lb_norm) * lb_direction;
  if (d > 0 && margin > 0) {
    const Vec3 unit = (1 / d) * v;
    core_a = core_a - ca.margin() * unit;
    core_b = core_b + cb.margin() * unit;
  }
  r.point_a = core_a;
  r.point_b = core_b;

  std::uint32_t id[4];
  int n = distinct_ids(f, true, id);
  r.feature_a = ca.feature(id, n, r.point_a, tau);
  n = distinct_ids(f, false, id);
  r.feature_b = cb.feature(id, n, r.point_b, tau);

  // An intersecting pair's last direction says little: the next call starts cold.
  r.warm.direction = r.intersecting ? Vec3{} : last_direction;
  if (ids) {
    r.warm.count = static_cast<std::uint8_t>(f.n);
    for (int i = 0; i < f.n; ++i) {
      r.warm.vertex_a[i] = f.v[i].ia;
      r.warm.vertex_b[i] = f.v[i].ib;
    }
  }
  return r;
}

}  // namespace simdccd::convex
