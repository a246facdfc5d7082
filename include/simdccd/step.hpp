// A whole time step: broad phase (swept boxes, sort-and-sweep) and narrow
// phase (the kernels of the linear or the space-time model) in one call.
//
// Candidates stream from the sweep to the kernels in batches, so a step never
// holds all its candidate pairs unless asked to (`keep_candidates`): memory is
// the mesh, its boxes and one batch per thread, plus the collisions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string_view>
#include <vector>

#include "simdccd/broad_phase.hpp"
#include "simdccd/linear_ccd.hpp"
#include "simdccd/mesh.hpp"

namespace simdccd {

/// The motion model of the narrow phase. The swept boxes suit both: a point
/// of either model's swept element at any t is a convex combination of the
/// element's vertices at t=0 and t=1 (broad_phase.hpp).
enum class StepModel : std::uint8_t {
  linear,     ///< straight vertex paths: linear_ccd (linear_ccd.hpp)
  spacetime,  ///< Brochu & Bridson's space-time simplices: spacetime_ccd
              ///< (spacetime_ccd.hpp), the diagonals chosen by the mesh's
              ///< vertex indices, so the mesh stays watertight
};

/// "linear" or "spacetime".
std::string_view to_string(StepModel model);

struct StepOptions {
  /// Mode and time tolerance of the kernels, and with the linear model the
  /// minimum separation d (Options::min_distance): then every swept box also
  /// widens by d/2 (rounded up), so no pair that comes within d is dropped.
  Options narrow;
  StepModel model = StepModel::linear;
  double margin = 0;         ///< widens every swept box (broad_phase.hpp); >= 0
  /// Pairs of one connected body also need their boxes in the body's moving
  /// frame to overlap (BodyFrames, broad_phase.hpp): far fewer candidates
  /// from bodies that move fast but nearly rigidly, the same collisions;
  /// skipped where the bodies turn or deform more than they travel.
  bool body_frames = true;
  /// Pairs also need their DiagonalSlabs (broad_phase.hpp) to overlap: on
  /// the bundled scenes 60% fewer candidates than the boxes alone, the same
  /// collisions.
  bool diagonal_slabs = true;
  int threads = 0;           ///< 0: all cores; above 4096: 4096
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
  double toi = 0;  ///< lower bound of the pair's earliest contact time in the model
  Status status = Status::certified;
  friend bool operator==(const Collision&, const Collision&) = default;
};

struct StepStats {
  std::uint64_t vf_candidates = 0, ee_candidates = 0;
  /// The narrow phase's counts per type (invalid queries included); the
  /// space-time model has no root stage (root_stage 0).
  BatchStats vf, ee;
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
/// result for any thread count, target and batch size (timings aside).
/// Thread-safe. Answers are the model's kernels' on each candidate, with the
/// guarantees of options.narrow.mode (linear_ccd.hpp, spacetime_ccd.hpp).
/// Vertices with a non-finite coordinate, or beyond 2^60, make their pairs
/// invalid queries (counted in stats.vf/ee.invalid), never silent misses.
/// std::invalid_argument for a `model` that is no StepModel, a margin not in
/// [0, 2^60], a batch of 0, `narrow` options that are not valid_options (a
/// mode outside the enum, a negative or NaN time_tolerance, a min_distance
/// not in [0, 2^60]; the batch entries answer invalid_input instead), a
/// narrow.min_distance not 0 with the space-time model, and a mesh whose
/// vertex counts differ or whose faces or edges name a vertex out of range.
StepResult ccd_step(const Mesh& mesh, const StepOptions& options = {});

/// A candidate pair or a Collision as the kernels decide it: its query (VF:
/// the vertex, then the face's three; EE: edge a's two, then edge b's two; at
/// t=0, then at t=1) and the mesh vertex indices of those points, which are
/// the space-time model's ids (SpacetimeIds, spacetime_oracle.hpp). For
/// checking an answer with an oracle, or a contact normal
/// (spacetime_contact_normal). std::out_of_range for a pair not in the mesh.
struct PairQuery {
  Query query;
  std::array<std::int64_t, 4> vertices{};
};
PairQuery pair_query(const Mesh& mesh, QueryType type, const CandidatePair& pair);

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
