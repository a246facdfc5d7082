// One sweep of two SSV hierarchies at one time of the step (advance.hpp):
// node pairs and triangle pairs go to the batched kernels (advance/batch.hpp)
// kernel-table entries; node pairs that cannot beat the best leaf so far are
// culled. Internal to the library.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "simdccd/advance.hpp"
#include "simdccd/advance/batch.hpp"

namespace simdccd::advancement {

/// The state of a model pair at time t, in the world: the poses and the
/// terms of the motion bound (Frame).
struct PairState {
  Pose a, b;
  Vec3 v{}, wa{}, wb{};  ///< relative velocity of a's origin, angular velocities
  double lin = 0, spin_a = 0, spin_b = 0;
};

/// The frame of the kernels (a's body frame) for a state, with
/// Frame::error = distance_error(reach_a, reach_b, |x_a| + |x_b| + |v|).
Frame make_frame(const PairState& s, double reach_a, double reach_b);

/// What a sweep keeps: the least closing time or least distance bound over
/// the triangle pairs it visited, and the pair with the least upper bound.
struct SweepResult {
  double dt = INFINITY;     ///< min closing time (Cull::by_time)
  double lower = INFINITY;  ///< min distance lower bound (Cull::by_distance)
  double upper = INFINITY;  ///< least distance upper bound, of the pair below
  std::uint32_t triangle_a = 0, triangle_b = 0;
  std::uint32_t leaf_a = 0, leaf_b = 0;  ///< that pair's leaf nodes
  Vec3 point_a{}, point_b{};  ///< its closest points, in a's body frame
  std::uint64_t node_pairs = 0, triangle_pairs = 0;
  bool stopped = false;  ///< a pair came within `stop_below`: the sweep ended there
};

/// The sweep's closest pair as the public answer: points mapped to the
/// world by a's pose (both are in a's body frame).
DistanceResult closest_pair(const SweepResult& r, const Pose& pose_a);

enum class Cull : std::uint8_t {
  by_time,      ///< node pairs whose closing time is not below the best leaf's
  by_distance,  ///< node pairs whose lower bound is not below the best upper bound
};

/// Reusable buffers for sweeps of one model pair (one per thread).
class Sweeper {
 public:
  Sweeper(const RigidModel& a, const RigidModel& b);

  /// Sweeps from the root pair, after the leaf pair `seed` (when `has_seed`):
  /// motion coherence, the previous sweep's best pair first. Depth first,
  /// the children of a few node pairs per kernel batch, the most promising
  /// (least key) first. A node pair is culled when its key is not below
  /// `control` (in (0, 1]) times the best leaf's; the result's dt (by_time)
  /// or lower (by_distance) is then the least key over the leaves visited
  /// and the culled pairs: at least control times the best leaf's, a valid
  /// bound for less work (the paper's damping w).
  /// Pairs whose key is not below `horizon` are culled too (the step ends
  /// before they can touch). The sweep ends early when a triangle pair
  /// comes within `stop_below`.
  SweepResult sweep(const Frame& f, Cull cull, double stop_below, double control = 1,
                    double horizon = INFINITY, bool has_seed = false,
                    std::uint32_t seed_a = 0, std::uint32_t seed_b = 0);

  /// The node pair (ia, ib) alone: its closing time and lower bound.
  void node_pair(const Frame& f, std::uint32_t ia, std::uint32_t ib, double& lower, double& dt);
  /// The leaf pair (ia, ib) alone, as a sweep result.
  SweepResult leaf_pair(const Frame& f, std::uint32_t ia, std::uint32_t ib);

 private:
  void add_node(std::uint32_t ia, std::uint32_t ib);
  void add_leaf(std::uint32_t ia, std::uint32_t ib);
  void flush_leaves(const Frame& f, SweepResult& r, double stop_below);
  void evaluate_nodes(const Frame& f, Cull cull, SweepResult& r, double best, double& culled);

  /// Node pairs expanded per round: their (up to 4) children fill one node batch.
  static constexpr std::size_t kRound = kBatch / 4;
  struct Keyed {
    double key;
    std::uint32_t ia, ib;
    bool operator>(const Keyed& o) const { return key != o.key ? key > o.key : ia != o.ia ? ia > o.ia : ib > o.ib; }
  };

  const RigidModel& a_;
  const RigidModel& b_;
  const KernelTable& kernels_;
  std::vector<Keyed> stack_;  ///< node pairs to expand; each batch's children sorted, least key on top
  std::uint32_t node_ids_[kBatch][2];
  std::uint32_t leaf_ids_[kBatch][2];
  NodeBatch nodes_{};
  TriangleBatch leaves_{};
};

}  // namespace simdccd::advancement
