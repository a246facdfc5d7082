// Sweeps of two SSV hierarchies (traversal.hpp).
#include "advance/traversal.hpp"

#include <algorithm>
#include <cmath>

#include "advance/certifiable.hpp"
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

// Asks for `count` nodes from `first` before a sweep reads them: node pairs
// wait on the stack or in the cut for a while, long enough to hide the
// misses of a hierarchy larger than the caches.
void prefetch(const std::vector<SsvNode>& nodes, std::uint32_t first, std::size_t count) {
  const char* p = reinterpret_cast<const char*>(&nodes[first]);
  for (std::size_t line = 0; line < count * sizeof(SsvNode); line += 64) __builtin_prefetch(p + line);
}

// The children of `node` (side by side, model.cpp), before a sweep splits it.
void prefetch_children(const std::vector<SsvNode>& nodes, std::uint32_t node) {
  if (nodes[node].count > 1) prefetch(nodes, nodes[node].first, 2);
}

// An inner node of a pair is split when its size is at least this fraction
// of the other's: the larger alone, or both when they are this close. Node
// pairs a query at w = 0.5: gears 8,200 (always both: 14,800; always the
// larger alone: 9,900), knots 10,900 (10,500; 11,500).
constexpr double kSplitFraction = 0.7;

// A C2A round pops node pairs until their children fill this many lanes of
// a batch: a small round tightens the best leaf sooner, so fewer pairs are
// expanded on speculation, but each round costs a kernel call and a padded
// vector. Node pairs a C2A query, knots / gears: 6,671 / 5,220 at 64 lanes,
// 4,232 / 4,845 at 24, 3,860 / 4,793 at 16 (slower on the gears). The wide
// distance sweeps of CA fill whole batches (24 lanes: gears 8% slower).
constexpr std::size_t kRound = 24;
static_assert(kRound + 4 <= kBatch);

// Until a sweep has a leaf to cull by, its rounds are this small: the first
// sweep of a query descends almost greedily to a leaf instead of expanding
// kRound lanes a level with nothing to cull them. Node pairs a C2A query,
// knots / gears: 4,232 / 4,845 at 24 lanes, 3,641 / 4,688 at 8, 3,237 /
// 4,720 at 4 (but more iterations and kernel calls: slower on the gears).
constexpr std::size_t kProbeRound = 8;

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
  // At least the error at the least certified scale: the pair's scale was
  // checked at the step's ends (certifiable()), and the bodies may pass
  // closer to the origin in between.
  f.error = std::max(distance_error(reach_a, reach_b, norm(s.a.x) + norm(s.b.x) + norm(s.v)),
                     distance_error(0, 0, kLeastScale));
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

std::vector<std::unique_ptr<Sweeper::Buffers>>& Sweeper::idle() {
  thread_local std::vector<std::unique_ptr<Buffers>> pool;
  return pool;
}

std::unique_ptr<Sweeper::Buffers> Sweeper::take_buffers() {
  auto& pool = idle();
  if (pool.empty()) return std::make_unique<Buffers>();  // value-initialized: finite padding
  std::unique_ptr<Buffers> b = std::move(pool.back());
  pool.pop_back();
  return b;
}

Sweeper::Sweeper(const RigidModel& a, const RigidModel& b)
    : a_(a),
      b_(b),
      kernels_(active_kernels()),
      buffers_(take_buffers()),
      stack_(buffers_->stack),
      cut_(buffers_->cut),
      last_cut_(buffers_->last_cut),
      groups_(buffers_->groups),
      node_ids_(buffers_->node_ids),
      leaf_ids_(buffers_->leaf_ids),
      nodes_(buffers_->nodes),
      leaves_(buffers_->leaves) {}

Sweeper::~Sweeper() { idle().push_back(std::move(buffers_)); }

[[gnu::always_inline]] inline void Sweeper::add_node(std::uint32_t ia, std::uint32_t ib) {
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

void Sweeper::flush_leaves(const Frame& f, SweepResult& r, double stop_below, bool record) {
  if (leaves_.count == 0) return;
  kernels_.triangle_pairs(leaves_, f);
  r.triangle_pairs += leaves_.count;
  for (std::size_t k = 0; k < leaves_.count; ++k) {
    r.dt = std::min(r.dt, leaves_.dt[k]);
    r.lower = std::min(r.lower, leaves_.lower[k]);
    if (record) cut_.push_back({round_down(time_ + leaves_.dt[k]), leaf_ids_[k][0], leaf_ids_[k][1]});
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

[[gnu::always_inline]] inline void Sweeper::cull_pair(double key, double until, std::uint32_t ia, std::uint32_t ib, double& culled) {
  culled = std::min(culled, key);
  cut_.push_back({std::isnan(until) ? round_down(time_ + key) : until, ia, ib});
}

SweepResult Sweeper::sweep(const Frame& f, const SweepRequest& q) {
  SweepResult r;
  leaves_.count = 0;
  time_ = q.time;
  // A cut grows as sweeps refine it: once it holds more entries than the
  // last sweep from the root evaluated node pairs, reading it costs more
  // than it saves.
  const bool resume = q.resume && q.cull == Cull::by_time && cut_complete_ && cut_.size() <= root_pairs_;
  cut_complete_ = false;
  std::swap(cut_, last_cut_);
  cut_.clear();
  if (q.has_seed) {
    add_leaf(q.seed_a, q.seed_b);
    flush_leaves(f, r, q.stop_below, false);  // a bound to cull by; the cut covers the pair
    if (r.stopped) return r;
  }
  const auto best = [&] { return std::min(q.horizon, q.control * (q.cull == Cull::by_time ? r.dt : r.upper)); };
  // Depth first: pairs are popped until their children fill a round, and
  // each round's pair of least key (closing time or lower bound) goes on
  // top; the sweep ends when no pair left can beat the best leaf.
  stack_.clear();
  nodes_.count = 0;
  double culled = INFINITY;  // the least key of a culled node pair
  if (resume) {
    // The last sweep's cut covers every triangle pair, each entry certified
    // apart until its time: entries that still cannot beat the best stay,
    // the others are evaluated again at this time.
    const double bound = best();
    double least = INFINITY;  // a local: no store to `culled` in the loop
    for (const CutPair& c : last_cut_) {
      const double key = round_down(c.until - time_);
      if (key >= bound) {
        least = std::min(least, key);
        cut_.push_back(c);
      } else {
        stack_.emplace_back(key, c.until, c.ia, c.ib);
        prefetch(a_.nodes, c.ia, 1);
        prefetch(b_.nodes, c.ib, 1);
      }
    }
    culled = least;
    least_on_top(0);
  } else {
    groups_.clear();
    add_group(0, 0, false);
    evaluate_nodes(f, q.cull, r, best(), culled);
  }
  while (!stack_.empty()) {
    nodes_.count = 0;
    groups_.clear();
    const bool by_time = q.cull == Cull::by_time;
    const std::size_t round = (by_time ? r.dt : r.upper) == INFINITY ? kProbeRound : by_time ? kRound : kBatch;
    while (nodes_.count + 4 <= round && !stack_.empty()) {
      const Keyed& top = stack_.back();
      const double key = top.key, until = top.until;
      const std::uint32_t ia = top.ia, ib = top.ib;
      stack_.pop_back();
      if (key >= best()) {
        cull_pair(key, until, ia, ib, culled);
        continue;
      }
      if (!std::isnan(until)) {
        add_group(ia, ib, false);  // a cut entry: its key at this time first
        continue;
      }
      if (a_.nodes[ia].count == 1 && b_.nodes[ib].count == 1) {
        add_leaf(ia, ib);
        if (leaves_.count == kBatch) flush_leaves(f, r, q.stop_below, true);
        if (r.stopped) return r;
        continue;
      }
      add_group(ia, ib, true);
    }
    flush_leaves(f, r, q.stop_below, true);
    if (r.stopped) return r;
    evaluate_nodes(f, q.cull, r, best(), culled);
  }
  cut_complete_ = true;
  if (!resume) root_pairs_ = r.node_pairs;
  // A culled pair's key bounds every triangle pair below it.
  if (q.cull == Cull::by_time) {
    r.dt = std::min(r.dt, culled);
  } else {
    r.lower = std::min(r.lower, culled);
  }
  return r;
}

[[gnu::always_inline]] inline void Sweeper::add_group(std::uint32_t ia, std::uint32_t ib, bool children) {
  groups_.push_back({nodes_.count, 0, ia, ib, children});
  if (!children) {
    add_node(ia, ib);
  } else {
    // Two or four child pairs (kSplitFraction); a leaf is never split.
    const SsvNode& na = a_.nodes[ia];
    const SsvNode& nb = b_.nodes[ib];
    const bool inner_a = na.count > 1, inner_b = nb.count > 1;
    const bool split_a = inner_a && (!inner_b || na.size >= kSplitFraction * nb.size);
    const bool split_b = inner_b && (!inner_a || nb.size >= kSplitFraction * na.size);
    const std::uint32_t ca[2] = {split_a ? na.first : ia, na.second};
    const std::uint32_t cb[2] = {split_b ? nb.first : ib, nb.second};
    for (int i = 0; i < (split_a ? 2 : 1); ++i) {
      for (int j = 0; j < (split_b ? 2 : 1); ++j) add_node(ca[i], cb[j]);
    }
  }
  groups_.back().end = nodes_.count;
}

void Sweeper::evaluate_nodes(const Frame& f, Cull cull, SweepResult& r, double best, double& culled) {
  if (nodes_.count == 0) return;
  kernels_.node_pairs(nodes_, f);
  r.node_pairs += nodes_.count;
  const std::size_t first = stack_.size();
  const double* keys = cull == Cull::by_time ? nodes_.dt : nodes_.lower;
  for (const Group& g : groups_) {
    double least = INFINITY;
    for (std::size_t k = g.begin; k < g.end; ++k) least = std::min(least, keys[k]);
    if (g.children && least >= best) {
      // All culled: the cut keeps their parent (a smaller cut).
      culled = std::min(culled, least);
      cut_.push_back({round_down(time_ + least), g.ia, g.ib});
      continue;
    }
    for (std::size_t k = g.begin; k < g.end; ++k) {
      const std::uint32_t ia = node_ids_[k][0], ib = node_ids_[k][1];
      if (keys[k] >= best) {
        cull_pair(keys[k], NAN, ia, ib, culled);
      } else {
        stack_.emplace_back(keys[k], NAN, ia, ib);
        prefetch_children(a_.nodes, ia);
        prefetch_children(b_.nodes, ib);
      }
    }
  }
  least_on_top(first);
}

void Sweeper::least_on_top(std::size_t first) {
  if (stack_.size() <= first) return;
  const auto least = std::min_element(stack_.begin() + first, stack_.end(),
                                      [](const Keyed& x, const Keyed& y) { return y > x; });
  Keyed& top = stack_.back();
  std::swap(least->key, top.key);
  std::swap(least->until, top.until);
  std::swap(least->ia, top.ia);
  std::swap(least->ib, top.ib);
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
