// A whole time step: broad phase (swept boxes, sort-and-sweep) and narrow
// phase (the linear-trajectory kernels) in one call.
//
// Candidates stream from the sweep to the kernels in batches, so a step never
// holds all its candidate pairs unless asked to (`keep_candidates`): memory is
// the mesh, its boxes and one batch per thread, plus the collisions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "simdccd/broad_phase.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/mesh.hpp"

namespace simdccd {

struct StepOptions {
  Options narrow;            ///< mode and time tolerance of the kernels (linear_ccd.hpp)
  double margin = 0;         ///< widens every swept box (broad_phase.hpp); >= 0
  int threads = 0;           ///< 0: all cores
  std::size_t batch = 4096;  ///< candidates per narrow-phase call
  bool keep_candidates = false;
  /// Called after each batch with its candidate count, from the worker
  /// threads concurrently (for progress reports); may be empty.
  std::function<void(std::size_t)> on_batch;
};

/// A colliding pair: (vertex, face) for VF, (edge, edge) with a < b for EE,
/// indices into the mesh's x0, faces and edges.
struct Collision {
  std::int32_t a = 0, b = 0;
  double toi = 0;  ///< lower bound of the pair's earliest contact time (linear_ccd.hpp)
  Status status = Status::certified;
  friend bool operator==(const Collision&, const Collision&) = default;
};

struct StepStats {
  std::uint64_t vf_candidates = 0, ee_candidates = 0;
  BatchStats vf, ee;  ///< the narrow phase's counts per type (invalid queries included)
  /// Wall-clock seconds of the step split between the phases: boxes and sort
  /// are broad; the streamed part is split in proportion to the thread time
  /// spent sweeping and deciding. broad + narrow = the step's wall time.
  double broad_seconds = 0, narrow_seconds = 0;
};

struct StepResult {
  std::vector<Collision> vf, ee;  ///< hits, sorted by (a, b)
  /// The smallest toi of all hits: no contact before it (what a line search
  /// needs); +infinity when the step has no collision.
  double earliest_toi = std::numeric_limits<double>::infinity();
  StepStats stats;
  Candidates candidates;  ///< every candidate, when `keep_candidates`
};

/// Broad + narrow phase of one step, one-shot sort. Deterministic: the same
/// result for any thread count and target (timings aside). Thread-safe.
/// Vertices with a non-finite coordinate, or beyond 2^60, make their pairs
/// invalid queries (counted in stats.vf/ee.invalid), never silent misses.
StepResult ccd_step(const Mesh& mesh, const StepOptions& options = {});

/// The same for a sequence of steps of one mesh: keeps the boxes' memory and
/// the sweep order, re-sorted incrementally (SortAndSweep::resort). Results
/// equal `ccd_step`'s. One object per sequence; not thread-safe.
class StepSequence {
 public:
  StepResult step(const Mesh& mesh, const StepOptions& options = {});

 private:
  MeshBoxes boxes_;
  SortAndSweep sweep_;
  bool sorted_ = false;
};

}  // namespace simdccd
