// The interval reference of advance_reference.hpp: certify_separation, and
// the body-space box hierarchy (ReferenceTree) the references share.
//
// Every enclosure is rigorous: each floating-point operation is followed by
// a step outwards (down/up below), and libm's sine and cosine, which are not
// correctly rounded, are widened by 16 ulps.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "simdccd/advance_reference.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {

double coord(const Vec3& v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

class TreeBuilder {
 public:
  explicit TreeBuilder(ReferenceTree& tree) : tree_(tree), centroid_(tree.soup.triangles.size()) {
    for (std::size_t t = 0; t < centroid_.size(); ++t) {
      for (const std::uint32_t v : tree.soup.triangles[t]) {
        for (int k = 0; k < 3; ++k) centroid_[t][k] += coord(tree.soup.vertices[v], k);  // 3 x the centroid: only compared
      }
    }
  }

  void build(std::uint32_t node, std::uint32_t* first, std::uint32_t* last) {
    tree_.nodes[node].count = static_cast<std::uint32_t>(last - first);
    if (last - first == 1) {
      fit_leaf(node, *first);
      return;
    }
    const int axis = widest_axis(first, last);
    std::uint32_t* mid = first + (last - first) / 2;
    std::nth_element(first, mid, last, [&](std::uint32_t a, std::uint32_t b) {
      const double ca = centroid_[a][axis], cb = centroid_[b][axis];
      return ca < cb || (ca == cb && a < b);  // a strict total order: the same tree everywhere
    });
    const auto children = static_cast<std::uint32_t>(tree_.nodes.size());
    tree_.nodes[node].first = children;
    tree_.nodes.resize(tree_.nodes.size() + 2);
    build(children, first, mid);
    build(children + 1, mid, last);
    // The union of the children's boxes.
    const ReferenceTree::Node &l = tree_.nodes[children], &r = tree_.nodes[children + 1];
    ReferenceTree::Node& n = tree_.nodes[node];
    n.lo = {std::min(l.lo.x, r.lo.x), std::min(l.lo.y, r.lo.y), std::min(l.lo.z, r.lo.z)};
    n.hi = {std::max(l.hi.x, r.hi.x), std::max(l.hi.y, r.hi.y), std::max(l.hi.z, r.hi.z)};
  }

 private:
  void fit_leaf(std::uint32_t node, std::uint32_t triangle) {
    ReferenceTree::Node& n = tree_.nodes[node];
    n.first = triangle;
    const auto& t = tree_.soup.triangles[triangle];
    const Vec3 &a = tree_.soup.vertices[t[0]], &b = tree_.soup.vertices[t[1]], &c = tree_.soup.vertices[t[2]];
    n.lo = {std::min({a.x, b.x, c.x}), std::min({a.y, b.y, c.y}), std::min({a.z, b.z, c.z})};
    n.hi = {std::max({a.x, b.x, c.x}), std::max({a.y, b.y, c.y}), std::max({a.z, b.z, c.z})};
  }

  int widest_axis(const std::uint32_t* first, const std::uint32_t* last) const {
    std::array<double, 3> lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (const std::uint32_t* t = first; t != last; ++t) {
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], centroid_[*t][k]);
        hi[k] = std::max(hi[k], centroid_[*t][k]);
      }
    }
    int axis = 0;
    for (int k = 1; k < 3; ++k) {
      if (hi[k] - lo[k] > hi[axis] - lo[axis]) axis = k;
    }
    return axis;
  }

  ReferenceTree& tree_;
  std::vector<std::array<double, 3>> centroid_;
};

// ---- Intervals ----

struct I {
  double lo, hi;
};

// A double below (above) x. After one rounded operation the exact result lies
// within half the spacing of the doubles next to the computed x, and that
// spacing is at most |x| 2^-52 (2^-1074 near zero): any double below x is low
// enough.
double down(double x) { return x - (std::abs(x) * 0x1p-52 + 0x1p-1074); }
double up(double x) { return x + (std::abs(x) * 0x1p-52 + 0x1p-1074); }

I point(double x) { return {x, x}; }
I product(double a, double b) {
  const double p = a * b;
  return {down(p), up(p)};
}
I operator+(I a, I b) { return {down(a.lo + b.lo), up(a.hi + b.hi)}; }
I operator-(I a, I b) { return {down(a.lo - b.hi), up(a.hi - b.lo)}; }
I operator*(double s, I a) {
  return s >= 0 ? I{down(s * a.lo), up(s * a.hi)} : I{down(s * a.hi), up(s * a.lo)};
}
I operator*(I a, I b) {
  const double p0 = a.lo * b.lo, p1 = a.lo * b.hi, p2 = a.hi * b.lo, p3 = a.hi * b.hi;
  return {down(std::min({p0, p1, p2, p3})), up(std::max({p0, p1, p2, p3}))};
}
bool positive(I a) { return a.lo > 0; }
bool negative(I a) { return a.hi < 0; }

using IVec = std::array<I, 3>;
IVec operator-(const IVec& a, const IVec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
IVec cross(const IVec& a, const IVec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
I dot(const IVec& a, const IVec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// cos or sin over th: the values at the ends, widened for libm's error, and
// +-1 when th may hold an extremum theta = phase + k pi (phase 0 for cos,
// pi/2 for sin; found with a generous slack: a spurious one only loosens the
// enclosure).
I cos_or_sin(bool sine, I th) {
  const auto f = [sine](double x) { return sine ? std::sin(x) : std::cos(x); };
  const double phase = sine ? std::numbers::pi / 2 : 0;
  const double m0 = (th.lo - phase) / std::numbers::pi, m1 = (th.hi - phase) / std::numbers::pi;
  const double slack = 1e-9 + 1e-12 * std::max(std::abs(m0), std::abs(m1));
  if (m1 - m0 + 2 * slack >= 2) return {-1, 1};
  const auto widen = [](double v, double sign) { return v + sign * (std::abs(v) * 0x1p-48 + 0x1p-1074); };
  const double a = f(th.lo), b = f(th.hi);
  I r{widen(std::min(a, b), -1), widen(std::max(a, b), 1)};
  for (double k = std::ceil(m0 - slack); k <= std::floor(m1 + slack); ++k) {
    if (std::fmod(k, 2) == 0) {
      r.hi = 1;
    } else {
      r.lo = -1;
    }
  }
  return {std::max(r.lo, -1.0), std::min(r.hi, 1.0)};
}

/// A pose enclosed over a time interval: R(T) and x(T) entrywise.
struct IPose {
  std::array<I, 9> R;
  IVec x;
};

IPose enclose(const RigidPath& p, I T) {
  IPose q;
  const std::array<double, 3> x0{p.start.x.x, p.start.x.y, p.start.x.z}, v{p.velocity.x, p.velocity.y, p.velocity.z};
  for (int k = 0; k < 3; ++k) q.x[k] = point(x0[k]) + v[k] * T;
  if (p.angle == 0) {  // pose_at keeps start.R: no rotation
    for (int k = 0; k < 9; ++k) q.R[k] = point(p.start.R[k]);
    return q;
  }
  // Rodrigues: Rot = c I + s [u]x + (1 - c) u u^T, the diagonal as
  // c (1 - u_i^2) + u_i^2 (c appears once: a tighter enclosure).
  const I th = p.angle * T, c = cos_or_sin(false, th), s = cos_or_sin(true, th);
  const I k = point(1) - c;
  const std::array<double, 3> u{p.axis.x, p.axis.y, p.axis.z};
  const std::array<double, 9> skew{0, -u[2], u[1], u[2], 0, -u[0], -u[1], u[0], 0};
  std::array<I, 9> rot;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const I uu = product(u[i], u[j]);
      rot[3 * i + j] = i == j ? c * (point(1) - uu) + uu : k * uu + skew[3 * i + j] * s;
    }
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      q.R[3 * i + j] = p.start.R[j] * rot[3 * i] + p.start.R[3 + j] * rot[3 * i + 1] + p.start.R[6 + j] * rot[3 * i + 2];
    }
  }
  return q;
}

/// R p + x over the interval pose.
IVec place(const IPose& q, const Vec3& p) {
  IVec w;
  for (int i = 0; i < 3; ++i) w[i] = q.x[i] + (p.x * q.R[3 * i] + p.y * q.R[3 * i + 1] + p.z * q.R[3 * i + 2]);
  return w;
}

// ---- One tree under an interval pose ----

struct Box {
  std::array<double, 3> lo, hi;
};
Box box_of(const IVec& v) { return {{v[0].lo, v[1].lo, v[2].lo}, {v[0].hi, v[1].hi, v[2].hi}}; }
IVec ivec_of(const Box& b) { return {I{b.lo[0], b.hi[0]}, I{b.lo[1], b.hi[1]}, I{b.lo[2], b.hi[2]}}; }
bool overlap(const Box& a, const Box& b) {
  return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&
         a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

/// World boxes of a tree's vertices and nodes over the current time piece,
/// computed when first asked for (a stamp per piece).
class Placed {
 public:
  explicit Placed(const ReferenceTree& tree)
      : tree_(tree),
        center_(tree.nodes.size()),
        half_(tree.nodes.size()),
        size_(tree.nodes.size()),
        vertex_(tree.soup.vertices.size()),
        node_(tree.nodes.size()),
        vertex_stamp_(tree.soup.vertices.size(), 0),
        node_stamp_(tree.nodes.size(), 0) {
    // Body boxes as center +- half, the half rounded up: the box lies inside.
    for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
      const ReferenceTree::Node& node = tree.nodes[n];
      for (int k = 0; k < 3; ++k) {
        const double lo = coord(node.lo, k), hi = coord(node.hi, k), c = lo + (hi - lo) / 2;
        center_[n][k] = c;
        half_[n][k] = up(std::max(up(hi - c), up(c - lo)));
      }
      size_[n] = half_[n][0] + half_[n][1] + half_[n][2];
    }
  }

  const ReferenceTree& tree() const { return tree_; }
  bool leaf(std::uint32_t n) const { return tree_.nodes[n].count == 1; }
  double size(std::uint32_t n) const { return size_[n]; }

  void set(const IPose& pose) {
    pose_ = pose;
    ++stamp_;
  }

  const Box& vertex(std::uint32_t v) {
    if (vertex_stamp_[v] != stamp_) {
      vertex_[v] = box_of(place(pose_, tree_.soup.vertices[v]));
      vertex_stamp_[v] = stamp_;
    }
    return vertex_[v];
  }

  /// A leaf: the hull of its vertices' boxes; an inner node: R c + x +- |R| h.
  const Box& node(std::uint32_t n) {
    if (node_stamp_[n] == stamp_) return node_[n];
    Box& b = node_[n];
    if (leaf(n)) {
      b = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
      for (const std::uint32_t v : tree_.soup.triangles[tree_.nodes[n].first]) {
        const Box& p = vertex(v);
        for (int k = 0; k < 3; ++k) b.lo[k] = std::min(b.lo[k], p.lo[k]), b.hi[k] = std::max(b.hi[k], p.hi[k]);
      }
    } else {
      const auto& c = center_[n];
      const auto& h = half_[n];
      for (int i = 0; i < 3; ++i) {
        const I* r = &pose_.R[3 * i];
        const I mid = pose_.x[i] + (c[0] * r[0] + c[1] * r[1] + c[2] * r[2]);
        const auto mag = [](I a) { return std::max(-a.lo, a.hi); };
        const double reach = up(up(up(mag(r[0]) * h[0]) + up(mag(r[1]) * h[1])) + up(mag(r[2]) * h[2]));
        b.lo[i] = down(mid.lo - reach);
        b.hi[i] = up(mid.hi + reach);
      }
    }
    node_stamp_[n] = stamp_;
    return b;
  }

 private:
  const ReferenceTree& tree_;
  std::vector<std::array<double, 3>> center_, half_;
  std::vector<double> size_;
  IPose pose_{};
  std::vector<Box> vertex_, node_;
  std::vector<std::uint32_t> vertex_stamp_, node_stamp_;
  std::uint32_t stamp_ = 0;
};

// ---- Triangle pairs ----

using Axis = std::array<double, 3>;
Axis sub(const Axis& a, const Axis& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Axis cross(const Axis& a, const Axis& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Axis middle(const Box& b) {
  return {b.lo[0] + (b.hi[0] - b.lo[0]) / 2, b.lo[1] + (b.hi[1] - b.lo[1]) / 2, b.lo[2] + (b.hi[2] - b.lo[2]) / 2};
}

/// The projection of a box onto n, outwards.
I project(const Axis& n, const Box& b) {
  std::array<double, 3> lo, hi;
  for (int k = 0; k < 3; ++k) {
    const double x = n[k] >= 0 ? b.lo[k] : b.hi[k], y = n[k] >= 0 ? b.hi[k] : b.lo[k];
    lo[k] = down(n[k] * x);
    hi[k] = up(n[k] * y);
  }
  return {down(down(lo[0] + lo[1]) + lo[2]), up(up(hi[0] + hi[1]) + hi[2])};
}

I project(const Axis& n, const std::array<const Box*, 3>& t) {
  const I p0 = project(n, *t[0]), p1 = project(n, *t[1]), p2 = project(n, *t[2]);
  return {std::min({p0.lo, p1.lo, p2.lo}), std::max({p0.hi, p1.hi, p2.hi})};
}

/// Separating axes of two triangles, taken at the boxes' middles (any axis
/// is valid; only the projections must enclose): both normals, the edge
/// cross products, the in-plane edge normals (coplanar and degenerate
/// triangles), and the centroids' offset (point-like triangles).
std::array<Axis, 24> candidate_axes(const std::array<const Box*, 3>& ta, const std::array<const Box*, 3>& tb) {
  std::array<Axis, 3> pa, pb, ea, eb;
  for (int i = 0; i < 3; ++i) pa[i] = middle(*ta[i]), pb[i] = middle(*tb[i]);
  for (int i = 0; i < 3; ++i) ea[i] = sub(pa[(i + 1) % 3], pa[i]), eb[i] = sub(pb[(i + 1) % 3], pb[i]);
  const Axis na = cross(ea[0], ea[1]), nb = cross(eb[0], eb[1]);
  std::array<Axis, 24> axes;
  std::size_t n = 0;
  axes[n++] = na;
  axes[n++] = nb;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) axes[n++] = cross(ea[i], eb[j]);
  }
  for (int i = 0; i < 3; ++i) {
    axes[n++] = cross(na, ea[i]);
    axes[n++] = cross(nb, eb[i]);
    axes[n++] = cross(na, eb[i]);
    axes[n++] = cross(nb, ea[i]);
  }
  Axis offset{};
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) offset[k] += pb[i][k] - pa[i][k];
  }
  axes[n] = offset;
  return axes;
}

std::array<const Box*, 3> triangle(Placed& p, std::uint32_t node) {
  const auto& t = p.tree().soup.triangles[p.tree().nodes[node].first];
  return {&p.vertex(t[0]), &p.vertex(t[1]), &p.vertex(t[2])};
}

bool leaves_apart(Placed& a, std::uint32_t na, Placed& b, std::uint32_t nb) {
  if (!overlap(a.node(na), b.node(nb))) return true;
  const auto ta = triangle(a, na), tb = triangle(b, nb);
  for (const Axis& n : candidate_axes(ta, tb)) {
    if (n[0] == 0 && n[1] == 0 && n[2] == 0) continue;
    const I pa = project(n, ta), pb = project(n, tb);
    if (pa.hi < pb.lo || pb.hi < pa.lo) return true;
  }
  return false;
}

using NodePair = std::pair<std::uint32_t, std::uint32_t>;

/// Whether every leaf pair is certified apart over the current piece. With
/// `failures`, gathers up to `cap` uncertified leaf pairs instead of stopping
/// at the first.
bool trees_apart(Placed& a, Placed& b, std::vector<NodePair>& stack, std::vector<NodePair>* failures,
                 std::size_t cap) {
  bool apart = true;
  stack.assign(1, {0, 0});
  while (!stack.empty()) {
    const auto [na, nb] = stack.back();
    stack.pop_back();
    const bool la = a.leaf(na), lb = b.leaf(nb);
    if (la && lb) {
      if (leaves_apart(a, na, b, nb)) continue;
      apart = false;
      if (failures == nullptr) return false;
      failures->emplace_back(na, nb);
      if (failures->size() >= cap) return false;
      continue;
    }
    if (!overlap(a.node(na), b.node(nb))) continue;
    if (lb || (!la && a.size(na) >= b.size(nb))) {
      const std::uint32_t c = a.tree().nodes[na].first;
      stack.emplace_back(c, nb);
      stack.emplace_back(c + 1, nb);
    } else {
      const std::uint32_t c = b.tree().nodes[nb].first;
      stack.emplace_back(na, c);
      stack.emplace_back(na, c + 1);
    }
  }
  return apart;
}

// ---- Certain contact ----

/// orient(a, b, c, d) = (b - a) x (c - a) . (d - a), enclosed.
I orient(const IVec& a, const IVec& b, const IVec& c, const IVec& d) { return dot(cross(b - a, c - a), d - a); }
bool same_strict_sign(I x, I y, I z) {
  return (positive(x) && positive(y) && positive(z)) || (negative(x) && negative(y) && negative(z));
}

/// Whether the segment pq certainly crosses the triangle abc at an interior
/// point of both: p and q strictly on opposite sides of its plane, and pq's
/// line strictly inside its three edges.
bool crosses(const IVec& p, const IVec& q, const IVec& a, const IVec& b, const IVec& c) {
  const I sp = orient(a, b, c, p), sq = orient(a, b, c, q);
  if (!((positive(sp) && negative(sq)) || (negative(sp) && positive(sq)))) return false;
  return same_strict_sign(orient(p, q, a, b), orient(p, q, b, c), orient(p, q, c, a));
}

bool certainly_intersect(Placed& a, std::uint32_t na, Placed& b, std::uint32_t nb) {
  const auto ta = triangle(a, na), tb = triangle(b, nb);
  std::array<IVec, 3> pa, pb;
  for (int i = 0; i < 3; ++i) pa[i] = ivec_of(*ta[i]), pb[i] = ivec_of(*tb[i]);
  for (int i = 0; i < 3; ++i) {
    if (crosses(pa[i], pa[(i + 1) % 3], pb[0], pb[1], pb[2])) return true;
    if (crosses(pb[i], pb[(i + 1) % 3], pa[0], pa[1], pa[2])) return true;
  }
  return false;
}

// Leaf pairs gathered from the first uncertified narrow piece for the contact probes.
constexpr std::size_t kProbePairs = 256;
// Pieces before giving up (a long graze would need ever more).
constexpr std::size_t kMaxPieces = std::size_t{1} << 18;

class Certifier {
 public:
  Certifier(const ReferenceTree& a, const RigidPath& pa, const ReferenceTree& b, const RigidPath& pb)
      : a_(a), b_(b), pa_(pa), pb_(pb) {}

  std::optional<bool> run(double t0, double t1, double min_width) {
    std::vector<std::pair<double, double>> pieces{{t0, t1}};
    for (std::size_t count = 1; !pieces.empty(); ++count) {
      const auto [s0, s1] = pieces.back();
      pieces.pop_back();
      set({s0, s1});
      // The last uncertified leaf pair is likely uncertified again.
      const bool apart = (!hint_ || leaves_apart(a_, hint_->first, b_, hint_->second)) && traverse();
      if (apart) continue;
      const double mid = s0 + (s1 - s0) / 2;
      if (s1 - s0 < min_width || mid <= s0 || mid >= s1 || count >= kMaxPieces) return probe(s0, s1, t1);
      pieces.emplace_back(mid, s1);
      pieces.emplace_back(s0, mid);
    }
    return true;
  }

 private:
  void set(I T) {
    a_.set(enclose(pa_, T));
    b_.set(enclose(pb_, T));
  }

  bool traverse() {
    failures_.clear();
    if (trees_apart(a_, b_, stack_, &failures_, 1)) return true;
    hint_ = failures_.front();
    return false;
  }

  /// After the uncertified piece [s0, s1]: false if one of its close leaf
  /// pairs certainly intersects at s0 or s0 + w 2^j (w = s1 - s0) up to t1.
  std::optional<bool> probe(double s0, double s1, double t1) {
    failures_.clear();
    set({s0, s1});
    trees_apart(a_, b_, stack_, &failures_, kProbePairs);
    const double w = std::max({s1 - s0, 0x1p-60 * (t1 - s0), 0x1p-1074});  // at most about 60 doublings
    for (double step = 0;; step = step == 0 ? w : 2 * step) {
      const double t = std::min(s0 + step, t1);
      set({t, t});
      for (const auto& [na, nb] : failures_) {
        if (certainly_intersect(a_, na, b_, nb)) return false;
      }
      if (t >= t1) return std::nullopt;
    }
  }

  Placed a_, b_;
  const RigidPath& pa_;
  const RigidPath& pb_;
  std::vector<NodePair> stack_, failures_;
  std::optional<NodePair> hint_;
};

bool finite(const RigidPath& p) {
  bool ok = finite(p.start.x) && finite(p.velocity) && finite(p.axis) && std::isfinite(p.angle);
  for (const double r : p.start.R) ok = ok && std::isfinite(r);
  return ok;
}

}  // namespace

ReferenceTree::ReferenceTree(TriangleSoup s) : soup(std::move(s)) {
  for (const Vec3& v : soup.vertices) {
    if (!finite(v)) throw std::invalid_argument("ReferenceTree: a vertex coordinate is not finite");
  }
  for (const auto& t : soup.triangles) {
    for (const std::uint32_t v : t) {
      if (v >= soup.vertices.size()) {
        throw std::invalid_argument("ReferenceTree: triangle vertex index " + std::to_string(v) + " out of range");
      }
    }
  }
  if (soup.triangles.empty()) return;
  std::vector<std::uint32_t> order(soup.triangles.size());
  std::iota(order.begin(), order.end(), 0U);
  nodes.reserve(2 * order.size() - 1);
  nodes.emplace_back();
  TreeBuilder(*this).build(0, order.data(), order.data() + order.size());
}

std::optional<bool> certify_separation(const ReferenceTree& a, const RigidPath& pa, const ReferenceTree& b,
                                       const RigidPath& pb, double t0, double t1, double min_width) {
  if (!(std::isfinite(t0) && std::isfinite(t1) && t0 <= t1 && min_width >= 0)) {
    throw std::invalid_argument("certify_separation: needs finite t0 <= t1 and min_width >= 0");
  }
  if (!finite(pa) || !finite(pb)) throw std::invalid_argument("certify_separation: a path is not finite");
  if (a.nodes.empty() || b.nodes.empty()) return true;
  return Certifier(a, pa, b, pb).run(t0, t1, min_width);
}

std::optional<bool> certify_separation(const TriangleSoup& a, const RigidPath& pa, const TriangleSoup& b,
                                       const RigidPath& pb, double t0, double t1, double min_width) {
  return certify_separation(ReferenceTree(a), pa, ReferenceTree(b), pb, t0, t1, min_width);
}

}  // namespace simdccd
