// The swept-sphere-volume hierarchy of a triangle soup (advance.hpp):
// top-down, each node a line-swept sphere around its triangles' vertices
// (PQP's LSS; a point-swept sphere when the segment shrinks to a point),
// split at the median centroid along the principal direction.
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

  std::uint32_t build(std::uint32_t* first, std::uint32_t* last) {
    const auto index = static_cast<std::uint32_t>(m_.nodes.size());
    m_.nodes.emplace_back();
    fit(m_.nodes[index], first, last);
    if (last - first == 1) {
      m_.nodes[index].first = *first;
      return index;
    }
    // Split along the centroids' own principal direction: the vertices'
    // can run along long triangles whose centroids it does not separate
    // (the two caps of a thin slab, stacked slivers).
    const Vec3 axis = principal_axis(first, last, Points::centroids);
    std::uint32_t* mid = first + (last - first) / 2;
    std::nth_element(first, mid, last, [&](std::uint32_t a, std::uint32_t b) {
      const double pa = dot(centroid(a), axis), pb = dot(centroid(b), axis);
      return pa < pb || (pa == pb && a < b);  // a strict total order: the same tree everywhere
    });
    const std::uint32_t left = build(first, mid);
    const std::uint32_t right = build(mid, last);
    m_.nodes[index].first = left;
    m_.nodes[index].second = right;
    return index;
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

  // The dominant eigenvector of the points' covariance, by power iteration
  // from the widest box axis (a fixed count: deterministic).
  Vec3 principal_axis(const std::uint32_t* first, const std::uint32_t* last, Points points) const {
    Vec3 mean{};
    double n = 0;
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    each_point(first, last, points, [&](const Vec3& v) {
      mean = mean + v;
      n += 1;
      lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
      hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
    });
    mean = (1 / n) * mean;
    double c[3][3] = {};
    each_point(first, last, points, [&](const Vec3& v) {
      const double d[3] = {v.x - mean.x, v.y - mean.y, v.z - mean.z};
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) c[i][j] += d[i] * d[j];
      }
    });
    const Vec3 extent = hi - lo;
    Vec3 u = extent.x >= extent.y && extent.x >= extent.z ? Vec3{1, 0, 0}
             : extent.y >= extent.z                       ? Vec3{0, 1, 0}
                                                          : Vec3{0, 0, 1};
    for (int it = 0; it < 32; ++it) {
      const Vec3 w{c[0][0] * u.x + c[0][1] * u.y + c[0][2] * u.z, c[1][0] * u.x + c[1][1] * u.y + c[1][2] * u.z,
                   c[2][0] * u.x + c[2][1] * u.y + c[2][2] * u.z};
      const double len = norm(w);
      if (!(len > 0)) break;
      u = (1 / len) * w;
    }
    return u;
  }

  // The segment along the principal axis through the mean, shortened as far
  // as the radius allows (a point past an end must be within the radius of
  // that end), then the radius measured from the segment actually stored.
  void fit(SsvNode& node, const std::uint32_t* first, const std::uint32_t* last) const {
    const Vec3 axis = principal_axis(first, last, Points::vertices);
    Vec3 mean{};
    double n = 0, reach = 0;
    each_vertex(first, last, [&](const Vec3& v) {
      mean = mean + v;
      n += 1;
      reach = std::max(reach, norm(v));
    });
    mean = (1 / n) * mean;
    double r2 = 0;
    each_vertex(first, last, [&](const Vec3& v) {
      const Vec3 d = v - mean;
      const double s = dot(d, axis);
      r2 = std::max(r2, dot(d, d) - s * s);
    });
    double lo = INFINITY, hi = -INFINITY;
    each_vertex(first, last, [&](const Vec3& v) {
      const Vec3 d = v - mean;
      const double s = dot(d, axis);
      const double slack = std::sqrt(std::max(0.0, r2 - (dot(d, d) - s * s)));
      lo = std::min(lo, s + slack);
      hi = std::max(hi, s - slack);
    });
    if (lo > hi) lo = hi = (lo + hi) / 2;
    node.a = mean + lo * axis;
    node.b = mean + hi * axis;
    double radius = 0;
    each_vertex(first, last, [&](const Vec3& v) { radius = std::max(radius, point_segment(v, node.a, node.b)); });
    const double slack = 0x1p-40 * size_;
    node.radius = radius * kWiden + slack;
    node.reach = reach * kWiden + slack;
    node.count = static_cast<std::uint32_t>(last - first);
  }

  static double point_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 d = b - a;
    const double dd = dot(d, d);
    const double s = dd > 0 ? std::clamp(dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
    return norm(p - (a + s * d));
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
  Builder(model).build(order.data(), order.data() + order.size());
  model.reach = model.nodes[0].reach;
  return model;
}

}  // namespace simdccd
