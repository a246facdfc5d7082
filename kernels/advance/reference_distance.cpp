// The distance reference of advance_reference.hpp: reference_distance.
//
// A triangle pair's distance is 0 when an edge of one crosses the other,
// else the least of its 15 features: 9 edge-edge distances and 6 vertex-face
// distances (a vertex over the face's interior region). Two stages:
// (1) long double, over the trees' node pairs best first: the pairs within
// 2 M of the least pair distance, M a generous bound on a distance's error;
// (2) exact rational arithmetic on those pairs in order, each feature
// decided exactly unless its long double distance exceeds the exact least by
// M, until the next pair's does: the least squared distance is exact, only
// its square root is rounded.
//
// M = 2^-24 S, S bounding the world coordinates (both models placed relative
// to pa.x). Long double (64-bit mantissa) computes each well-conditioned
// distance to a few hundred ulps of S. The ill-conditioned cases, nearly
// parallel edges (sin^2 of their angle below 2^-64) and sliver faces (|n|^2
// below 2^-64 of the product of two squared edges), fall back to the edges'
// ends or to the face's edges, which lie within 2^-32 of their length of the
// skipped closest point; misjudged crossings are within such a bound of
// touching. So every long double distance is within 2^-30 S of the exact
// one, 2^-6 of M.
#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "simdccd/advance_reference.hpp"

namespace simdccd {
namespace {

// ---- Long double geometry ----

using LD = long double;
struct P {
  LD x, y, z;
};
P operator-(const P& a, const P& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
P operator+(const P& a, const P& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
P operator*(LD s, const P& a) { return {s * a.x, s * a.y, s * a.z}; }
LD dot(const P& a, const P& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
P cross(const P& a, const P& b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
LD length(const P& a) { return std::sqrt(dot(a, a)); }

// The threshold of the ill-conditioned cases (above).
constexpr LD kIllConditioned = 0x1p-64L;

LD point_segment(const P& p, const P& a, const P& b) {
  const P u = b - a, w = p - a;
  const LD uu = dot(u, u);
  const LD t = uu > 0 ? std::clamp(dot(w, u) / uu, LD{0}, LD{1}) : 0;
  return length(w - t * u);
}

LD segment_segment(const P& p0, const P& p1, const P& q0, const P& q1) {
  LD m = std::min({point_segment(p0, q0, q1), point_segment(p1, q0, q1), point_segment(q0, p0, p1),
                   point_segment(q1, p0, p1)});
  const P u = p1 - p0, v = q1 - q0, w = p0 - q0;
  const LD a = dot(u, u), b = dot(u, v), c = dot(v, v), d = dot(u, w), e = dot(v, w), D = a * c - b * b;
  if (D > kIllConditioned * a * c) {
    const LD s = (b * e - c * d) / D, t = (a * e - b * d) / D;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) m = std::min(m, length(w + s * u - t * v));
  }
  return m;
}

/// The distance from p to the closed triangle.
LD point_triangle(const P& p, const P& a, const P& b, const P& c) {
  const LD edges = std::min({point_segment(p, a, b), point_segment(p, b, c), point_segment(p, c, a)});
  const P e0 = b - a, e1 = c - b, e2 = a - c, n = cross(e0, c - a);
  const LD nn = dot(n, n);
  if (!(nn > kIllConditioned * dot(e0, e0) * dot(e2, e2))) return edges;
  if (dot(cross(e0, p - a), n) < 0 || dot(cross(e1, p - b), n) < 0 || dot(cross(e2, p - c), n) < 0) return edges;
  return std::min(edges, std::abs(dot(n, p - a)) / std::sqrt(nn));
}

LD orient(const P& a, const P& b, const P& c, const P& d) { return dot(cross(b - a, c - a), d - a); }

/// The segment pq crosses the triangle's plane strictly, within its closed edges.
bool crosses(const P& p, const P& q, const P& a, const P& b, const P& c) {
  const LD sp = orient(a, b, c, p), sq = orient(a, b, c, q);
  if (!((sp > 0 && sq < 0) || (sp < 0 && sq > 0))) return false;
  const LD v0 = orient(p, q, a, b), v1 = orient(p, q, b, c), v2 = orient(p, q, c, a);
  return (v0 >= 0 && v1 >= 0 && v2 >= 0) || (v0 <= 0 && v1 <= 0 && v2 <= 0);
}

using Tri = std::array<P, 3>;

bool cross_each_other(const Tri& a, const Tri& b) {
  for (int i = 0; i < 3; ++i) {
    if (crosses(a[i], a[(i + 1) % 3], b[0], b[1], b[2]) || crosses(b[i], b[(i + 1) % 3], a[0], a[1], a[2])) return true;
  }
  return false;
}

/// A feature of a triangle pair: edge i of a and edge j of b (edge i runs
/// from vertex i to vertex i + 1), vertex i of a and b's face, or vertex j of
/// b and a's face. For a vertex and a face, `distance` is the vertex's
/// distance from the closed triangle: a lower bound of the vertex-face
/// distance, which is infinite off the face's interior region.
struct Feature {
  enum Kind : std::uint8_t { edges, vertex_a, vertex_b } kind;
  std::uint8_t i, j;
  LD distance;
};
using Features = std::array<Feature, 15>;

Features features(const Tri& a, const Tri& b) {
  Features f;
  std::size_t n = 0;
  for (std::uint8_t i = 0; i < 3; ++i) {
    for (std::uint8_t j = 0; j < 3; ++j) {
      f[n++] = {Feature::edges, i, j, segment_segment(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3])};
    }
    f[n++] = {Feature::vertex_a, i, 0, point_triangle(a[i], b[0], b[1], b[2])};
    f[n++] = {Feature::vertex_b, 0, i, point_triangle(b[i], a[0], a[1], a[2])};
  }
  return f;
}

LD triangle_distance(const Tri& a, const Tri& b) {
  if (cross_each_other(a, b)) return 0;
  LD m = INFINITY;
  for (const Feature& f : features(a, b)) m = std::min(m, f.distance);
  return m;
}

/// The gap between the projections of the triangles on the line through
/// their centroids: a lower bound of their distance.
LD projection_gap(const Tri& a, const Tri& b) {
  const P axis = (a[0] + a[1] + a[2]) - (b[0] + b[1] + b[2]);  // towards a
  const LD len = length(axis);
  if (!(len > 0)) return 0;
  const LD a_low = std::min({dot(axis, a[0]), dot(axis, a[1]), dot(axis, a[2])});
  const LD b_high = std::max({dot(axis, b[0]), dot(axis, b[1]), dot(axis, b[2])});
  return std::max(LD{0}, (a_low - b_high) / len);
}

// ---- Exact geometry (the same cases, squared distances) ----

using Q = std::array<mpq_class, 3>;
using ExactTri = std::array<const Q*, 3>;
Q operator-(const Q& a, const Q& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
mpq_class dot(const Q& a, const Q& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Q cross(const Q& a, const Q& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
bool is_zero(const Q& a) { return sgn(a[0]) == 0 && sgn(a[1]) == 0 && sgn(a[2]) == 0; }

mpq_class point_segment2(const Q& p, const Q& a, const Q& b) {
  const Q u = b - a, w = p - a;
  const mpq_class uu = dot(u, u), t = dot(w, u);
  if (sgn(uu) == 0 || sgn(t) <= 0) return dot(w, w);
  if (t >= uu) {
    const Q z = p - b;
    return dot(z, z);
  }
  return dot(w, w) - t * t / uu;
}

mpq_class segment_segment2(const Q& p0, const Q& p1, const Q& q0, const Q& q1) {
  mpq_class m = std::min({point_segment2(p0, q0, q1), point_segment2(p1, q0, q1), point_segment2(q0, p0, p1),
                          point_segment2(q1, p0, p1)});
  const Q u = p1 - p0, v = q1 - q0, w = p0 - q0;
  const mpq_class a = dot(u, u), b = dot(u, v), c = dot(v, v), d = dot(u, w), e = dot(v, w), D = a * c - b * b;
  if (sgn(D) > 0) {
    // The lines' closest points inside both segments: their distance is w's along u x v.
    const mpq_class s = b * e - c * d, t = a * e - b * d;
    if (sgn(s) >= 0 && s <= D && sgn(t) >= 0 && t <= D) {
      const Q n = cross(u, v);
      const mpq_class h = dot(w, n);
      m = std::min(m, mpq_class(h * h / dot(n, n)));
    }
  }
  return m;
}

/// The squared distance from p to the face's plane when p is over the closed
/// triangle; nullopt elsewhere or for a degenerate triangle.
std::optional<mpq_class> vertex_face2(const Q& p, const ExactTri& t) {
  const Q &a = *t[0], &b = *t[1], &c = *t[2];
  const Q n = cross(b - a, c - a);
  if (is_zero(n)) return std::nullopt;
  if (sgn(dot(cross(b - a, p - a), n)) < 0 || sgn(dot(cross(c - b, p - b), n)) < 0 ||
      sgn(dot(cross(a - c, p - c), n)) < 0) {
    return std::nullopt;
  }
  const mpq_class h = dot(n, p - a);
  return mpq_class(h * h / dot(n, n));
}

int orient_sign(const Q& a, const Q& b, const Q& c, const Q& d) { return sgn(dot(cross(b - a, c - a), d - a)); }

/// The segment pq crosses the triangle's plane strictly, within its closed
/// edges (the other touching cases have a zero feature instead).
bool crosses(const Q& p, const Q& q, const ExactTri& t) {
  const Q &a = *t[0], &b = *t[1], &c = *t[2];
  if (orient_sign(a, b, c, p) * orient_sign(a, b, c, q) >= 0) return false;
  const int v0 = orient_sign(p, q, a, b), v1 = orient_sign(p, q, b, c), v2 = orient_sign(p, q, c, a);
  return (v0 >= 0 && v1 >= 0 && v2 >= 0) || (v0 <= 0 && v1 <= 0 && v2 <= 0);
}

bool cross_each_other(const ExactTri& a, const ExactTri& b) {
  for (int i = 0; i < 3; ++i) {
    if (crosses(*a[i], *a[(i + 1) % 3], b) || crosses(*b[i], *b[(i + 1) % 3], a)) return true;
  }
  return false;
}

std::optional<mpq_class> exact_feature(const Feature& f, const ExactTri& a, const ExactTri& b) {
  switch (f.kind) {
    case Feature::edges: return segment_segment2(*a[f.i], *a[(f.i + 1) % 3], *b[f.j], *b[(f.j + 1) % 3]);
    case Feature::vertex_a: return vertex_face2(*a[f.i], b);
    case Feature::vertex_b: return vertex_face2(*b[f.j], a);
  }
  return std::nullopt;
}

// ---- The posed models ----

/// A tree at a pose, relative to `origin`, computed when first asked for:
/// long double world vertices and node boxes (widened by a margin), exact
/// world vertices.
class Posed {
 public:
  Posed(const ReferenceTree& tree, const Pose& pose, const Vec3& origin)
      : tree_(tree),
        pose_(pose),
        origin_(origin),
        world_(tree.soup.vertices.size()),
        have_world_(tree.soup.vertices.size(), 0),
        lo_(tree.nodes.size()),
        hi_(tree.nodes.size()),
        have_box_(tree.nodes.size(), 0) {}

  const ReferenceTree& tree() const { return tree_; }

  /// The largest world coordinate's magnitude bound: from the root's box.
  LD scale() {
    const P &lo = box_lo(0), &hi = box_hi(0);
    return std::max({std::abs(lo.x), std::abs(lo.y), std::abs(lo.z), std::abs(hi.x), std::abs(hi.y), std::abs(hi.z)});
  }
  /// Widens the boxes computed from now on (before any but the root's).
  void set_margin(LD margin) {
    margin_ = margin;
    std::fill(have_box_.begin(), have_box_.end(), 0);
  }

  Tri triangle(std::uint32_t t) {
    const auto& f = tree_.soup.triangles[t];
    return {world(f[0]), world(f[1]), world(f[2])};
  }
  const P& box_lo(std::uint32_t n) { return fit(n), lo_[n]; }
  const P& box_hi(std::uint32_t n) { return fit(n), hi_[n]; }

  ExactTri exact_triangle(std::uint32_t t) {
    const auto& f = tree_.soup.triangles[t];
    return {&exact(f[0]), &exact(f[1]), &exact(f[2])};
  }

 private:
  P place(const P& p) const {
    const auto& R = pose_.R;
    const P x{LD{pose_.x.x} - origin_.x, LD{pose_.x.y} - origin_.y, LD{pose_.x.z} - origin_.z};
    return {R[0] * p.x + R[1] * p.y + R[2] * p.z + x.x, R[3] * p.x + R[4] * p.y + R[5] * p.z + x.y,
            R[6] * p.x + R[7] * p.y + R[8] * p.z + x.z};
  }

  const P& world(std::uint32_t v) {
    if (!have_world_[v]) {
      const Vec3& p = tree_.soup.vertices[v];
      world_[v] = place({p.x, p.y, p.z});
      have_world_[v] = 1;
    }
    return world_[v];
  }

  /// The world box of the body box: R c + x +- |R| h + margin.
  void fit(std::uint32_t n) {
    if (have_box_[n]) return;
    const ReferenceTree::Node& node = tree_.nodes[n];
    const P lo{node.lo.x, node.lo.y, node.lo.z}, hi{node.hi.x, node.hi.y, node.hi.z};
    const P center = place(LD{0.5} * (lo + hi)), half = LD{0.5} * (hi - lo);
    const auto& R = pose_.R;
    const P reach{std::abs(R[0]) * half.x + std::abs(R[1]) * half.y + std::abs(R[2]) * half.z + margin_,
                  std::abs(R[3]) * half.x + std::abs(R[4]) * half.y + std::abs(R[5]) * half.z + margin_,
                  std::abs(R[6]) * half.x + std::abs(R[7]) * half.y + std::abs(R[8]) * half.z + margin_};
    lo_[n] = center - reach;
    hi_[n] = center + reach;
    have_box_[n] = 1;
  }

  /// R v + x - origin, exactly.
  const Q& exact(std::uint32_t v) {
    auto [it, inserted] = exact_.try_emplace(v);
    if (inserted) {
      const Vec3& p = tree_.soup.vertices[v];
      const std::array<double, 3> x{pose_.x.x, pose_.x.y, pose_.x.z}, o{origin_.x, origin_.y, origin_.z};
      for (int i = 0; i < 3; ++i) {
        it->second[i] = mpq_class(pose_.R[3 * i]) * p.x + mpq_class(pose_.R[3 * i + 1]) * p.y +
                        mpq_class(pose_.R[3 * i + 2]) * p.z + mpq_class(x[i]) - mpq_class(o[i]);
      }
    }
    return it->second;
  }

  const ReferenceTree& tree_;
  Pose pose_;
  Vec3 origin_;
  LD margin_ = 0;
  std::vector<P> world_;
  std::vector<std::uint8_t> have_world_;
  std::vector<P> lo_, hi_;
  std::vector<std::uint8_t> have_box_;
  std::unordered_map<std::uint32_t, Q> exact_;
};

LD box_distance(Posed& a, std::uint32_t na, Posed& b, std::uint32_t nb) {
  const P &alo = a.box_lo(na), &ahi = a.box_hi(na), &blo = b.box_lo(nb), &bhi = b.box_hi(nb);
  const auto gap = [](LD lo0, LD hi0, LD lo1, LD hi1) { return std::max({LD{0}, lo0 - hi1, lo1 - hi0}); };
  return length({gap(alo.x, ahi.x, blo.x, bhi.x), gap(alo.y, ahi.y, blo.y, bhi.y), gap(alo.z, ahi.z, blo.z, bhi.z)});
}

struct Candidate {
  LD distance;
  std::uint32_t ta, tb;
};

/// Stage 1: the triangle pairs within 2 M of the least long double distance,
/// by increasing distance.
std::vector<Candidate> near_pairs(Posed& a, Posed& b, LD M) {
  struct Item {
    LD bound;
    std::uint32_t na, nb;
    bool operator>(const Item& o) const { return bound > o.bound; }
  };
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  open.push({box_distance(a, 0, b, 0), 0, 0});
  LD best = INFINITY;
  std::vector<Candidate> out;
  while (!open.empty() && open.top().bound <= best + 2 * M) {
    const Item it = open.top();
    open.pop();
    const ReferenceTree::Node &na = a.tree().nodes[it.na], &nb = b.tree().nodes[it.nb];
    if (na.count == 1 && nb.count == 1) {
      const Tri ta = a.triangle(na.first), tb = b.triangle(nb.first);
      // The gap is within M of its exact value, a lower bound of the exact distance.
      if (projection_gap(ta, tb) > best + 3 * M) continue;
      const LD d = triangle_distance(ta, tb);
      best = std::min(best, d);
      if (d <= best + 2 * M) out.push_back({d, na.first, nb.first});
      continue;
    }
    const bool split_a = nb.count == 1 || (na.count != 1 && na.count >= nb.count);
    for (std::uint32_t c = 0; c < 2; ++c) {
      const std::uint32_t ca = split_a ? na.first + c : it.na, cb = split_a ? it.nb : nb.first + c;
      const LD bound = box_distance(a, ca, b, cb);
      if (bound <= best + 2 * M) open.push({bound, ca, cb});
    }
  }
  std::erase_if(out, [&](const Candidate& c) { return c.distance > best + 2 * M; });
  std::sort(out.begin(), out.end(), [](const Candidate& x, const Candidate& y) { return x.distance < y.distance; });
  return out;
}

/// Stage 2: the exact least squared distance over the candidates (see the top).
mpq_class exact_least(Posed& a, Posed& b, const std::vector<Candidate>& candidates, LD M) {
  std::optional<mpq_class> best;
  LD best_ld = INFINITY;  // sqrt(best), rounded: far within M
  for (const Candidate& c : candidates) {
    if (c.distance > best_ld + M) break;
    const ExactTri ea = a.exact_triangle(c.ta), eb = b.exact_triangle(c.tb);
    // A crossing makes the exact distance 0, so the long double one at most M.
    if (c.distance <= M && cross_each_other(ea, eb)) return 0;
    Features f = features(a.triangle(c.ta), b.triangle(c.tb));
    std::sort(f.begin(), f.end(), [](const Feature& x, const Feature& y) { return x.distance < y.distance; });
    for (const Feature& feature : f) {
      if (feature.distance > best_ld + M) break;
      const std::optional<mpq_class> d2 = exact_feature(feature, ea, eb);
      if (d2 && (!best || *d2 < *best)) {
        best = *d2;
        best_ld = std::sqrt(static_cast<LD>(best->get_d()));
      }
    }
    if (best && sgn(*best) == 0) break;
  }
  return *best;
}

}  // namespace

ReferenceDistance reference_distance(const ReferenceTree& a, const Pose& pa, const ReferenceTree& b, const Pose& pb) {
  if (a.nodes.empty() || b.nodes.empty()) return {INFINITY, 0};
  Posed posed_a(a, pa, pa.x), posed_b(b, pb, pa.x);
  const LD scale = std::max(posed_a.scale(), posed_b.scale());
  const LD M = 0x1p-24L * scale;
  // Box margins far above the boxes' rounding, far below M.
  posed_a.set_margin(0x1p-50L * scale);
  posed_b.set_margin(0x1p-50L * scale);
  const mpq_class d2 = exact_least(posed_a, posed_b, near_pairs(posed_a, posed_b, M), M);
  if (sgn(d2) == 0) return {0, 0};
  // The root with 128 bits, truncated to double: relative error below 2^-51.
  const double distance = mpf_class(sqrt(mpf_class(d2, 128)), 128).get_d();
  return {distance, 0x1p-50 * distance + 0x1p-1074};
}

ReferenceDistance reference_distance(const TriangleSoup& a, const Pose& pa, const TriangleSoup& b, const Pose& pb) {
  return reference_distance(ReferenceTree(a), pa, ReferenceTree(b), pb);
}

}  // namespace simdccd
