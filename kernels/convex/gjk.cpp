// GJK in van den Bergen's form (convex/gjk.hpp): a pair into a lane of the
// kernel of convex/gjk_kernel-inl.h (support points of the Minkowski
// difference of the cores, the closest point of the simplex, the
// termination test), and the answer out of it: closest points with the radii
// of spheres and capsules added back, features, the warm start. gjk() runs
// one pair on the plain-double instantiation of the kernel, gjk_batch() many
// on the active target's; every lane computes the same bits.
#include "simdccd/convex/gjk.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/vec3_math.hpp"
#include "convex/gjk_kernel_table.hpp"
#include "convex/gjk_valid.hpp"
#include "convex/scale.hpp"
#include "convex/support.hpp"
#include "simdccd/convex/exact_gjk.hpp"
#include "convex/gjk_kernel-inl.h"

namespace simdccd::convex {
namespace {

// A posed shape's core (sphere: its center, capsule: its segment, others:
// the shape) with the radius swept around it.
class Core {
 public:
  Core(const ConvexShape& shape, const Pose& pose) : s_(shape), pose_(pose), end0_(pose.x), end1_(pose.x) {
    if (s_.kind == ShapeKind::sphere) {
      margin_ = s_.radius;
    } else if (s_.kind == ShapeKind::capsule) {
      margin_ = s_.radius;
      end0_ = capsule_end(s_, pose, 0);
      end1_ = capsule_end(s_, pose, 1);
    }
  }

  double margin() const { return margin_; }
  /// Sphere: its center (both ends); capsule: its segment's ends; others: pose.x.
  const Vec3& end(int k) const { return k == 0 ? end0_ : end1_; }
  bool has_ids() const { return s_.kind != ShapeKind::cylinder; }

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
    // Spread over the solid (an intersecting simplex): three of its
    // vertices, or for a diagonal (two) the face x y through the first.
    if (n < 3) return {FeatureType::face, face_index(ids[0], ids[0] ^ 1u, ids[0] ^ 2u)};
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
  Vec3 end0_, end1_;
};

// The distinct ids (ia or ib rows) of the slots in, ascending.
template <std::size_t K>
int distinct_ids(const GjkLanes<K>& lanes, std::size_t l, const double (&ids)[5][K], std::uint32_t* out) {
  int n = 0;
  for (int s = 0; s < 4; ++s) {  // insertion into the sorted prefix
    if (!(lanes.in[s][l] > 0)) continue;
    const auto id = static_cast<std::uint32_t>(ids[s][l]);
    int k = n;
    while (k > 0 && out[k - 1] > id) --k;
    if (k > 0 && out[k - 1] == id) continue;
    for (int j = n; j > k; --j) out[j] = out[j - 1];
    out[k] = id;
    ++n;
  }
  return n;
}

template <std::size_t K>
void set_row(double (&row)[3][K], std::size_t l, const Vec3& p) {
  row[0][l] = p.x;
  row[1][l] = p.y;
  row[2][l] = p.z;
}

template <std::size_t K>
Vec3 get_row(const double (&row)[3][K], std::size_t l) {
  return {row[0][l], row[1][l], row[2][l]};
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

namespace {

// tau of a pair whose body origins are `centers` apart.
double pair_tolerance(const GjkPair& p, const GjkOptions& options, double centers) {
  return gjk_tolerance(options, p.reach_a + p.reach_b + centers, norm(p.pa->x) + norm(p.pb->x));
}

}  // namespace

SpheresTest spheres_test(const GjkPair& p, const GjkOptions& options) {
  SpheresTest t;
  if (!options.intersection_only) return t;
  t.centers = norm(p.pa->x - p.pb->x);
  t.tau = pair_tolerance(p, options, t.centers);
  t.apart = t.centers - (p.reach_a + p.reach_b) > kApart * t.tau;
  return t;
}

GjkResult spheres_apart_answer(const GjkPair& p, const SpheresTest& t) {
  const Vec3 d = p.pa->x - p.pb->x;
  const double reaches = p.reach_a + p.reach_b;
  GjkResult r;
  r.valid = true;
  r.tolerance = t.tau;
  r.distance = t.centers + reaches;
  r.lower_bound = t.centers - reaches;
  r.separating_axis = (-1 / t.centers) * d;
  r.warm.direction = d;
  return r;
}

template <std::size_t K>
void fill_lane(GjkLanes<K>& lanes, std::size_t l, const GjkPair& p, const GjkOptions& options) {
  const double tau = pair_tolerance(p, options, norm(p.pa->x - p.pb->x));
  const Core ca(*p.a, *p.pa), cb(*p.b, *p.pb);
  const Core* core[2] = {&ca, &cb};
  const ConvexShape* shape[2] = {p.a, p.b};
  const Pose* pose[2] = {p.pa, p.pb};
  lanes.live[l] = 1;
  for (int s = 0; s < 2; ++s) {
    const ConvexShape& c = *shape[s];
    lanes.kind[s][l] = static_cast<double>(c.kind);
    for (int k = 0; k < 9; ++k) lanes.R[s][k][l] = pose[s]->R[k];
    set_row(lanes.x[s], l, pose[s]->x);
    // Rows a kind's support never reads are left as they are (selected away).
    if (c.kind == ShapeKind::sphere || c.kind == ShapeKind::capsule) {
      set_row(lanes.end0[s], l, core[s]->end(0));
      set_row(lanes.end1[s], l, core[s]->end(1));
    } else if (c.kind != ShapeKind::polytope) {
      set_row(lanes.half[s], l, c.kind == ShapeKind::cylinder ? Vec3{c.radius, 0, c.half_height} : c.half);
    }
    const bool polytope = c.kind == ShapeKind::polytope;
    lanes.last[s][l] = polytope ? static_cast<double>(c.vertices.size() - 1) : 0;
  }
  // Stop at |v| <= margin + tau/2 (intersecting). An intersection test
  // only: a plane that holds the shapes kApart tau apart proves D > tau/2,
  // so the distance query's |v| could never fall to `hit`: both answer alike.
  const double margin = ca.margin() + cb.margin();
  const double hit = margin + 0.5 * tau;
  lanes.tau[l] = tau;
  lanes.hit2[l] = hit * hit;
  lanes.apart[l] = options.intersection_only ? margin + kApart * tau : INFINITY;
  lanes.max_iterations[l] = options.max_iterations;
  lanes.lb[l] = -std::numeric_limits<double>::infinity();
  lanes.iterations[l] = 0;
  lanes.converged[l] = 0;
  // Warm start from the previous simplex's vertex ids, else from a direction.
  const GjkWarmStart* warm = p.warm;
  int n = 0;
  if (warm != nullptr && ca.has_ids() && cb.has_ids() && warm->count >= 1 && warm->count <= 4) {
    for (int i = 0; i < warm->count; ++i) {
      Vec3 a, b;
      if (!ca.vertex(warm->vertex_a[i], a) || !cb.vertex(warm->vertex_b[i], b)) {
        n = 0;
        break;
      }
      const Vec3 w = a - b;
      bool held = false;
      for (int j = 0; j < n; ++j) held = held || get_row(lanes.w[j], l) == w;
      if (held) continue;
      set_row(lanes.w[n], l, w);
      set_row(lanes.a[n], l, a);
      set_row(lanes.b[n], l, b);
      lanes.ia[n][l] = warm->vertex_a[i];
      lanes.ib[n][l] = warm->vertex_b[i];
      ++n;
    }
  }
  for (int s = 0; s < 4; ++s) lanes.in[s][l] = s < n ? 1 : 0;
  Vec3 d = warm != nullptr && finite(warm->direction) && !is_zero(warm->direction) ? warm->direction
                                                                                   : p.pa->x - p.pb->x;
  // A tiny or huge one (a warm direction, say) brought to [1, 2) by a power
  // of two: the same support points (directions are compared by sign and
  // ratio), and none of their squares under- or overflows.
  const double m = max_abs(d);
  if (m == 0) {
    d = {1, 0, 0};
  } else if (!(m >= 0x1p-500 && m <= 0x1p500)) {
    d = ldexp(d, -std::ilogb(m));
  }
  set_row(lanes.start, l, d);
}

template <std::size_t K>
bool stall_touches(const GjkLanes<K>& lanes, std::size_t l, const GjkPair& p) {
  // A cylinder's core is curved: no exact answer.
  if (p.a->kind == ShapeKind::cylinder || p.b->kind == ShapeKind::cylinder) return false;
  // The intersection test's rule for "separate" (kApart, gjk_valid.hpp): a
  // plane that holds the shapes more than kApart tau apart proves D > tau/2
  // beyond the rounding. The lower bound's plane is such a plane above
  // margin + kApart tau = hit + (kApart - 1/2) tau. Two support scans (along
  // the last v and the line of the centres), orders of magnitude cheaper
  // than exact GJK, find one for most pairs that a low iteration cap stopped
  // far from contact, whose bound is still low.
  const double apart = kApart * lanes.tau[l];
  if (lanes.lb[l] > std::sqrt(lanes.hit2[l]) + (kApart - 0.5) * lanes.tau[l]) return false;
  const auto apart_along = [&](const Vec3& d) {
    const Vec3 u = scaled_to(d, 1);
    return !is_zero(u) && dot(u, support(*p.b, *p.pb, -1.0 * u).point) - dot(u, support(*p.a, *p.pa, u).point) > apart;
  };
  if (apart_along(-1.0 * get_row(lanes.v, l)) || apart_along(p.pb->x - p.pa->x)) return false;
  // Exact GJK on the cores (any number of vertices), from the lane's last v.
  return exact_gjk_within(world_core(*p.a, *p.pa), world_core(*p.b, *p.pb), lanes.hit2[l], get_row(lanes.v, l));
}

template <std::size_t K>
void finish_lane(const GjkLanes<K>& lanes, std::size_t l, const GjkPair& p, GjkResult& r) {
  const Core ca(*p.a, *p.pa), cb(*p.b, *p.pb);
  const double margin = ca.margin() + cb.margin();
  const double tau = lanes.tau[l];
  r = GjkResult{};
  r.valid = true;
  r.tolerance = tau;
  r.intersecting = lane_intersecting(lanes, l, p);
  r.converged = lanes.converged[l] > 0 || r.intersecting;  // a stall exact GJK settled too
  r.iterations = static_cast<std::uint32_t>(lanes.iterations[l]);
  Vec3 core_a{}, core_b{};
  for (int s = 0; s < 4; ++s) {
    if (!(lanes.in[s][l] > 0)) continue;
    core_a = core_a + lanes.lambda[s][l] * get_row(lanes.a[s], l);
    core_b = core_b + lanes.lambda[s][l] * get_row(lanes.b[s], l);
  }
  // v is a blunt triangle's projection of the origin, more accurate than
  // its weights (gjk_kernel-inl.h, triangle()): each point takes half the
  // difference, so that point_a - point_b is v again.
  const Vec3 gap = get_row(lanes.v, l) - (core_a - core_b);
  core_a = core_a + 0.5 * gap;
  core_b = core_b - 0.5 * gap;
  const double vv = lanes.vv[l];
  const double d = std::sqrt(vv);
  r.distance = r.intersecting ? 0 : d - margin;
  r.lower_bound = r.intersecting ? 0 : std::max(0.0, lanes.lb[l] - margin);
  if (r.lower_bound > 0) r.separating_axis = (-1 / lanes.lb_norm[l]) * get_row(lanes.lb_dir, l);
  if (d > 0 && margin > 0) {
    const Vec3 unit = (1 / d) * get_row(lanes.v, l);
    core_a = core_a - ca.margin() * unit;
    core_b = core_b + cb.margin() * unit;
  }
  r.point_a = core_a;
  r.point_b = core_b;

  std::uint32_t id[4];
  int n = distinct_ids(lanes, l, lanes.ia, id);
  r.feature_a = ca.feature(id, n, r.point_a, tau);
  n = distinct_ids(lanes, l, lanes.ib, id);
  r.feature_b = cb.feature(id, n, r.point_b, tau);

  // An intersecting pair's last direction says little: the next call starts cold.
  r.warm.direction = r.intersecting ? Vec3{} : get_row(lanes.last_dir, l);
  if (ca.has_ids() && cb.has_ids()) {
    for (int s = 0; s < 4; ++s) {
      if (!(lanes.in[s][l] > 0)) continue;
      r.warm.vertex_a[r.warm.count] = static_cast<std::uint32_t>(lanes.ia[s][l]);
      r.warm.vertex_b[r.warm.count] = static_cast<std::uint32_t>(lanes.ib[s][l]);
      ++r.warm.count;
    }
  }
}

template void fill_lane(GjkLanes<kGjkBatch>&, std::size_t, const GjkPair&, const GjkOptions&);
template void finish_lane(const GjkLanes<kGjkBatch>&, std::size_t, const GjkPair&, GjkResult&);
template bool stall_touches(const GjkLanes<kGjkBatch>&, std::size_t, const GjkPair&);

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(const Vec3& a, const Vec3& b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }

}  // namespace

bool identical(const GjkResult& a, const GjkResult& b) {
  return a.valid == b.valid && a.intersecting == b.intersecting && a.converged == b.converged &&
         same_bits(a.distance, b.distance) && same_bits(a.lower_bound, b.lower_bound) &&
         same_bits(a.tolerance, b.tolerance) && same_bits(a.separating_axis, b.separating_axis) &&
         same_bits(a.point_a, b.point_a) && same_bits(a.point_b, b.point_b) && a.feature_a == b.feature_a &&
         a.feature_b == b.feature_b && a.iterations == b.iterations && same_bits(a.warm.direction, b.warm.direction) &&
         a.warm.count == b.warm.count && a.warm.vertex_a == b.warm.vertex_a && a.warm.vertex_b == b.warm.vertex_b;
}

GjkFunction scalar_gjk_kernel() { return &portable::gjk_lanes<simd::ScalarLanes, kGjkBatch>; }

GjkResult gjk(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb,
              const GjkOptions& options, const GjkWarmStart* warm) {
  const double reach_a = checked_reach(a), reach_b = checked_reach(b);
  if (!is_valid(options) || !is_valid(pa) || !is_valid(pb) || std::isnan(reach_a) || std::isnan(reach_b)) return {};
  return gjk_alone({&a, reach_a, &pa, &b, reach_b, &pb, warm}, options);
}

int pair_scale(const GjkPair& p) {
  return query_scale({largest_coordinate(*p.a), largest_coordinate(*p.b), max_abs(p.pa->x), max_abs(p.pb->x)});
}

GjkResult gjk_alone(const GjkPair& p, const GjkOptions& options) {
  const int k = pair_scale(p);
  if (k == 0) return gjk_one(p, options);
  if (k > kSmallestPairExponent) return {};  // invalid: its world points round on the subnormal grid
  const ConvexShape a = scaled(*p.a, k), b = scaled(*p.b, k);
  const Pose pa = scaled(*p.pa, k), pb = scaled(*p.pb, k);
  GjkResult r = gjk_one({&a, reach(a), &pa, &b, reach(b), &pb, p.warm}, options);
  scale_lengths(r, -k);
  return r;
}

GjkResult gjk_one(const GjkPair& pair, const GjkOptions& options) {
  if (const SpheresTest t = spheres_test(pair, options); t.apart) return spheres_apart_answer(pair, t);
  GjkLanes<1> lane{};
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "a polytope's Vec3 array is its vertex rows");
  lane.vertices[0] = pair.a->kind == ShapeKind::polytope ? &pair.a->vertices[0].x : nullptr;
  lane.vertices[1] = pair.b->kind == ShapeKind::polytope ? &pair.b->vertices[0].x : nullptr;
  fill_lane(lane, 0, pair, options);
  portable::gjk_lanes<simd::ScalarLanes>(lane);
  GjkResult r;
  finish_lane(lane, 0, pair, r);
  return r;
}

}  // namespace simdccd::convex
