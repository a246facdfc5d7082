// One sweep of two SSV hierarchies at one time of the step (advance.hpp):
// node pairs and triangle pairs go to the batched kernels (advance/batch.hpp)
// kernel-table entries; node pairs that cannot beat the best leaf so far are
// culled. Internal to the library.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "simdccd/advance.hpp"
#include "simdccd/advance/batch.hpp"

namespace simdccd::advancement {

/// The largest double below x > 0 (x itself when x <= 0): a sum or
/// difference of times rounded to nearest, moved down to a certified bound.
inline double round_down(double x) {
  return x > 0 ? std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) - 1) : x;
}

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

/// What a sweep is asked.
struct SweepRequest {
  Cull cull = Cull::by_time;
  /// The sweep ends early when a triangle pair comes within this distance.
  double stop_below = -INFINITY;
  /// In (0, 1]: a node pair is culled when its key is not below `control`
  /// times the best leaf's; the result's dt (by_time) or lower (by_distance)
  /// is then the least key over the leaves visited and the culled pairs: at
  /// least control times the best leaf's, a valid bound for less work (the
  /// paper's damping w).
  double control = 1;
  /// Pairs whose key is not below `horizon` are culled too (the step ends
  /// before they can touch).
  double horizon = INFINITY;
  /// The leaf pair tested first (motion coherence: the last sweep's closest).
  bool has_seed = false;
  std::uint32_t seed_a = 0, seed_b = 0;
  /// The sweep's time in the step, and whether to start from the last
  /// sweep's cut (see Sweeper::sweep).
  double time = 0;
  bool resume = false;
};

/// Reusable buffers for sweeps of one model pair (one per thread). A sweep
/// leaves a cut of the pair hierarchy: the node pairs it culled and the leaf
/// pairs it tested, each with the time until which it is certified apart
/// (the sweep's time plus its key, rounded down). The cut covers every
/// triangle pair, so a later sweep of a C2A query can start from it: an entry
/// still certified past what the sweep can cull costs no kernel work.
class Sweeper {
 public:
  Sweeper(const RigidModel& a, const RigidModel& b);
  ~Sweeper();
  Sweeper(const Sweeper&) = delete;
  Sweeper& operator=(const Sweeper&) = delete;

  /// One sweep at time `time` of the step, depth first: the children of the
  /// pairs popped fill a round of a kernel batch (kRound lanes, traversal.cpp)
  /// and each round's pair of least key goes on top of the stack. Starts from
  /// the root pair, or with `resume` (Cull::by_time) from the cut the last
  /// complete sweep of this Sweeper left at an earlier time, while that cut
  /// holds no more entries than the last sweep from the root evaluated node
  /// pairs (a cut only grows).
  SweepResult sweep(const Frame& f, const SweepRequest& request);

  /// The node pair (ia, ib) alone: its closing time and lower bound.
  void node_pair(const Frame& f, std::uint32_t ia, std::uint32_t ib, double& lower, double& dt);
  /// The leaf pair (ia, ib) alone, as a sweep result.
  SweepResult leaf_pair(const Frame& f, std::uint32_t ia, std::uint32_t ib);

 private:
  /// Written and read field by field (emplace, pop): a whole-struct copy of
  /// an entry just written stalls on store forwarding.
  struct Keyed {
    double key;
    double until;  ///< NaN: the key is this sweep's; else from the last cut, certified apart until then
    std::uint32_t ia, ib;
    Keyed(double k, double u, std::uint32_t a, std::uint32_t b) : key(k), until(u), ia(a), ib(b) {}
    bool operator>(const Keyed& o) const { return key != o.key ? key > o.key : ia != o.ia ? ia > o.ia : ib > o.ib; }
  };
  struct CutPair {
    double until;
    std::uint32_t ia, ib;
  };
  /// A batch's node pairs [begin, end): the pair (ia, ib) itself, or its children.
  struct Group {
    std::size_t begin, end;
    std::uint32_t ia, ib;
    bool children;
  };
  /// The sweeps' memory, kept per thread between queries (no allocation, no
  /// page faults, no clearing once warm). Batch lanes past `count` keep
  /// finite values from earlier batches: the kernels' padding.
  struct Buffers {
    std::vector<Keyed> stack;  ///< node pairs to expand, the least key of each batch on top
    std::vector<CutPair> cut, last_cut;
    std::vector<Group> groups;
    std::uint32_t node_ids[kBatch][2];
    std::uint32_t leaf_ids[kBatch][2];
    NodeBatch nodes;
    TriangleBatch leaves;
  };
  static std::vector<std::unique_ptr<Buffers>>& idle();  ///< this thread's idle Buffers
  static std::unique_ptr<Buffers> take_buffers();

  void add_node(std::uint32_t ia, std::uint32_t ib);
  void add_leaf(std::uint32_t ia, std::uint32_t ib);
  void add_group(std::uint32_t ia, std::uint32_t ib, bool children);
  /// `record`: the leaf pairs join the cut.
  void flush_leaves(const Frame& f, SweepResult& r, double stop_below, bool record = false);
  void evaluate_nodes(const Frame& f, Cull cull, SweepResult& r, double best, double& culled);
  /// `until`: NaN, or a cut entry's time (kept as it is).
  void cull_pair(double key, double until, std::uint32_t ia, std::uint32_t ib, double& culled);
  void least_on_top(std::size_t first);

  const RigidModel& a_;
  const RigidModel& b_;
  const KernelTable& kernels_;
  std::unique_ptr<Buffers> buffers_;
  std::vector<Keyed>& stack_;
  std::vector<CutPair>&cut_, &last_cut_;
  std::vector<Group>& groups_;
  std::uint32_t (&node_ids_)[kBatch][2];
  std::uint32_t (&leaf_ids_)[kBatch][2];
  NodeBatch& nodes_;
  TriangleBatch& leaves_;
  double time_ = 0;
  bool cut_complete_ = false;     ///< the last sweep ran to its end: its cut covers every pair
  std::uint64_t root_pairs_ = 0;  ///< node pairs of the last sweep from the root
};

}  // namespace simdccd::advancement
