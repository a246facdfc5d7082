// The swept-sphere-volume hierarchy of a triangle soup (advance.hpp):
// top-down, each node a rectangle-swept sphere around its triangles'
// vertices (PQP's RSS), split at the median centroid along the principal
// direction.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "simdccd/advance.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {


// Radii and reaches are computed in double and then widened by this relative
// amount plus an absolute 2^-40 of the model's size, so that they bound the
// exact values (a few roundings each).
constexpr double kWiden = 1 + 0x1p-40;

class Builder {
 public:
  explicit Builder(RigidModel& model) : m_(model), size_(model_size(model.soup)) {}

  // Fits node `index` around [first, last) and builds its subtree. The two
  // children of a node are allocated side by side, so that a sweep splitting
  // a node reads one block of memory.
  void build(std::uint32_t index, std::uint32_t* first, std::uint32_t* last) {
    fit(m_.nodes[index], first, last);
    if (last - first == 1) {
      m_.nodes[index].first = *first;
      return;
    }
    // Split along the centroids' own principal direction: the vertices'
    // can run along long triangles whose centroids it does not separate
    // (the two caps of a thin slab, stacked slivers).
    const Vec3 axis = principal_axis(spread(first, last, Points::centroids));
    std::uint32_t* mid = first + (last - first) / 2;
    std::nth_element(first, mid, last, [&](std::uint32_t a, std::uint32_t b) {
      const double pa = dot(centroid(a), axis), pb = dot(centroid(b), axis);
      return pa < pb || (pa == pb && a < b);  // a strict total order: the same tree everywhere
    });
    const auto left = static_cast<std::uint32_t>(m_.nodes.size());
    m_.nodes.resize(left + 2);
    m_.nodes[index].first = left;
    m_.nodes[index].second = left + 1;
    build(left, first, mid);
    build(left + 1, mid, last);
  }

 private:
  static double model_size(const TriangleSoup& soup) {
    double s = 0;
    for (const Vec3& v : soup.vertices) s = std::max({s, std::abs(v.x), std::abs(v.y), std::abs(v.z)});
    return s;
  }

  Vec3 vertex(std::uint32_t t, int k) const { return m_.soup.vertices[m_.soup.triangles[t][k]]; }
  Vec3 centroid(std::uint32_t t) const { return (1.0 / 3) * (vertex(t, 0) + vertex(t, 1) + vertex(t, 2)); }

  enum class Points { vertices, centroids };

  template <class F>
  void each_point(const std::uint32_t* first, const std::uint32_t* last, Points points, F f) const {
    if (points == Points::vertices) return each_vertex(first, last, f);
    for (const std::uint32_t* t = first; t != last; ++t) f(centroid(*t));
  }

  template <class F>
  void each_vertex(const std::uint32_t* first, const std::uint32_t* last, F f) const {
    for (const std::uint32_t* t = first; t != last; ++t) {
      for (int k = 0; k < 3; ++k) f(vertex(*t, k));
    }
  }

  struct Spread {
    Vec3 mean{};
    double c[3][3] = {};  ///< covariance (unscaled)
    Vec3 extent{};        ///< of the points' bounding box
  };

  Spread spread(const std::uint32_t* first, const std::uint32_t* last, Points points) const {
    Spread sp;
    double n = 0;
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    each_point(first, last, points, [&](const Vec3& v) {
      sp.mean = sp.mean + v;
      n += 1;
      lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
      hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
    });
    sp.mean = (1 / n) * sp.mean;
    each_point(first, last, points, [&](const Vec3& v) {
      const double d[3] = {v.x - sp.mean.x, v.y - sp.mean.y, v.z - sp.mean.z};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) sp.c[i][j] += d[i] * d[j];
      }
    });
    sp.extent = hi - lo;
    return sp;
  }

  // The dominant eigenvector of the covariance orthogonal to `away` (a unit
  // vector or zero), by power iteration from `u` (a fixed count: deterministic).
  static Vec3 dominant(const Spread& sp, Vec3 u, const Vec3& away) {
    for (int it = 0; it < 32; ++it) {
      Vec3 w{sp.c[0][0] * u.x + sp.c[0][1] * u.y + sp.c[0][2] * u.z,
             sp.c[1][0] * u.x + sp.c[1][1] * u.y + sp.c[1][2] * u.z,
             sp.c[2][0] * u.x + sp.c[2][1] * u.y + sp.c[2][2] * u.z};
      w = w - dot(w, away) * away;
      const double len = norm(w);
      if (!(len > 0)) break;
      u = (1 / len) * w;
    }
    return u;
  }

  // The principal direction, from the widest box axis.
  static Vec3 principal_axis(const Spread& sp) {
    const Vec3& e = sp.extent;
    return dominant(sp, e.x >= e.y && e.x >= e.z ? Vec3{1, 0, 0} : e.y >= e.z ? Vec3{0, 1, 0} : Vec3{0, 0, 1}, {});
  }

  // The rectangle in the plane of the two principal directions through the
  // middle of the vertices' spread along the third, spanning their
  // projections less the sphere's reach; then the radius measured from the
  // rectangle actually stored.
  void fit(SsvNode& node, const std::uint32_t* first, const std::uint32_t* last) const {
    const Spread sp = spread(first, last, Points::vertices);
    const Vec3 e1 = principal_axis(sp);
    // Start the second from the box axis least along the first, made orthogonal to it.
    const Vec3 axis = std::abs(e1.x) <= std::abs(e1.y) && std::abs(e1.x) <= std::abs(e1.z) ? Vec3{1, 0, 0}
                      : std::abs(e1.y) <= std::abs(e1.z)                                   ? Vec3{0, 1, 0}
                                                                                           : Vec3{0, 0, 1};
    const Vec3 start = axis - dot(axis, e1) * e1;
    const Vec3 e2 = dominant(sp, (1 / norm(start)) * start, e1);
    const Vec3 n3 = cross(e1, e2), e3 = (1 / norm(n3)) * n3;
    const Vec3 axes[3] = {e1, e2, e3};
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, reach = 0;
    each_vertex(first, last, [&](const Vec3& v) {
      reach = std::max(reach, norm(v));
      for (int k = 0; k < 3; ++k) {
        const double s = dot(v - sp.mean, axes[k]);
        lo[k] = std::min(lo[k], s);
        hi[k] = std::max(hi[k], s);
      }
    });
    // PQP's shrink (without its corner pass): along each axis the rectangle
    // stops sqrt(r0^2 - h^2) short of a point at height h over the middle
    // plane, r0 the half thickness (a round tube's cross-section is then a
    // segment swept by r0, not a square of side 2 r0 swept by r0). The radius
    // is then measured as before, so it covers a point beyond two edges too.
    const double r0 = 0.5 * (hi[2] - lo[2]), mid = 0.5 * (lo[2] + hi[2]);
    double shrunk_lo[2] = {INFINITY, INFINITY}, shrunk_hi[2] = {-INFINITY, -INFINITY};
    each_vertex(first, last, [&](const Vec3& v) {
      const Vec3 d = v - sp.mean;
      const double h = dot(d, e3) - mid, give = std::sqrt(std::max(0.0, r0 * r0 - h * h));
      for (int k = 0; k < 2; ++k) {
        const double s = dot(d, axes[k]);
        shrunk_lo[k] = std::min(shrunk_lo[k], s + give);
        shrunk_hi[k] = std::max(shrunk_hi[k], s - give);
      }
    });
    for (int k = 0; k < 2; ++k) {
      // Crossed bounds: the points fit in the sphere swept along less than a line.
      const double middle = 0.5 * (shrunk_lo[k] + shrunk_hi[k]);
      lo[k] = std::min(shrunk_lo[k], middle);
      hi[k] = std::max(shrunk_hi[k], middle);
    }
    node.center = sp.mean;
    for (int k = 0; k < 3; ++k) node.center = node.center + (0.5 * (lo[k] + hi[k])) * axes[k];
    const double half_u = 0.5 * (hi[0] - lo[0]), half_v = 0.5 * (hi[1] - lo[1]);
    node.u = half_u * e1;
    node.v = half_v * e2;
    double radius = 0;
    each_vertex(first, last, [&](const Vec3& v) {
      const Vec3 d = v - node.center;
      const double s = std::clamp(dot(d, e1), -half_u, half_u), t = std::clamp(dot(d, e2), -half_v, half_v);
      radius = std::max(radius, norm(d - s * e1 - t * e2));
    });
    const double slack = 0x1p-40 * size_;
    node.radius = radius * kWiden + slack;
    node.reach = reach * kWiden + slack;
    node.size = norm(node.u) + norm(node.v) + node.radius;
    node.count = static_cast<std::uint32_t>(last - first);
  }

  RigidModel& m_;
  double size_;
};

void check(const TriangleSoup& soup) {
  if (soup.triangles.empty()) throw std::invalid_argument("build_model: the soup has no triangles");
  for (std::size_t i = 0; i < soup.vertices.size(); ++i) {
    for (double c : {soup.vertices[i].x, soup.vertices[i].y, soup.vertices[i].z}) {
      if (!std::isfinite(c) || std::abs(c) > 0x1p60) {
        throw std::invalid_argument("build_model: vertex " + std::to_string(i) +
                                    " has a coordinate that is not finite or above 2^60 in magnitude");
      }
    }
  }
  for (std::size_t t = 0; t < soup.triangles.size(); ++t) {
    for (std::uint32_t v : soup.triangles[t]) {
      if (v >= soup.vertices.size()) {
        throw std::invalid_argument("build_model: triangle " + std::to_string(t) + " names vertex " +
                                    std::to_string(v) + " of " + std::to_string(soup.vertices.size()));
      }
    }
  }
}

}  // namespace

RigidModel build_model(TriangleSoup soup) {
  check(soup);
  RigidModel model;
  model.soup = std::move(soup);
  std::vector<std::uint32_t> order(model.soup.triangles.size());
  std::iota(order.begin(), order.end(), 0u);
  model.nodes.reserve(2 * order.size());
  model.nodes.emplace_back();
  Builder(model).build(0, order.data(), order.data() + order.size());
  model.reach = model.nodes[0].reach;
  return model;
}

}  // namespace simdccd
