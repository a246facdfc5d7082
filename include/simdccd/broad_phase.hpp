// The broad phase of a time step: swept axis-aligned boxes and sort-and-sweep
// (one-shot or incremental), producing the vertex-face and edge-edge pairs
// whose boxes overlap.
//
// A pair can only collide during the step if the boxes of its elements over
// the whole step overlap: under linear trajectories (and in space-time) every
// point of an element stays in the box of its vertices at t=0 and t=1. Boxes
// are closed (touching boxes overlap) and, with margin 0, exact (min and max
// of the coordinates), so the broad phase drops no pair that can touch.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "simdccd/large_vector.hpp"
#include "simdccd/mesh.hpp"
#include "simdccd/query.hpp"

namespace simdccd {

/// Closed boxes as structure of arrays: box i is [lo[a][i], hi[a][i]] on axis a.
struct Boxes {
  std::array<LargeVector<double>, 3> lo, hi;
  std::size_t size() const { return lo[0].size(); }
  void resize(std::size_t n);  ///< new boxes are unset (LargeVector)
};

/// The mesh's bodies (its connected components: vertices linked by faces)
/// and each vertex's swept box in its body's frame, a frame that moves with
/// the body's mean displacement D: the box contains x(0) and x(1) - D. A
/// common motion t D subtracted from all points of a pair changes neither
/// model's contacts (a shear of space-time), so two elements of one body
/// can only touch if these boxes overlap too; for a body that translates,
/// they are about as small as the elements, however far it moves.
struct BodyFrames {
  LargeVector<std::int32_t> body;  ///< of each vertex: the least vertex index of its body
  Boxes vertices;                  ///< each vertex's box in its body's frame, rounded outwards
};

/// Each element's extent over the step along the six diagonal directions
/// x+y, x-y, y+z, y-z, z+x, z-x (unnormalized): its interval on each holds
/// the projections of its vertices at t=0 and t=1, widened by twice the
/// boxes' margin, in floats rounded outwards. Like a box, it holds the
/// element at every t (a convex combination of those points); a direction
/// has length sqrt 2, so two elements within 2 margin of each other (or
/// touching) overlap on every direction.
struct DiagonalSlabs {
  static constexpr int kDirections = 6;
  /// Element i's intervals: lo on direction k at [i][k], hi at [i][kDirections + k].
  LargeVector<std::array<float, 2 * kDirections>> bounds;
  std::size_t size() const { return bounds.size(); }
};

struct MeshBoxes {
  Boxes vertices, edges, faces;
  /// Optional (empty: none): with them, SortAndSweep also drops pairs whose
  /// slabs are apart on a direction (on the bundled scenes, 60% of the
  /// box pairs; a twisted or diagonal element's box is far larger than it).
  DiagonalSlabs vertex_slabs, edge_slabs, face_slabs;
  /// Optional (empty: none): with it, SortAndSweep also drops pairs of one
  /// body whose frame boxes are apart.
  BodyFrames frames;
};

/// Swept boxes of the step: each element's box contains its vertices at t=0
/// and t=1, widened by `margin` on every side (for minimum-separation
/// queries; rounded to nearest, so a margin is as exact as a subtraction).
/// Vectorized with Highway, on the target of the active implementation
/// (targets.hpp; the best runnable one for "double"); the result is exact
/// and the same on every target. `out` keeps its memory;
/// its frames and slabs are cleared (compute_body_frames and
/// compute_diagonal_slabs after this call add them).
/// Precondition: margin >= 0 and finite.
void compute_swept_boxes(const Mesh& mesh, double margin, MeshBoxes& out);

/// The DiagonalSlabs of `mesh`'s vertices, edges and faces, widened by
/// 2 `margin` (so pairs within 2 margin overlap, as their boxes do).
/// Deterministic. A vertex with a coordinate that is not finite or beyond
/// 2^60 (the kernels' domain) gets whole lines, so its pairs reach the narrow
/// phase wherever its boxes meet, and are reported invalid. `out` keeps its
/// memory. Precondition: margin >= 0 and finite; the mesh's indices in range.
void compute_diagonal_slabs(const Mesh& mesh, double margin, MeshBoxes& out);

/// The bodies and frame boxes of `mesh` (BodyFrames), widened by `margin`
/// like compute_swept_boxes'. A vertex with a non-finite coordinate, and every
/// vertex of a body whose displacement is not finite, gets the whole space.
/// Deterministic (a fixed order of sums). `out.body` is left empty (no frame
/// test) when the elements' extent over the step in their frames (mean edge
/// length plus mean vertex motion in the frame) is at least 3/4 of their
/// extent in the world (turning or deforming bodies, or bodies that move
/// little for their size): the test would not pay.
/// `out` keeps its memory. Precondition: margin >= 0 and finite; the mesh's
/// indices in range.
void compute_body_frames(const Mesh& mesh, double margin, BodyFrames& out);

/// A candidate: (vertex, face) for VF; (edge, edge), first < second, for EE.
using CandidatePair = std::array<std::int32_t, 2>;

struct Candidates {
  std::vector<CandidatePair> vf, ee;
};

/// Receives candidates in batches: of one type each, and valid only during the call.
using CandidateSink = std::function<void(QueryType, std::span<const CandidatePair>)>;

/// Whether SortAndSweep sweeps within the cells of a grid on the two off axes.
enum class SweepGrid : std::uint8_t {
  automatic,  ///< where a sampled estimate says the scan it saves outweighs listing boxes per cell
  never,      ///< one cell: the plain single-axis sweep
  always,     ///< whenever the boxes make more than one cell
};

/// Sort-and-sweep along one axis, within the cells of a grid on the two
/// other axes (sized from the boxes: about twice their mean width; each
/// pair is taken in one cell only). Pairs: a
/// vertex and a face not containing it, two edges with no shared vertex,
/// whose boxes overlap on all three axes, whose DiagonalSlabs (when the
/// boxes have them) overlap on all six directions and, when the boxes have BodyFrames
/// and both elements are of one body, whose boxes in that body's frame
/// overlap too.
///
/// The sweep is split into chunks fixed by the data (not by the thread
/// count); chunk c always emits the same pairs in the same order, so any
/// schedule of chunks gives the same output. Thread-safe for concurrent
/// `sweep` calls after `sort`/`resort`.
class SortAndSweep {
 public:
  explicit SortAndSweep(SweepGrid grid = SweepGrid::automatic) : grid_(grid) {}

  /// One-shot: sorts every box set (in parallel) along the axis where the
  /// centres of the vertex boxes spread most (largest variance), by (lo, index).
  void sort(const Mesh& mesh, const MeshBoxes& boxes);
  /// Incremental, for frame sequences: re-sorts the previous order by
  /// insertion sort, O(n + swaps) when boxes moved little; a full sort when
  /// the axis changed or the element counts differ. Same state as `sort`.
  void resort(const Mesh& mesh, const MeshBoxes& boxes);

  int axis() const { return axis_; }
  /// Cells of the grid in use (1: none).
  std::size_t cell_count() const { return vertices_.cell_start.empty() ? 1 : vertices_.cell_start.size() - 1; }
  std::size_t chunk_count() const { return chunks_.size(); }
  /// Emits the candidates of chunk `c` in batches of at most `batch` pairs.
  void sweep(std::size_t c, std::size_t batch, const CandidateSink& sink) const;
  /// Every candidate, swept on `threads` threads (0: all cores; above 4096:
  /// 4096), in chunk
  /// order: the same vectors for any thread count.
  Candidates candidates(int threads = 0) const;

  /// Sorted boxes of one element set (internal layout, public for the sweep).
  struct Sorted {
    LargeVector<std::int32_t> order;  ///< element indices by (lo on the axis, index)
    /// An element's DiagonalSlabs as the hit loop compares them: lo on the
    /// six directions, then -hi (whole lines without slabs).
    using SlabKey = std::array<float, 2 * DiagonalSlabs::kDirections>;
    /// An element's body (-1: its vertices are in different bodies, no frame
    /// test) and its box in the body's frame (axes 0..2, floats rounded
    /// outwards).
    struct Frame {
      std::int32_t body;
      float lo[3], hi[3];
    };
    /// The elements listed per cell of a grid on the two off axes (each in
    /// every cell its box meets), every list in sweep order: cell c holds
    /// entries [cell_start[c], cell_start[c + 1]).
    LargeVector<std::int32_t> cell_start;
    /// An entry as the sweep's hit loop reads it: its element's box (less
    /// lo on the sweep axis; hi0 on it, then lo1, -hi1, lo2, -hi2 on the off
    /// axes, so that one compare a lane against another's hi1, -lo1, hi2,
    /// -lo2 tests their overlap), vertices (-1: none), index in its set and
    /// slabs copied into the cell's list, so that the hits of a scan are read
    /// in order, not scattered over the set.
    struct alignas(64) Entry {
      double hi0;
      std::array<double, 4> off;
      std::array<std::int32_t, 3> vertices;
      std::int32_t index;
      SlabKey slabs;
      /// Bit k set when the entry's cell is the element's lowest on off axis
      /// k: a pair is taken in the cell where, on both axes, one of the two is.
      std::uint8_t home;
    };
    LargeVector<Entry> entries;
    LargeVector<double> entry_lo;     ///< its lo on the sweep axis (a cell's start, the exact recheck)
    /// Its box for the scan: lo[0], lo[1], hi[1], lo[2], hi[2] in floats
    /// rounded outwards, padded.
    std::array<LargeVector<float>, 5> scan_box;
    LargeVector<std::int32_t> entry_body;  ///< its Frame: body and lo[0], hi[0], ..., hi[2], padded (with frames)
    std::array<LargeVector<float>, 6> entry_frame;
  };

 private:
  enum class Part : std::uint8_t { faces_over_vertices, vertices_over_faces, edges };
  struct Chunk {
    Part part;
    std::size_t begin, end;  ///< primary entries [begin, end), in cell order
  };
  void finish(const Mesh& mesh, const MeshBoxes& boxes);

  SweepGrid grid_;
  int axis_ = -1;
  Sorted vertices_, edges_, faces_;
  std::vector<Chunk> chunks_;
};

/// The sweep axis of `sort`: where the centres of the vertex boxes have the
/// largest variance (lowest axis on ties); 0 for an empty mesh.
int sweep_axis(const Boxes& vertex_boxes);

/// Every pair (i, j) of a box i of `a` and a box j of `b` that overlap on all
/// three axes (closed boxes), ascending by (i, j): the broad phase between
/// two sets, e.g. a moving body's swept features and a still body's
/// (polyhedra.hpp). Sorts `b` along `axis` and scans, for each box of `a`,
/// the boxes of `b` whose low end lies within its reach.
std::vector<CandidatePair> overlapping_pairs(const Boxes& a, const Boxes& b, int axis);

}  // namespace simdccd
