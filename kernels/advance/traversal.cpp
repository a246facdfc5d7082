// Sweeps of two SSV hierarchies (traversal.hpp).
#include "advance/traversal.hpp"

#include <algorithm>
#include <cmath>

#include "advance/kernel_table.hpp"
#include "common/vec3_math.hpp"

namespace simdccd::advancement {
namespace {


// R^T v (pose.hpp) into a Frame's array.
void transpose_times(const std::array<double, 9>& R, const Vec3& v, double* out) {
  const Vec3 r = simdccd::transpose_times(R, v);
  out[0] = r.x;
  out[1] = r.y;
  out[2] = r.z;
}

void put(const Vec3& p, double (*dst)[kBatch], std::size_t lane) {
  dst[0][lane] = p.x;
  dst[1][lane] = p.y;
  dst[2][lane] = p.z;
}

}  // namespace

Frame make_frame(const PairState& s, double reach_a, double reach_b) {
  Frame f;
  const auto& Ra = s.a.R;
  const auto& Rb = s.b.R;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) f.R[3 * i + j] = Ra[i] * Rb[j] + Ra[3 + i] * Rb[3 + j] + Ra[6 + i] * Rb[6 + j];
  }
  transpose_times(Ra, {s.b.x.x - s.a.x.x, s.b.x.y - s.a.x.y, s.b.x.z - s.a.x.z}, f.x);
  transpose_times(Ra, s.v, f.v);
  transpose_times(Ra, s.wa, f.wa);
  transpose_times(Ra, s.wb, f.wb);
  f.lin = s.lin;
  f.spin_a = s.spin_a;
  f.spin_b = s.spin_b;
  f.error = distance_error(reach_a, reach_b, norm(s.a.x) + norm(s.b.x) + norm(s.v));
  return f;
}

DistanceResult closest_pair(const SweepResult& r, const Pose& pose_a) {
  DistanceResult d;
  d.distance = norm(r.point_b - r.point_a);
  d.point_a = apply(pose_a, r.point_a);
  d.point_b = apply(pose_a, r.point_b);
  d.triangle_a = r.triangle_a;
  d.triangle_b = r.triangle_b;
  return d;
}

Sweeper::Sweeper(const RigidModel& a, const RigidModel& b) : a_(a), b_(b), kernels_(active_kernels()) {}

void Sweeper::add_node(std::uint32_t ia, std::uint32_t ib) {
  const SsvNode& na = a_.nodes[ia];
  const SsvNode& nb = b_.nodes[ib];
  const std::size_t k = nodes_.count++;
  put(na.center, nodes_.ca, k);
  put(na.u, nodes_.ua, k);
  put(na.v, nodes_.va, k);
  put(nb.center, nodes_.cb, k);
  put(nb.u, nodes_.ub, k);
  put(nb.v, nodes_.vb, k);
  nodes_.ra[k] = na.radius;
  nodes_.rb[k] = nb.radius;
  nodes_.reach_a[k] = na.reach;
  nodes_.reach_b[k] = nb.reach;
  node_ids_[k][0] = ia;
  node_ids_[k][1] = ib;
}

void Sweeper::add_leaf(std::uint32_t ia, std::uint32_t ib) {
  const SsvNode& na = a_.nodes[ia];
  const SsvNode& nb = b_.nodes[ib];
  const std::size_t k = leaves_.count++;
  for (int v = 0; v < 3; ++v) {
    const Vec3& pa = a_.soup.vertices[a_.soup.triangles[na.first][v]];
    const Vec3& pb = b_.soup.vertices[b_.soup.triangles[nb.first][v]];
    put(pa, leaves_.a[v], k);
    put(pb, leaves_.b[v], k);
  }
  leaves_.reach_a[k] = na.reach;
  leaves_.reach_b[k] = nb.reach;
  leaf_ids_[k][0] = ia;
  leaf_ids_[k][1] = ib;
}

void Sweeper::flush_leaves(const Frame& f, SweepResult& r, double stop_below) {
  if (leaves_.count == 0) return;
  kernels_.triangle_pairs(leaves_, f);
  r.triangle_pairs += leaves_.count;
  for (std::size_t k = 0; k < leaves_.count; ++k) {
    r.dt = std::min(r.dt, leaves_.dt[k]);
    r.lower = std::min(r.lower, leaves_.lower[k]);
    if (leaves_.upper[k] < r.upper) {
      r.upper = leaves_.upper[k];
      r.leaf_a = leaf_ids_[k][0];
      r.leaf_b = leaf_ids_[k][1];
      r.triangle_a = a_.nodes[r.leaf_a].first;
      r.triangle_b = b_.nodes[r.leaf_b].first;
      r.point_a = {leaves_.pa[0][k], leaves_.pa[1][k], leaves_.pa[2][k]};
      r.point_b = {leaves_.pb[0][k], leaves_.pb[1][k], leaves_.pb[2][k]};
    }
  }
  leaves_.count = 0;
  if (r.upper <= stop_below) r.stopped = true;
}

SweepResult Sweeper::sweep(const Frame& f, Cull cull, double stop_below, double control, double horizon, bool has_seed,
                           std::uint32_t seed_a, std::uint32_t seed_b) {
  SweepResult r;
  leaves_.count = 0;
  if (has_seed) {
    add_leaf(seed_a, seed_b);
    flush_leaves(f, r, stop_below);
    if (r.stopped) return r;
  }
  const auto best = [&] { return std::min(horizon, control * (cull == Cull::by_time ? r.dt : r.upper)); };
  // Best first: the node pairs of least key (closing time or lower bound)
  // are expanded first, a few per round so that their children fill a
  // vector batch; the sweep ends when no pair left can beat the best leaf.
  stack_.clear();
  nodes_.count = 0;
  add_node(0, 0);
  double culled = INFINITY;  // the least key of a culled node pair
  evaluate_nodes(f, cull, r, best(), culled);
  while (!stack_.empty()) {
    nodes_.count = 0;
    for (std::size_t popped = 0; popped < kRound && !stack_.empty(); ) {
      const Keyed pair = stack_.back();
      stack_.pop_back();
      if (pair.key >= best()) {
        culled = std::min(culled, pair.key);
        continue;
      }
      ++popped;
      const SsvNode& na = a_.nodes[pair.ia];
      const SsvNode& nb = b_.nodes[pair.ib];
      if (na.count == 1 && nb.count == 1) {
        add_leaf(pair.ia, pair.ib);
        if (leaves_.count == kBatch) flush_leaves(f, r, stop_below);
        if (r.stopped) return r;
        continue;
      }
      // Split both nodes (a leaf is never split): up to four child pairs.
      const std::uint32_t ca[2] = {na.count == 1 ? pair.ia : na.first, na.second};
      const std::uint32_t cb[2] = {nb.count == 1 ? pair.ib : nb.first, nb.second};
      for (int i = 0; i < (na.count == 1 ? 1 : 2); ++i) {
        for (int j = 0; j < (nb.count == 1 ? 1 : 2); ++j) add_node(ca[i], cb[j]);
      }
    }
    flush_leaves(f, r, stop_below);
    if (r.stopped) return r;
    evaluate_nodes(f, cull, r, best(), culled);
  }
  // A culled pair's key bounds every triangle pair below it.
  if (cull == Cull::by_time) {
    r.dt = std::min(r.dt, culled);
  } else {
    r.lower = std::min(r.lower, culled);
  }
  return r;
}

void Sweeper::evaluate_nodes(const Frame& f, Cull cull, SweepResult& r, double best, double& culled) {
  if (nodes_.count == 0) return;
  kernels_.node_pairs(nodes_, f);
  r.node_pairs += nodes_.count;
  const std::size_t first = stack_.size();
  const double* keys = cull == Cull::by_time ? nodes_.dt : nodes_.lower;
  double least_culled = culled;
  for (std::size_t k = 0; k < nodes_.count; ++k) {
    if (keys[k] >= best) {
      least_culled = std::min(least_culled, keys[k]);
    } else {
      stack_.push_back({keys[k], node_ids_[k][0], node_ids_[k][1]});
    }
  }
  culled = least_culled;
  std::sort(stack_.begin() + first, stack_.end(), std::greater<>());
}

void Sweeper::node_pair(const Frame& f, std::uint32_t ia, std::uint32_t ib, double& lower, double& dt) {
  nodes_.count = 0;
  add_node(ia, ib);
  kernels_.node_pairs(nodes_, f);
  lower = nodes_.lower[0];
  dt = nodes_.dt[0];
}

SweepResult Sweeper::leaf_pair(const Frame& f, std::uint32_t ia, std::uint32_t ib) {
  SweepResult r;
  leaves_.count = 0;
  add_leaf(ia, ib);
  flush_leaves(f, r, -INFINITY);
  return r;
}

}  // namespace simdccd::advancement
